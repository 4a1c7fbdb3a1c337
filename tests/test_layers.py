"""The layers written as import-linter contracts (pyproject.toml) hold: front ends over
delivery over the service over the store, pictures and engines; front ends import neither
the store nor the engines; no import circle anywhere in bot, render or engines, counting the
imports made only for type checking (tools/import_circles.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tools.import_circles import circles

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
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        probe.unlink()
    assert run.returncode != 0 and "BROKEN" in run.stdout


def test_a_circle_hidden_under_type_checking_is_caught(tmp_path):
    """The circle contract can fail: two modules that import each other, one of them only
    for type checking, break it, and the message names both and the lines."""
    config = (ROOT / "pyproject.toml").read_text()
    probes = (
        ROOT / "bot" / "console" / "_circle_probe_a.py",
        ROOT / "bot" / "console" / "_circle_probe_b.py",
    )
    probes[0].write_text("from bot.console import _circle_probe_b  # noqa: F401\n")
    probes[1].write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    from bot.console import _circle_probe_a  # noqa: F401\n"
    )
    try:
        lint = Path(sys.executable).with_name("lint-imports")
        (tmp_path / "pyproject.toml").write_text(config)
        run = subprocess.run(
            [str(lint), "--no-cache", str(tmp_path / "pyproject.toml")],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        for probe in probes:
            probe.unlink()
    assert run.returncode != 0
    said = " ".join(run.stdout.split())  # the report wraps long lines
    assert "Import circle: bot.console._circle_probe_a, bot.console._circle_probe_b" in said
    assert "bot.console._circle_probe_b -> bot.console._circle_probe_a (l. 4)" in said


def test_circles_are_found_between_a_package_and_its_own_module_and_round_three():
    """What the sibling contract misses: a package and a module of its own importing each
    other; a longer circle is one group; an arrow out of a circle is not part of it."""
    imports = {
        "render": {"render.rules", "render.palette"},
        "render.rules": {"render", "render.palette"},
        "a": {"b"},
        "b": {"c"},
        "c": {"a", "d"},
        "d": set(),
    }
    assert circles(imports, imports) == [["a", "b", "c"], ["render", "render.rules"]]
    assert circles(["x", "y"], {"x": {"y"}}) == []
