"""Where terminal play keeps its pictures: a folder a game (`pictures/game-3/`) holding only
the latest board and each player's latest private view, so a long game leaves a handful of
files instead of one per move. The rules' sample pictures sit at the top of the folder.
At a hot-seat hand-over the private views are taken off the shelf (`forget_views`): the
next player must not find the last one's cards on disk."""

from __future__ import annotations

import os
import re
from pathlib import Path

from bot.service import Reply


class PictureShelf:
    def __init__(self, root: Path) -> None:
        self.root = root

    def path_for(self, reply: Reply) -> Path:
        if reply.session_id is None or reply.picture is None:
            name = reply.picture.filename if reply.picture else "picture.png"
            return self.root / _safe(name)
        folder = self.root / f"game-{reply.session_id}"
        if reply.to is not None:
            return folder / f"view-{_safe(reply.to.name.lower())}.png"
        return folder / "board.png"

    def keep(self, reply: Reply) -> Path | None:
        """Write the reply's picture over the previous one of its kind; its path, or None."""
        if reply.picture is None:
            return None
        path = self.path_for(reply)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".part")
        partial.write_bytes(reply.picture.png)
        os.replace(partial, path)  # a viewer never sees half a picture
        return path

    def forget_views(self, session_id: int | None) -> None:
        """Remove the players' private views of a game (of every game, if it is unknown)."""
        folders = (
            [self.root / f"game-{session_id}"]
            if session_id is not None
            else list(self.root.glob("game-*"))
        )
        for folder in folders:
            for view in folder.glob("view-*.png*"):  # (a .part left by a crash too)
                view.unlink(missing_ok=True)


def _safe(name: str) -> str:
    """A file name from a player's name or a picture's: letters, digits, dot, dash."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "player"
