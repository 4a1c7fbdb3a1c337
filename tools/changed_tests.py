"""`python -m tools.changed_tests`: the tests `make check` runs, one path a line.

The tests mirror the packages (tests/bot/service/tables/ tests bot/service/tables/, and so
on), so the tests of a change are those of the mirror folders of the files it touched, and
the test files it touched itself, since the branch left main (committed or not). Where that
finds none, or more than a quick run holds, a fast subset stands in for them. The
end-to-end tests (tests/e2e/) are left to `make test` unless one was itself changed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("bot", "engines", "render", "languages")
# quick, and touching every layer: the buttons, the command table, the layers, the catalogues
FAST = (
    "tests/bot/service/base",
    "tests/bot/service/test_commands.py",
    "tests/test_layers.py",
    "tests/test_catalogues.py",
    "tests/conformance/test_engine_contract.py",
)
MOST = 25  # test files: past that a change touches most of the tree; `make test` checks it


def _git(*args: str) -> list[str]:
    run = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return run.stdout.split() if run.returncode == 0 else []


def changed_files() -> list[str]:
    """Files changed since this branch left main, committed or not, and new files."""
    base = _git("merge-base", "HEAD", "main") or _git("rev-parse", "HEAD")
    files = {*_git("diff", "--name-only", *base[:1]), *_git("diff", "--name-only")}
    files |= set(_git("ls-files", "--others", "--exclude-standard"))
    return sorted(f for f in files if (ROOT / f).exists())


def mirror(path: str) -> list[str]:
    """The tests of a changed file: the test files of its package's mirror folder (that
    folder's own, not its subfolders'), or the test file itself."""
    parts = Path(path).parts
    if parts[0] == "tests" and path.endswith(".py") and Path(path).name.startswith("test_"):
        return [path]
    if parts[0] not in SOURCES or not path.endswith(".py"):
        return []
    folder = ROOT / Path("tests", *parts[:-1])
    return [str(f.relative_to(ROOT)) for f in sorted(folder.glob("test_*.py"))]


def tests_of(files: list[str]) -> list[str]:
    found = sorted({test for f in files for test in mirror(f)})
    return found if 0 < len(found) <= MOST else list(FAST)


def main() -> int:
    print("\n".join(tests_of(changed_files())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
