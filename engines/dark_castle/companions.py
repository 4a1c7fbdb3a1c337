"""Companions (rulebook: "Adventure Pack 2", Event Cards and Companions).

A companion enters when its event card is drawn from the item deck, and sits in `chars`
after the prisoners (seat -1: any player acts for it). At most one at a time: another event
card is discarded and replaced by a fresh draw (so of several drawn at once only the first
applies). Companions are "players" for every effect, except the dice rolled per player at
combat set-up where a combat is marked `prisoners_only`. Curses and plague have no effect on
them; a spirit takes no damage (`party.immune`); their HP cap is their own (`party.cap`).
At 0 HP a companion leaves; the game goes on. Its die has a special face: in a chapter's
combat its special ability applies, against a boss it only blocks, outside combat it counts
as a double of the trait asked (`trials.face_for_test`).
"""

from __future__ import annotations

from engines.dark_castle import cards, effects, party, words
from engines.dark_castle.rules import Drawn, Position
from engines.dark_castle.state import Character, DarkCastleState
from engines.text import msg


def join(t: Position, k: int, card_id: str) -> Drawn:
    """An event card drawn (by k, to no matter): its companion joins, unless one is with the
    party already; then the card is discarded and another drawn in its place."""
    s = t.s
    card = cards.ITEMS[card_id]
    comp = cards.COMPANIONS[card["companion"]]
    if party.companion_index(s) is not None:
        t.say(
            msg(
                "{card}: a companion is already with you, so the card is discarded and another drawn in its place.",
                card=words.card(card["name"]),
            )
        )
        return Drawn(again=1)
    s.chars.append(Character(comp["id"], -1, comp["hp"]))
    t.say(
        msg(
            "{card}: {text} {companion} joins the party ({hp} HP; {trait})",
            card=words.card(card["name"]),
            text=words.card(comp["text"]),
            companion=words.card(comp["title"]),
            hp=comp["hp"],
            trait=words.card(comp["trait"]),
        ),
        kind="companion",
    )
    return Drawn()


def leave(t: Position) -> None:
    """A companion at 0 HP leaves the party (its item goes with it); the game goes on.
    Whatever pointed at it (a YOU, a test it was taking, its place in a fight) lapses."""
    s = t.s
    k = party.companion_index(s)
    if k is None or s.chars[k].hp > 0:
        return
    t.say(
        msg("{name} falls and leaves the party. The escape goes on.", name=party.name(s, k)),
        kind="companion",
    )
    s.chars.pop(k)
    if s.turner == k:
        s.turner = -2  # nobody: YOU effects of this chapter find no one
    kept = []
    for frame in s.frames:
        if frame.get("ctx") == k:
            if frame["k"] == "test":  # the test it was taking lapses
                continue
            frame["ctx"] = -2  # "it" of this branch is nobody now
        if k in frame.get("queue", []):
            frame["queue"].remove(k)
        kept.append(frame)
    s.frames = kept
    cb = s.combat
    if cb:
        for seats in (cb.fighters, cb.queue, cb.done, cb.blocked, cb.wounded, cb.turned):
            if k in seats:
                seats.remove(k)
        cb.rolls.pop(str(k), None)
        if cb.rester == k:
            cb.rester = -1


def special_face(t: Position, k: int) -> None:
    """A companion resolves its special face in combat: against a boss it only blocks; in
    a chapter's combat its special ability applies."""
    s = t.s
    cb = s.combat
    comp = party.companion(s, k)
    card = cards.ALL_CARDS.get(s.card, {})
    if card.get("kind") == "boss" or not comp:
        cb.blocked.append(k)
        t.say(
            msg(
                "{name} rolls the special face: against a boss it only blocks.",
                name=party.name(s, k),
            ),
            kind="attack",
        )
        return
    special = comp["special"]
    t.say(
        msg(
            "{name}: {special}! {text}",
            name=party.name(s, k),
            special=words.card(special["name"]),
            text=words.card(special["text"]),
        ),
        kind="attack",
    )
    if special["k"] == "chill":
        for j in cb.fighters:
            if j not in cb.blocked:
                cb.blocked.append(j)
    elif special["k"] == "sunder":
        for x in cards.TRAITS:
            if x in cb.row:
                cb.row.remove(x)
    elif special["k"] == "rally":
        for j in range(len(s.chars)):
            if not party.companion(s, j):
                effects.heal(t, j, 1)
        cb.blocked.append(k)


def view(s: DarkCastleState, k: int) -> dict | None:
    """A companion's card in a character's view (None for a prisoner)."""
    comp = party.companion(s, k)
    if not comp:
        return None
    special = comp["special"]
    said = msg(
        "{special}: {text}", special=words.card(special["name"]), text=words.card(special["text"])
    )
    return {
        "trait": words.card(comp["trait"]),
        "special": said,
        "immune": bool(comp.get("immune")),
        "carries": comp.get("carries", 0),
    }
