"""`python -m bot.precompile`: the dataclass methods of every module compiled ahead, into
the file bot/dataclass_code.py serves them from (`make bytecode`, the Docker image). Does
nothing when that file is newer than every source of the project (`--force`: anyway)."""

from __future__ import annotations

import sys
from pathlib import Path

from bot import dataclass_code

ROOT = Path(__file__).resolve().parent.parent


def up_to_date(kept: Path) -> bool:
    if not kept.exists():
        return False
    built = kept.stat().st_mtime
    sources = (p for name in dataclass_code.PACKAGES for p in (ROOT / name).rglob("*.py"))
    return all(p.stat().st_mtime < built for p in sources)


def main(argv: list[str], kept: Path = dataclass_code.KEPT) -> int:
    if "--force" not in argv and up_to_date(kept):
        return 0
    try:
        count, failed = dataclass_code.build(kept)
    except OSError as exc:  # an install this user may not write to
        print(
            f"Dataclass methods not compiled ahead: cannot write {kept} ({exc.strerror or exc}). "
            "The bot runs the same, compiling them as it starts.",
            file=sys.stderr,
        )
        return 1
    print(f"dataclass methods compiled ahead: {count} texts in {kept}")
    for name in failed:
        print(f"  not imported (its classes compile at use): {name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
