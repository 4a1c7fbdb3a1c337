"""What start-up built, put out of the garbage collector's sight.

Everything imported and built before the first move (the modules of the bot, the engines,
the renderers, their tables and caches: some 100,000 objects in the bot's process) lives as
long as the process. Python's full collection walks all of it each time it runs, which took
20-30 ms here, a pause for whichever move or board was under way. `gc.freeze` moves what
exists now into a generation the collector never visits; what is made later is collected
as before. Called by what starts a long-lived process: the runner, each CPU worker, and
the bench in its stead (a terminal game is one player's and short: it does not freeze).
"""

from __future__ import annotations

import gc


def settle() -> None:
    """Collect what start-up left over (frozen, it would be kept for good), then freeze the
    rest: called once a process has imported and built what it keeps."""
    gc.collect()
    gc.freeze()
