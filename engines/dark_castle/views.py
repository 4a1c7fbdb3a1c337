"""What the players see: the view of a Dark Castle game (`Game.view`), as JSON. Everything
is public in this co-operative game (the decks are undrawn chance), so every seat sees the
same, bar `viewer`."""

from __future__ import annotations

from engines.contract import Seat
from engines.dark_castle import cards, castle, companions, explain, party, relics, trials, words
from engines.dark_castle.rules import Position
from engines.dark_castle.state import CASTLE_CHAPTERS, DarkCastleState
from engines.text import Msg, from_json, msg


def view(
    t: Position, game_id: str, seat: Seat | None, to_act: list[Seat], prompt: Msg, ending: Msg
) -> dict:
    """Every word in it a message (`engines.text.Msg`), said by the renderers in their
    reader's language; the log's lines as the state keeps them (messages as JSON, or the
    plain English of a game saved before)."""
    s = t.s
    card = cards.ALL_CARDS.get(s.card)
    out: dict = {
        "game": game_id,
        "names": list(s.names),
        "to_act": to_act,
        "phase": s.outcome or (s.pending.kind if s.pending else ""),
        "outcome": s.outcome,
        "hp_start": s.hp_start,
        "castle": castle.title(s),
        "chapters_left": CASTLE_CHAPTERS - len(s.used),
        "chapters_turned": len(s.used),
        "turner": s.chars[s.turner].who if s.turner >= 0 else "",
        "chars": [char_view(s, k) for k in range(len(s.chars))],
        "card": None,
        "combat": None,
        "pool": [item_view(i) for i in s.pool],
        "prompt": prompt,
        "options": [],
        "log": [from_json(line) for line in s.log],
        "last": from_json(s.last),
        "viewer": seat,
    }
    if card:
        out["card"] = {
            "id": card["id"],
            "kind": card["kind"],
            "title": words.card(card["title"]),
            "text": words.card(card["text"]),
            "asks": explain.card_asks(card, len(s.chars)),
            "pack": cards.SUPPLEMENTS.get(card["set"], {}).get("title", Msg("")),
        }
    out["asking"] = trials.asking(t)
    out["relics"] = relics.holders(s)
    out["epilogue"] = (
        words.card(cards.EPILOGUES["collector"][s.outcome])
        if s.outcome and castle.collector(s)
        else Msg("")
    )
    if not s.card and s.flaws:  # before choosing: the flaws dealt onto the characters
        out["flaws"] = {
            w: {**flaw_view(f), "character": party.short(w)} for w, f in s.flaws.items()
        }
    out["ending"] = ending
    step = t.step
    if step is not None:  # a choice's options, a ritual's pledges, a spell being cast
        step.show(t, out)
    if s.combat:
        out["combat"] = combat_view(s, card)
    return out


def combat_view(s: DarkCastleState, card: dict | None) -> dict:
    cb = s.combat
    return {
        "name": words.card(cb.name),
        "text": words.card(cb.text),
        "row": list(cb.row),
        "attack": cb.attack,
        "round": cb.round,
        "phase": cb.phase,
        "phases": cb.phases,
        "boss": card is not None and card["kind"] == "boss",
        "specials": [cards.describe_special(sp) for sp in cb.specials],
        "rester": s.chars[cb.rester].who if cb.rester >= 0 else "",
        "done": [s.chars[k].who for k in cb.done],
        "blocked": [s.chars[k].who for k in cb.blocked],
        "turned": [s.chars[k].who for k in cb.turned],
        "cultist": cb.cultist,
        "carrier": cb.carrier,
        "death": list(cb.death or []),
        "stone": cb.stone,
    }


def char_view(s: DarkCastleState, k: int) -> dict:
    c = s.chars[k]
    faces = cards.CHARACTERS[c.who]["faces"] if c.who else []
    counts = {x: sum(f.count(x) for f in faces) for x in cards.TRAITS}
    return {
        "who": c.who,
        "title": party.title(c.who) if c.who else Msg(""),
        "short": party.short(c.who) if c.who else Msg(""),
        "player": s.names[c.seat] if c.seat >= 0 else msg("any player"),
        "seat": c.seat,
        "hp": c.hp,
        "traits": counts,
        "items": [item_view(i) for i in c.items],
        "roll": c.roll,
        "curses": [item_view(i) for i in c.curses],
        "marked": party.marked(s, k),
        "cult_die": party.cult_die(s, k),
        "plague": c.plague,
        "next_threshold": next((list(x) for x in cards.PLAGUE_THRESHOLDS if x[0] > c.plague), None),
        "stored": [item_view(i) for i in c.stored],
        "flaw": flaw_view(c.flaw, c.flaw_used),
        "companion": companions.view(s, k),
        "hp_max": party.cap(s, k),
        "faces": list(faces),
    }


def flaw_view(flaw_id: str | None, used: bool = False) -> dict | None:
    flaw = cards.FLAWS.get(flaw_id or "")
    if not flaw:
        return None
    return {
        "id": flaw["id"],
        "name": words.card(flaw["name"]),
        "text": words.card(flaw["text"]),
        "used": used,
    }


def item_view(item_id: str) -> dict:
    item = cards.ITEMS[item_id]
    return {
        "id": item_id,
        "name": words.card(item["name"]),
        "text": words.card(item["text"]),
        "hands": item["hands"],
    }
