"""The places a board has and what lies next to a player's pieces, per game, read from a
view: what `/escape describe c3` and `/escape describe near` ask of a board, for a reader
who does not see the picture. Only names of places come from here (a cell, a tile, a
Gallery space, a player's name); the words said about them are the board's description
(the alt text), so a question is answered in the reader's language, and from a view, never
a state, so nothing hidden can be told."""

from __future__ import annotations

from collections.abc import Callable

ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))
AROUND = (*ORTHOGONAL, (1, 1), (1, -1), (-1, 1), (-1, -1))
AHEAD = 6  # Gallery spaces ahead of a guest a roll can reach
BEHIND = 3  # and behind it, where the Phantom comes from


def places(game_id: str, view: dict) -> set[str]:
    """Every name a place of this board may be asked by (lower case)."""
    found = PLACES.get(game_id)
    return found(view) if found else set()


def near(game_id: str, view: dict, seat: int) -> list[str]:
    """The places next to `seat`'s pieces (and, where a game has no map, what is about
    them: their own house, their prisoners, the chapter they face)."""
    found = NEAR.get(game_id)
    return found(view, seat) if found else []


# ----- grids: 18 Ghosts and Castle Doors -------------------------------------------------
def _grid(width: int, height: int) -> set[str]:
    return {f"{chr(97 + x)}{y + 1}" for x in range(width) for y in range(height)}


def _neighbours(cell: str, steps, width: int, height: int) -> list[str]:
    x, y = ord(cell[0]) - 97, int(cell[1:]) - 1
    return [
        f"{chr(97 + x + dx)}{y + dy + 1}"
        for dx, dy in steps
        if 0 <= x + dx < width and 0 <= y + dy < height
    ]


def _ghosts_places(view: dict) -> set[str]:
    return _grid(5, 5)


def _ghosts_near(view: dict, seat: int) -> list[str]:
    mine = [cell for cell, (owner, _colour) in view["board"].items() if owner == seat]
    out: list[str] = []
    for cell in sorted(mine):
        out += [n for n in _neighbours(cell, ORTHOGONAL, 5, 5) if n not in out and n not in mine]
    return out


def _doors_places(view: dict) -> set[str]:
    return set(view["tiles"])


def _doors_near(view: dict, seat: int) -> list[str]:
    at = view["at"][seat] if seat < len(view["at"]) else None
    if not at:
        return [view["names"][seat]]  # outside the castle: where they start, told by name
    return [at, *_neighbours(at, AROUND, view["width"], view["height"])]


# ----- the Gallery: Hidden Castle ----------------------------------------------------------
def _gallery_places(view: dict) -> set[str]:
    return {str(n) for n in range(1, view["spaces"] + 1)} | {g["label"] for g in view["guests"]}


def _gallery_near(view: dict, seat: int) -> list[str]:
    spaces = view["spaces"]
    out: list[str] = []
    for guest in view["guests"]:
        if guest["owner"] != seat or guest["where"] != "gallery":
            continue
        for step in range(-BEHIND, AHEAD + 1):
            space = str((guest["pos"] - 1 + step) % spaces + 1)
            if space not in out:
                out.append(space)
    return out or [view["names"][seat]]


# ----- no map: Haunted House and Dark Castle ---------------------------------------------
def _own_name(view: dict, seat: int) -> list[str]:
    return [view["names"][seat]] if seat < len(view["names"]) else []


def _party_near(view: dict, seat: int) -> list[str]:
    mine = [c["title"] for c in view.get("chars", []) if c.get("seat") == seat]
    card = (view.get("card") or {}).get("title")
    combat = (view.get("combat") or {}).get("name")
    return [*mine, *(t for t in (card, combat) if t)]


PLACES: dict[str, Callable[[dict], set[str]]] = {
    "ghosts18": _ghosts_places,
    "castle_doors": _doors_places,
    "hidden_castle": _gallery_places,
}
NEAR: dict[str, Callable[[dict, int], list[str]]] = {
    "ghosts18": _ghosts_near,
    "castle_doors": _doors_near,
    "hidden_castle": _gallery_near,
    "haunted_house": _own_name,
    "dark_castle": _party_near,
}
