"""Castle Doors' alt text: the castle tile by tile, each character, the piles and the
viewer's own hand, in the reader's language (the picture's words, told)."""

from __future__ import annotations

from functools import lru_cache

from engines.castle_doors.words import CARD as CARD_NAME
from engines.castle_doors.words import COLOUR as COLOUR_WORD
from engines.castle_doors.words import EDGE
from engines.text import Msg, in_context, joined, msg
from languages import DEFAULT
from render.alt_ending import told

KIND_WORDS = {  # a tile's kind, in the alt text
    "open door": in_context("tile kind", "open door"),
    "barred door": in_context("tile kind", "barred door"),
    "extra key": in_context("tile kind", "extra key"),
    "extra turn": in_context("tile kind", "extra turn"),
}


def status(view: dict) -> Msg:
    """What the table waits for now (or who won): the caption's last line and the alt
    text's first."""
    names = view["names"]
    if view["winner"] is not None:
        return msg("Game over: {name} wins.", name=names[view["winner"]])
    who = names[view["turn"]]
    phase = view["phase"]
    if phase == "deal":
        return msg("Building the castle and dealing cards.")
    if phase == "reveal":
        return msg("The door of {cell} is turning over.", cell=view.get("reveal"))
    return {
        "draw": msg("{name} draws up to 4 cards.", name=who),
        "play": msg("{name} plays or discards a card.", name=who),
        "target": msg("{name} chooses where the card goes.", name=who),
        "move": msg("{name} moves, enters, exits or stays.", name=who),
        "bonus": msg(
            "{name} uses the extra key tile (open or close one door) or passes.", name=who
        ),
    }.get(phase) or msg("{name} to play.", name=who)


def _tile_words(name: str, t: dict) -> Msg:
    return _tile_said(name, t["colour"], t["open"], t["kind"], t["sawn"], t["lock"])


# A castle has a few dozen tiles and a move changes one or two: each tile's words are made
# once (they were two thirds of the messages a Castle Doors alt text made on every move).
@lru_cache(maxsize=4096)
def _tile_said(
    name: str, colour: str | None, open_: bool, kind: str | None, sawn: bool, lock: bool
) -> Msg:
    said = COLOUR_WORD.get(colour) or msg("undealt")
    if open_:
        state = KIND_WORDS.get(kind) or in_context("tile kind", "open")
        if sawn:
            state = msg("{state} (sawn)", state=state)
    elif kind:
        state = msg("shut ({kind})", kind=KIND_WORDS[kind])
    else:
        state = in_context("tile kind", "shut")
    if lock:
        state = msg("{state}, padlocked", state=state)
    return msg("{cell} {colour} {state}", cell=name, colour=said, state=state)


FAR = {"bottom": "top", "top": "bottom", "left": "right", "right": "left"}


def own_words(view: dict) -> Msg | None:
    """What only the view's owner may read (their hand): all a private message need say
    where its picture and whole words are at hand."""
    if "hand" not in view:
        return None
    hand = joined([CARD_NAME[c] for c in view["hand"]]) if view["hand"] else msg("nothing")
    return msg("Your hand: {cards}.", cards=hand)


def describe(view: dict, language: str = DEFAULT) -> str:
    """Alt text: the whole position in words, for players who cannot see the picture."""
    names = view["names"]
    parts: list = [
        msg(
            "Castle Doors, {width} columns by {height} rows, row 1 at the bottom. {status}",
            width=view["width"],
            height=view["height"],
            status=status(view),
        )
    ]
    for seat, edge in enumerate(view["edges"]):
        at = view["at"][seat]
        said = dict(
            name=names[seat],
            token=seat + 1,
            edge=EDGE[edge],
            far=EDGE[FAR[edge]],
            where=msg("on {cell}", cell=at) if at else msg("outside the castle"),
            count=view["hand_sizes"][seat],
        )
        netted = view["netted"][seat]
        if edge in ("top", "bottom") and netted:
            text = msg(
                "{name} (token {token}) starts at the {edge} edge, heads for the {far} row, is {where}, holds {count} cards, netted for {turns} more turns.",
                turns=netted,
                **said,
            )
        elif edge in ("top", "bottom"):
            text = msg(
                "{name} (token {token}) starts at the {edge} edge, heads for the {far} row, is {where}, holds {count} cards.",
                **said,
            )
        elif netted:
            text = msg(
                "{name} (token {token}) starts at the {edge} edge, heads for the {far} column, is {where}, holds {count} cards, netted for {turns} more turns.",
                turns=netted,
                **said,
            )
        else:
            text = msg(
                "{name} (token {token}) starts at the {edge} edge, heads for the {far} column, is {where}, holds {count} cards.",
                **said,
            )
        parts.append(text)
    rows: dict[int, list[Msg]] = {}
    for n, t in view["tiles"].items():
        rows.setdefault(int(n[1:]), []).append(_tile_words(n, t))
    for row in range(view["height"], 0, -1):
        parts.append(msg("Row {row}: {tiles}.", row=row, tiles=joined(rows.get(row, []), "; ")))
    if view["passages"]:
        passages = ", ".join(f"{a}-{b}" for a, b in view["passages"])
        parts.append(msg("Secret passages: {passages}.", passages=passages))
    bonus = [
        msg("{cell} used by {names}", cell=n, names=", ".join(names[s] for s in t["used"]))
        for n, t in view["tiles"].items()
        if t["used"]
    ]
    if bonus:
        parts.append(msg("Bonus tiles spent: {tiles}.", tiles=joined(bonus, "; ")))
    piles = dict(deck=view["deck"], discard=view["discard"])
    if view.get("discard_top"):
        card = CARD_NAME[view["discard_top"]]
        parts.append(
            msg("Draw pile {deck} cards, discards {discard}, top card {card}.", card=card, **piles)
        )
    else:
        parts.append(msg("Draw pile {deck} cards, discards {discard}.", **piles))
    return told(parts, view, language, own_words(view))
