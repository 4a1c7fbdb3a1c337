"""`escape-bot backup` as docs/deployment.md writes it (issue 29, item 14): a destination in a
folder that does not exist yet is made, from either store; a destination that still cannot
be written is named in the error, so it does not read as if the live database were broken."""

from __future__ import annotations

import asyncio

import pytest

from bot.cli import main
from tests.bot.store.test_store_copy import _fill, _same


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_backup_into_a_folder_that_does_not_exist_yet(tmp_path, kind, request, monkeypatch):
    if kind == "sqlite":
        db = str(tmp_path / "live.sqlite3")
    else:
        db = asyncio.run(request.getfixturevalue("postgres_server").new_schema())
    ids, before = asyncio.run(_fill(db))
    monkeypatch.setenv("ESCAPE_DB", db)
    copy = tmp_path / "backups" / "2026" / "escape-2026-11-24.sqlite3"
    assert not copy.parent.exists()
    assert main(["backup", str(copy)]) == 0
    asyncio.run(_same(copy, ids, before))


def test_a_destination_that_cannot_be_written_is_named(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ESCAPE_DB", str(tmp_path / "live.sqlite3"))
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the backup's folder should be")
    assert main(["backup", str(blocker / "escape.sqlite3")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"escape-bot: cannot create {blocker} for the backup: "), err
    assert len(err.splitlines()) == 1 and "Traceback" not in err

    folder = tmp_path / "a-folder"
    folder.mkdir()
    assert main(["backup", str(folder)]) == 1  # a folder is not a file SQLite can write
    err = capsys.readouterr().err
    assert err == f"escape-bot: cannot write the backup to {folder}: unable to open database file\n"
