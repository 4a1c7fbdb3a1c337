"""The test server's folders: one test process's cleaning never removes another's live
folder. CI once lost a cluster mid-initdb: a pytest-xdist worker read a postmaster.pid
naming initdb's finished single-user backend and took the folder for a killed run's."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests import postgres

ROOT = Path(__file__).resolve().parent.parent

OWNER = """
import os, sys, time
from tests.postgres import _own_folder
folder, _lock = _own_folder()
data = folder / "data"
data.mkdir()
(data / "postmaster.pid").write_text(sys.argv[1] + "\\n")
print(folder, flush=True)
time.sleep(600)
"""


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_live_owners_folder_stays_however_stale_its_postmaster_pid_and_goes_when_it_dies():
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER, str(_dead_pid())],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        folder = Path(owner.stdout.readline().strip())
        assert folder.name.startswith("escape-pg-"), folder
        postgres._clean_stale()
        assert (folder / "data" / "postmaster.pid").exists()
    finally:
        owner.kill()
        owner.wait()
        owner.stdout.close()
    postgres._clean_stale()
    assert not folder.exists()


def test_a_folder_without_an_owner_lock_goes_only_after_an_hour(tmp_path, monkeypatch):
    monkeypatch.setattr(postgres.tempfile, "gettempdir", lambda: str(tmp_path))
    fresh = tmp_path / "escape-pg-fresh"
    old = tmp_path / "escape-pgnew-old"
    for folder in (fresh, old):
        folder.mkdir()
    hours_ago = time.time() - 7200
    os.utime(old, (hours_ago, hours_ago))
    postgres._clean_stale()
    assert fresh.exists()
    assert not old.exists()


def test_this_processes_own_folder_is_locked_until_it_lets_go(tmp_path, monkeypatch):
    monkeypatch.setattr(postgres.tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(postgres.tempfile, "gettempdir", lambda: str(tmp_path))
    folder, lock = postgres._own_folder()
    assert folder.parent == tmp_path
    assert [p.name for p in tmp_path.iterdir()] == [folder.name]
    postgres._clean_stale()
    assert folder.exists()
    os.close(lock)
    postgres._clean_stale()
    assert not folder.exists()
