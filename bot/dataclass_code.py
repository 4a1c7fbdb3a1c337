"""Dataclass methods compiled ahead, as Python's own bytecode is (`make bytecode`).

Python 3.11's dataclasses write each class's methods (`__init__`, `__repr__`, `__eq__`, and
for a frozen class `__setattr__`, `__delattr__`, `__hash__`) as source text and compile that
text at every import. The bot's start makes some 90 dataclasses, its own and its
libraries', through about 480 compiles: a third of the time its imports take here
(docs/measurements.md). The code depends on the text alone, so `python -m bot.precompile`
(run by `make bytecode` and by the Docker image) imports every module of the project and
keeps each text's compiled code in a file beside the bytecode. A process
that imports `bot` serves those texts from the file and compiles only texts it has not seen.

A missing, unreadable or foreign file (another Python's) changes nothing but the time: the
classes are the same either way, since a text compiles to the same code. Nothing is
written while the bot runs. Python 3.13 compiles a class's methods in one go; once the
project requires it, this module can go.
"""

from __future__ import annotations

import builtins
import dataclasses
import importlib
import importlib.util
import marshal
import os
import pkgutil
import sys
from pathlib import Path
from types import CodeType
from typing import Any

PACKAGES = ("bot", "engines", "render", "languages")
KEPT = (
    Path(__file__).parent
    / "__pycache__"
    / f"dataclass-code.{sys.implementation.cache_tag}.{importlib.util.MAGIC_NUMBER.hex()}.marshal"
)


class Compiled:
    """`exec` for the dataclasses module: a text kept ahead runs from its code."""

    def __init__(self, kept: dict[str, CodeType]) -> None:
        self.kept = kept
        self.seen: dict[str, CodeType] = {}  # every text met in this process, for `build`
        self.compiled = 0  # texts that were not kept

    def exec(self, source: Any, globals: Any = None, locals: Any = None, /, **more: Any) -> None:
        if isinstance(source, str):
            code = self.kept.get(source)
            if code is None:
                # as `exec` compiles a text: "<string>", and no __future__ flags of this
                # module (dataclasses itself has none)
                code = compile(source, "<string>", "exec", dont_inherit=True)
                self.compiled += 1
            self.seen[source] = code
            source = code
        builtins.exec(source, globals, locals, **more)


def read(path: Path) -> dict[str, CodeType]:
    """The texts and code kept at `path`; nothing when it is missing or not ours."""
    try:
        with open(path, "rb") as f:
            kept = marshal.loads(f.read())  # 5 ms; `marshal.load(f)` reads piece by piece: 30
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(kept, dict):
        return {}
    return {k: v for k, v in kept.items() if isinstance(k, str) and isinstance(v, CodeType)}


ACTIVE: Compiled | None = None


def install(path: Path = KEPT) -> Compiled:
    """Serve the dataclasses module's compiles from `path` from now on (it looks `exec` up
    among its own globals first)."""
    global ACTIVE
    ACTIVE = Compiled(read(path))
    dataclasses.exec = ACTIVE.exec  # type: ignore[attr-defined]
    return ACTIVE


def write(path: Path, kept: dict[str, CodeType]) -> None:
    """Whole or not at all: a process starting meanwhile reads the old file or the new."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    with open(part, "wb") as f:
        marshal.dump(kept, f)
    os.replace(part, path)


def build(path: Path = KEPT, packages: tuple[str, ...] = PACKAGES) -> tuple[int, list[str]]:
    """Import every module of `packages` and keep the texts met since `install`: (how many,
    the modules that would not import). The old file's texts no class uses any more go."""
    active = ACTIVE or install(path)
    failed = []
    for name in packages:
        package = importlib.import_module(name)
        for info in pkgutil.walk_packages(package.__path__, f"{name}.", onerror=failed.append):
            if info.name.rsplit(".", 1)[-1] == "__main__":
                continue  # a program, not a module
            try:
                importlib.import_module(info.name)
            except Exception:  # an optional part missing here: its classes are compiled at use
                failed.append(info.name)
    write(path, dict(active.seen))
    return len(active.seen), failed
