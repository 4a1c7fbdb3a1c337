"""The README's two commands (issue 29, item 16): `make run` installs only what the bot
needs, `make test` the test tools too, on a fresh machine and in either order. Read from
make's own plan (`make -n`) for a virtualenv in a temporary folder, with the stamps a
finished install leaves made by hand."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def plan(target: str, venv: Path) -> list[str]:
    done = subprocess.run(
        ["make", "-n", "--no-print-directory", "-C", str(ROOT), target, f"VENV={venv}"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def installs(lines: list[str]) -> list[str]:
    return [line for line in lines if " -m pip install" in line and "--upgrade pip" not in line]


def made(venv: Path, *stamps: str) -> None:
    """What an install leaves: the virtualenv's python and the stamps, newer than the
    project's pyproject.toml."""
    (venv / "bin").mkdir(parents=True, exist_ok=True)
    python = venv / "bin" / "python"
    python.write_text("#!/bin/sh\n")
    python.chmod(0o755)
    later = time.time() + 60
    for stamp in stamps:
        (venv / stamp).touch()
        os.utime(venv / stamp, (later, later))


def test_make_run_on_a_fresh_machine_installs_the_runtime_only(tmp_path):
    venv = tmp_path / "venv"
    lines = plan("run", venv)
    assert any(f"-m venv {venv}" in line for line in lines)
    assert installs(lines) == [f"{venv}/bin/python -m pip install --quiet -e ."]
    assert not [line for line in lines if "[dev]" in line or "-m pytest" in line]
    assert lines[-1] == f"{venv}/bin/escape-bot run"


def test_make_test_on_a_fresh_machine_installs_the_dev_extras(tmp_path):
    venv = tmp_path / "venv"
    lines = plan("test", venv)
    assert any(f"-m venv {venv}" in line for line in lines)
    assert installs(lines) == [f'{venv}/bin/python -m pip install --quiet -e ".[dev]"']
    workers = 2 * len(os.sched_getaffinity(0))  # two a core, as nproc counts them
    assert lines[-1] == f"{venv}/bin/python -m pytest -n {workers} --dist worksteal"


def test_make_check_lints_and_runs_the_tests_of_what_changed(tmp_path):
    venv = tmp_path / "venv"
    made(venv, ".installed", ".installed-runtime")
    lines = plan("check", venv)
    assert installs(lines) == []
    assert [line.split()[0].rsplit("/", 1)[-1] for line in lines[:3]] == [
        "ruff",
        "ruff",
        "lint-imports",
    ]
    assert "-m tools.changed_tests" in lines[-1] and "-m pytest -n auto" in lines[-1]


def test_the_tests_of_a_change_are_its_mirror_folders_own():
    from tools.changed_tests import FAST, tests_of

    found = tests_of(["bot/service/tables/lobby.py", "tests/e2e/test_discord_game.py", "x.md"])
    tables = sorted(
        str(f.relative_to(ROOT)) for f in (ROOT / "tests/bot/service/tables").glob("test_*.py")
    )
    assert found == sorted([*tables, "tests/e2e/test_discord_game.py"])
    assert tests_of(["README.md"]) == list(FAST)  # nothing mirrors it: the fast subset
