"""The one mechanism every bench reports through: figures, their budgets, the verdict, the file.

Each suite (``python -m bench engine|renders|bot|ai``) builds a :class:`BenchReport`, records its
figures with :meth:`BenchReport.add` — the budget, if the figure has one, comes from the registry
in :mod:`bench.budgets` — and ends with :meth:`BenchReport.finish`, which

* prints one line per figure: PASS or MISS and the budget beside a budgeted one;
* reports every budget of the suite that was never recorded as missed ("not measured");
* prints the JSON last line: every figure by its key, plus ``"budgets"`` (per budgeted key:
  value, limit, budget, ok) and ``"within_budget"``;
* returns the exit code: 0 when every budget is met, 1 when one is missed (``make bench`` fails);
* writes the report, with a description of the machine, to ``$PROJECTL_BENCH_DIR/<suite>.json``
  when that variable is set (``make bench`` sets it; ``python -m bench.docs`` turns those files
  into the figures sections of docs/benchmarks.md).
"""

from __future__ import annotations

import json
import math
import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .budgets import BUDGETS, Budget, budgets_of

RESULTS_DIR_VARIABLE = "PROJECTL_BENCH_DIR"
NOT_MEASURED = "not measured"


@dataclass(frozen=True, slots=True)
class Case:
    """One measured figure: its JSON key, what it is, the value and (optionally) its budget."""

    key: str
    label: str
    value: float
    unit: str = ""
    limit: str | None = None  # "<=", ">=" or "within" when budgeted
    budget: float | None = None  # the bound; a range's lower end
    note: str = ""
    upper: float | None = None  # a range's upper end

    @property
    def budgeted(self) -> bool:
        return self.limit is not None and self.budget is not None

    @property
    def measured(self) -> bool:
        return not math.isnan(self.value)

    @property
    def ok(self) -> bool:
        if not self.budgeted:
            return True
        assert self.budget is not None
        if not self.measured:
            return False
        if self.limit == "within":
            assert self.upper is not None
            return self.budget <= self.value <= self.upper
        return self.value <= self.budget if self.limit == "<=" else self.value >= self.budget

    def line(self) -> str:
        value = f"{_number(self.value)} {self.unit}".strip() if self.measured else NOT_MEASURED
        note = f"  ({self.note})" if self.note else ""
        if not self.budgeted:
            return f"  ----  {self.label}: {value}{note}"
        if self.limit == "within":
            budget = f"{_number(self.budget or 0.0)}..{_number(self.upper or 0.0)} {self.unit}".strip()
        else:
            budget = f"{self.limit} {_number(self.budget or 0.0)} {self.unit}".strip()
        return f"  {'PASS' if self.ok else 'MISS'}  {self.label}: {value}   budget {budget}{note}"

    def json_value(self) -> float | None:
        return self.value if self.measured else None

    def json_budget(self) -> float | list[float] | None:
        """The bound, or a range as ``[lower, upper]``."""
        if self.limit == "within" and self.budget is not None and self.upper is not None:
            return [self.budget, self.upper]
        return self.budget

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.json_value(), "unit": self.unit, "limit": self.limit,
                "budget": self.json_budget(), "ok": self.ok, "note": self.note}


class BenchReport:
    """Collects the figures of one suite (see the module docstring). ``budgets`` is the registry
    (tests pass their own)."""

    def __init__(self, name: str, budgets: dict[str, Budget] | None = None) -> None:
        self.name = name
        self.budgets = BUDGETS if budgets is None else budgets
        self.cases: list[Case] = []
        self.extra: dict[str, Any] = {}

    def add(self, key: str, value: float, *, label: str, unit: str = "", note: str = "") -> float:
        """Record a figure; its budget, if any, is the registry's (:mod:`bench.budgets`).
        ``note`` says what it was measured over (a sample size). Returns ``value``."""
        if any(c.key == key for c in self.cases):
            raise ValueError(f"{key}: recorded twice")
        budget = self.budgets.get(key)
        if budget is not None and self.name not in budget.suites:
            raise ValueError(f"{key}: its budget belongs to {', '.join(budget.suites)}, not to {self.name} "
                             "(bench/budgets.py)")
        if budget is None:
            self.cases.append(Case(key, label, value, unit, note=note))
        else:
            self.cases.append(Case(key, label, value, unit, budget.limit, budget.value, note, budget.upper))
        return value

    def info(self, key: str, value: Any) -> None:
        """A value for the JSON line that is not a measured figure (counts, settings, nested data)."""
        self.extra[key] = value

    def _unmeasured(self) -> list[Case]:
        """A budget of this suite that no figure was recorded for, as a missed case."""
        recorded = {c.key for c in self.cases}
        return [Case(key, budget.why, math.nan, "", budget.limit, budget.value, "the suite did not record it",
                     budget.upper)
                for key, budget in budgets_of(self.name, self.budgets).items() if key not in recorded]

    def _all_cases(self) -> list[Case]:
        return self.cases + self._unmeasured()

    @property
    def missed(self) -> list[Case]:
        return [c for c in self._all_cases() if not c.ok]

    def to_json(self) -> dict[str, Any]:
        cases = self._all_cases()
        data: dict[str, Any] = {c.key: c.json_value() for c in self.cases}
        data.update(self.extra)
        data["budgets"] = {c.key: {"value": c.json_value(), "limit": c.limit, "budget": c.json_budget(),
                                   "ok": c.ok}
                           for c in cases if c.budgeted}
        data["within_budget"] = not self.missed
        return data

    def finish(self) -> int:
        """Print the per-figure lines and the JSON last line; save the file; return the exit code."""
        print(f"{self.name}: figures against their budgets", flush=True)
        for case in self._all_cases():
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
        cases = {c.key: c.to_json() for c in self._all_cases()}
        path.write_text(json.dumps({"bench": self.name, "machine": machine(), "cases": cases,
                                    "extra": self.extra, "within_budget": not self.missed}, indent=1))
        return path


def discard_saved(name: str) -> None:
    """Remove suite ``name``'s report saved by an earlier run, so that a run that stops before
    saving leaves no stale figures for ``python -m bench.docs`` to publish."""
    folder = os.environ.get(RESULTS_DIR_VARIABLE)
    if folder:
        (Path(folder) / f"{name}.json").unlink(missing_ok=True)


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
