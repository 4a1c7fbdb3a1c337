"""A move as the log keeps it: the action, the chance it leads to, the rows to append.

Plain functions over an engine state the caller owns (loaded from the store for this one
request), so nothing is copied: `Game.apply_owned` checks the action and changes the state
in place. Chance is drawn from the session's own generator at its stored position, so a
retried request can never roll differently.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.service.base.chance import draw, draw_keyed
from bot.store import NewEntry
from engines import CHANCE, Event, Game
from engines.text import Msg, Text, from_json

MAX_CHANCE_STEPS = 10_000


def seeded(row) -> bool:
    """Whether a table deals its decks from its seed (`Game.chance_key`: the daily castle)."""
    return bool(row.seeded_decks)


@dataclass
class Turn:
    """What happened since the stored snapshot: the state now, what was said, the log rows
    to append, and the chance generator's position after them. `seeded`: the table deals
    its decks from its seed (`seeded`)."""

    state: object
    pos: int
    events: list[Event] = field(default_factory=list)
    entries: list[NewEntry] = field(default_factory=list)
    seeded: bool = False

    def add(self, events: Sequence[Event], entry: NewEntry) -> None:
        self.events += events
        self.entries.append(entry)


def logged(events: Sequence[Event]) -> list[dict]:
    """Events as the log keeps them: the English text (what every reader of an older log
    has), and the message itself where there is one, to be said in any language."""
    out = []
    for e in events:
        row = {"text": str.__str__(e.text), "to": e.to, "kind": e.kind}
        if isinstance(e.text, Msg):
            row["msg"] = e.text.to_json()
        out.append(row)
    return out


def stored(event: dict) -> Text:
    """A logged event's words: its message, or (an older log) its English."""
    return from_json(event["msg"]) if "msg" in event else event.get("text", "")


def resolve_chance(game: Game, turn: Turn, seed: int) -> Turn:
    """Apply chance outcomes from the session's generator until a player must act."""
    for _ in range(MAX_CHANCE_STEPS):
        if game.to_act(turn.state) != [CHANCE]:
            break
        outcomes = game.chance_outcomes(turn.state)
        key = game.chance_key(turn.state) if turn.seeded else None
        outcome = draw_keyed(outcomes, seed, key) if key else draw(outcomes, seed, turn.pos)
        turn.pos += 1
        happened = game.apply_owned(turn.state, CHANCE, outcome)
        turn.add(happened, NewEntry(CHANCE, outcome, None, logged(happened)))
    return turn


def play(
    game: Game,
    turn: Turn,
    seat: int,
    action: str,
    seed: int,
    *,
    user_id: str | None = None,
    note: Event | None = None,
    listed: Sequence[str] | None = None,
) -> Turn:
    """A seat's action (a player's, or one the bot makes for a seat, `note` first), then
    the chance it leads to. Raises `IllegalAction` before changing anything. `listed`: the
    seat's legal moves on this state, where the caller just built them (`Game.apply_owned`)."""
    happened = game.apply_owned(turn.state, seat, action, listed)
    said = [note, *happened] if note is not None else list(happened)
    turn.add(said, NewEntry(seat, " ".join(action.lower().split()), user_id, logged(said)))
    return resolve_chance(game, turn, seed)
