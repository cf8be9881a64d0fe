"""Budgets for measured figures: the one mechanism every benchmark of the project reports through.

``python -m engine bench``, ``python -m renders bench`` and ``python -m bench`` each build a
:class:`BenchReport`, add their figures to it — with a budget (``at_most`` / ``at_least``) or
without one (reported only) — and end with :meth:`BenchReport.finish`, which

* prints one line per budgeted figure: PASS or MISS, the value, and the budget beside it;
* prints the JSON last line: every figure by its key (as before), plus ``"budgets"`` (per budgeted
  key: value, limit, budget, ok) and ``"within_budget"``;
* returns the exit code: 0 when every budget is met, 1 when one is missed (``make bench`` fails);
* writes the report, with a description of the machine, to ``$PROJECTL_BENCH_DIR/<name>.json``
  when that variable is set (``make bench`` sets it; ``python -m bench.docs`` turns those files
  into the figures section of docs/benchmarks.md).

It lives in the engine only because the engine is the package every other one already depends
on; it is pure apart from :meth:`finish`'s printing and the optional file.
"""

from __future__ import annotations

import json
import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RESULTS_DIR_VARIABLE = "PROJECTL_BENCH_DIR"


@dataclass(frozen=True, slots=True)
class Case:
    """One measured figure: its JSON key, what it is, the value and (optionally) its budget."""

    key: str
    label: str
    value: float
    unit: str = ""
    limit: str | None = None  # "<=" or ">=" when budgeted
    budget: float | None = None
    note: str = ""

    @property
    def budgeted(self) -> bool:
        return self.limit is not None and self.budget is not None

    @property
    def ok(self) -> bool:
        if not self.budgeted:
            return True
        assert self.budget is not None
        return self.value <= self.budget if self.limit == "<=" else self.value >= self.budget

    def line(self) -> str:
        value = f"{_number(self.value)} {self.unit}".strip()
        note = f"  ({self.note})" if self.note else ""
        if not self.budgeted:
            return f"  ----  {self.label}: {value}{note}"
        budget = f"{self.limit} {_number(self.budget or 0.0)} {self.unit}".strip()
        return f"  {'PASS' if self.ok else 'MISS'}  {self.label}: {value}   budget {budget}{note}"

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.value, "unit": self.unit, "limit": self.limit,
                "budget": self.budget, "ok": self.ok, "note": self.note}


class BenchReport:
    """Collects the figures of one benchmark command (see the module docstring)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.cases: list[Case] = []
        self.extra: dict[str, Any] = {}

    def add(
        self, key: str, value: float, *, label: str, unit: str = "", at_most: float | None = None,
        at_least: float | None = None, note: str = "",
    ) -> float:
        """Record a figure; with ``at_most`` or ``at_least`` it is budgeted. Returns ``value``."""
        if at_most is not None and at_least is not None:
            raise ValueError(f"{key}: a budget is either at_most or at_least, not both")
        if any(c.key == key for c in self.cases):
            raise ValueError(f"{key}: recorded twice")
        limit = "<=" if at_most is not None else ">=" if at_least is not None else None
        budget = at_most if at_most is not None else at_least
        self.cases.append(Case(key, label, value, unit, limit, budget, note))
        return value

    def info(self, key: str, value: Any) -> None:
        """A value for the JSON line that is not a measured figure (counts, settings, nested data)."""
        self.extra[key] = value

    @property
    def missed(self) -> list[Case]:
        return [c for c in self.cases if not c.ok]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {c.key: c.value for c in self.cases}
        data.update(self.extra)
        data["budgets"] = {c.key: {"value": c.value, "limit": c.limit, "budget": c.budget, "ok": c.ok}
                           for c in self.cases if c.budgeted}
        data["within_budget"] = not self.missed
        return data

    def finish(self) -> int:
        """Print the per-figure lines and the JSON last line; save the file; return the exit code."""
        print(f"{self.name}: figures against their budgets", flush=True)
        for case in self.cases:
            print(case.line(), flush=True)
        missed = self.missed
        print(f"{self.name}: " + (f"{len(missed)} budget(s) MISSED: " + ", ".join(c.key for c in missed)
                                  if missed else "every budget met"), flush=True)
        self.save()
        print(json.dumps(self.to_json()), flush=True)
        return 1 if missed else 0

    def save(self) -> Path | None:
        folder = os.environ.get(RESULTS_DIR_VARIABLE)
        if not folder:
            return None
        path = Path(folder) / f"{self.name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({
            "bench": self.name, "machine": machine(), "cases": {c.key: c.to_json() for c in self.cases},
            "extra": self.extra, "within_budget": not self.missed,
        }, indent=1))
        return path


def machine() -> dict[str, Any]:
    """What the figures were measured on: CPU model, core count, load, Python, date."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = round(os.getloadavg()[0], 2)
    except OSError:
        load = None
    return {"cpu": model, "cores": os.cpu_count(), "load_1min": load,
            "python": platform.python_version(), "system": platform.system(),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}


def _number(value: float) -> str:
    if isinstance(value, int) or float(value).is_integer() and abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:,.2f}" if abs(value) < 100 else f"{value:,.1f}"
