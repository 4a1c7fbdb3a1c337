"""Dataclass methods served from their compiled texts (bot/dataclass_code.py): the same
classes as compiling them, nothing but the time lost to a bad file, and a real start of the
bot that compiles none of them once `python -m bot.precompile` has run."""

from __future__ import annotations

import builtins
import dataclasses
import marshal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot import dataclass_code

ROOT = Path(__file__).resolve().parents[2]

CLASSES = textwrap.dedent(
    """
    from dataclasses import InitVar, dataclass, field

    @dataclass(frozen=True)
    class Seat:
        index: int
        name: str = "?"
        marks: tuple = ()

    @dataclass(order=True, kw_only=True)
    class Score:
        points: float
        moves: list = field(default_factory=list)
        note: InitVar[str] = ""

        def __post_init__(self, note):
            self.moves.append(note)

    @dataclass(slots=True, eq=False)
    class Cell:
        x: int
        y: int = 0
    """
)


def _made(exec_for_dataclasses) -> dict:
    """The classes above, made with `exec_for_dataclasses` as dataclasses' `exec`."""
    before = dataclasses.exec
    dataclasses.exec = exec_for_dataclasses
    try:
        namespace: dict = {}
        builtins.exec(compile(CLASSES, "classes", "exec", dont_inherit=True), namespace)
    finally:
        dataclasses.exec = before
    return {name: namespace[name] for name in ("Seat", "Score", "Cell")}


def _methods(cls) -> dict:
    return {
        name: marshal.dumps(value.__code__)
        for name, value in vars(cls).items()
        if callable(value)
        and hasattr(value, "__code__")
        and value.__code__.co_filename == "<string>"
    }


def test_a_kept_text_makes_the_same_class_as_compiling_it():
    plain = _made(builtins.exec)
    first = dataclass_code.Compiled({})
    fresh = _made(first.exec)
    assert first.compiled == len(first.seen) >= 12  # __init__, __repr__, __eq__... each
    again = dataclass_code.Compiled(marshal.loads(marshal.dumps(first.seen)))  # as kept
    served = _made(again.exec)
    assert again.compiled == 0 and again.seen.keys() == first.seen.keys()
    for name in plain:
        assert _methods(plain[name]) == _methods(fresh[name]) == _methods(served[name]) != {}
        notes = [
            {k: repr(v) for k, v in made[name].__init__.__annotations__.items()}
            for made in (plain, fresh, served)
        ]  # InitVar[str] is made anew for each class: compared by what it says
        assert notes[0] == notes[1] == notes[2] and notes[0]["return"] == "None"
    # and they behave as dataclasses do
    seat = served["Seat"](1, "Ann")
    assert seat == served["Seat"](1, "Ann") and hash(seat) == hash(served["Seat"](1, "Ann"))
    assert repr(seat) == "Seat(index=1, name='Ann', marks=())"
    with pytest.raises(dataclasses.FrozenInstanceError):
        seat.name = "Bob"
    low, high = served["Score"](points=1, note="a"), served["Score"](points=2)
    assert low < high and low.moves == ["a"] and high.moves == [""]
    assert not hasattr(served["Cell"](1), "__dict__")


@pytest.mark.parametrize(
    "content", [b"", b"not marshal at all", marshal.dumps([1, 2]), marshal.dumps({1: "x"})]
)
def test_a_damaged_or_foreign_file_costs_only_the_compiles(tmp_path, content):
    kept = tmp_path / "kept.marshal"
    kept.write_bytes(content)
    compiled = dataclass_code.Compiled(dataclass_code.read(kept))
    made = _made(compiled.exec)
    assert compiled.compiled > 0 and made["Seat"](2).name == "?"
    assert dataclass_code.read(tmp_path / "missing.marshal") == {}


def _start(kept: Path) -> tuple[int, int]:
    """(texts compiled, texts met) while a fresh process imports the bot's runner."""
    code = (
        "from pathlib import Path\n"
        "from bot import dataclass_code as d\n"
        f"d.install(Path({str(kept)!r}))\n"
        "import bot.runner\n"
        "print(d.ACTIVE.compiled, len(d.ACTIVE.seen))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    compiled, met = map(int, done.stdout.split())
    return compiled, met


def test_the_bot_starts_without_compiling_a_dataclass_method_once_they_are_kept(tmp_path):
    kept = tmp_path / "dataclass-code.marshal"
    cold, met = _start(kept)  # no file yet: every text compiled (some twice: equal classes)
    assert cold >= met > 100
    built = subprocess.run(
        [
            sys.executable,
            "-c",
            "from pathlib import Path\nfrom bot import dataclass_code as d\n"
            f"print(d.build(Path({str(kept)!r}))[0])",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    assert int(built.stdout) >= met and kept.exists()
    warm, met_again = _start(kept)
    assert (warm, met_again) == (0, met)


def test_precompile_says_plainly_when_it_cannot_write_and_changes_nothing(tmp_path, capsys):
    from bot import precompile

    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    assert precompile.main(["--force"], kept=blocked / "kept.marshal") == 1
    said = capsys.readouterr().err
    assert (
        said.startswith("Dataclass methods not compiled ahead: cannot write")
        and "Traceback" not in said
    )
    assert blocked.read_text() == "" and not list(tmp_path.glob("**/*.part"))
