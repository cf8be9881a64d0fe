"""Command line: ``python -m renders examples [DIR]`` (the images' bench is ``python -m bench renders``)."""

from __future__ import annotations

import sys

from .examples import main as examples

USAGE = "usage: python -m renders examples [DIR]   (the images' bench: python -m bench renders)"


def main(argv: list[str]) -> int:
    if argv[:1] == ["examples"]:
        return examples(argv[1] if len(argv) > 1 else "docs/images")
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
