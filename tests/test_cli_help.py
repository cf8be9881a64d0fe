"""``--help`` of the maintainers' scripts says what the script does in whole sentences.

Each script's description is its module docstring's first paragraph: cut at the docstring's first
line break, ``python -m bench league --help`` ended mid-sentence ('(issue 29, "a league, not').
"""

from __future__ import annotations

import importlib

import pytest

SCRIPTS = (
    "tools.docfacts", "tools.make_catalogue", "bench.web", "bench.waits", "bench.soak", "bench.renders",
    "bench.league", "bench.crashsim", "bench.budget_strength", "bench.ratings", "bench.bot",
    "bench.render_profile",
)


def _letters(text: str) -> str:
    """``text`` without its white space: argparse wraps the description anew (``wall-`` ends a line)."""
    return "".join(text.split())


@pytest.mark.parametrize("name", SCRIPTS)
def test_help_gives_the_whole_first_paragraph(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    module = importlib.import_module(name)
    assert module.__doc__ is not None
    entry = getattr(module, "cli", None) or module.main  # bench.soak and bench.crashsim: cli(argv)
    with pytest.raises(SystemExit) as stop:
        entry(["--help"])
    assert stop.value.code == 0
    assert _letters(module.__doc__.split("\n\n")[0]) in _letters(capsys.readouterr().out)
