"""Command line: ``python -m renders bench`` or ``python -m renders examples [DIR]``."""

from __future__ import annotations

import sys

USAGE = "usage: python -m renders bench | python -m renders examples [DIR]"


def main(argv: list[str]) -> int:
    if argv[:1] == ["bench"]:
        from .bench import main as bench

        return bench()
    if argv[:1] == ["examples"]:
        from .examples import main as examples

        return examples(argv[1] if len(argv) > 1 else "docs/images")
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
