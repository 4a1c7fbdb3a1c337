"""Jobs that ask a CPU worker about itself, in a module that imports nothing else (so a
worker that runs them imports no more than it already had)."""

import sys


def modules() -> list[str]:
    return sorted(sys.modules)
