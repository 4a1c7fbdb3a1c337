"""The layers written as import-linter contracts (pyproject.toml) hold: front ends over
delivery over the service over the store, pictures and engines; front ends import neither
the store nor the engines; no import cycle inside the service or inside Dark Castle."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout


def test_a_broken_layer_is_caught(tmp_path):
    """The check can fail: a front end that reads the store breaks the contract."""
    config = (ROOT / "pyproject.toml").read_text()
    probe = ROOT / "bot" / "console" / "_layer_probe.py"
    probe.write_text("from bot.store import Store  # noqa: F401\n")
    try:
        lint = Path(sys.executable).with_name("lint-imports")
        (tmp_path / "pyproject.toml").write_text(config)
        run = subprocess.run(
            [str(lint), "--no-cache", str(tmp_path / "pyproject.toml")],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    finally:
        probe.unlink()
    assert run.returncode != 0 and "BROKEN" in run.stdout
