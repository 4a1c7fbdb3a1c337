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
import sys, time
from tests.postgres import _own_folder
folder, _lock = _own_folder(sys.argv[1])
data = folder / "data"
data.mkdir()
(data / "postmaster.pid").write_text(sys.argv[2] + "\\n")
print(folder, flush=True)
time.sleep(600)
"""


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_live_owners_folder_stays_however_stale_its_postmaster_pid_and_goes_when_it_dies(
    tmp_path,
):
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER, str(tmp_path), str(_dead_pid())],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        folder = Path(owner.stdout.readline().strip())
        assert folder.parent == tmp_path and folder.name.startswith("escape-pg-"), folder
        postgres._clean_stale(str(tmp_path))
        assert (folder / "data" / "postmaster.pid").exists()
    finally:
        owner.kill()
        owner.wait()
        owner.stdout.close()
    postgres._clean_stale(str(tmp_path))
    assert not folder.exists()


def test_a_folder_without_an_owner_lock_goes_only_after_an_hour(tmp_path):
    fresh = tmp_path / "escape-pg-fresh"
    old = tmp_path / "escape-pgnew-old"
    for folder in (fresh, old):
        folder.mkdir()
    hours_ago = time.time() - 7200
    os.utime(old, (hours_ago, hours_ago))
    postgres._clean_stale(str(tmp_path))
    assert fresh.exists()
    assert not old.exists()


def test_a_folder_is_kept_until_its_maker_lets_go_of_its_lock(tmp_path):
    folder, lock = postgres._own_folder(str(tmp_path))
    assert [p.name for p in tmp_path.iterdir()] == [folder.name]
    postgres._clean_stale(str(tmp_path))
    assert folder.exists()
    os.close(lock)
    postgres._clean_stale(str(tmp_path))
    assert not folder.exists()
