"""A Dark Castle party for the pack games through the service and the chat stand-ins: what a
table of players would press, and the item deck steered so that each pack's cards come up.

Chance stays the service's own seeded generator; the one test hook is `steer`, which wraps
the service's `draw` (the seam where chance enters, docs/engine-contract.md rule 5): the first
time a wanted item card is among an item draw's outcomes it is the card drawn. The log still
holds every outcome, so the game replays exactly; nothing a player could not reach is edited.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.service.base import move_records
from bot.service.base.chance import draw
from engines import REGISTRY
from engines.dark_castle import cards

G = REGISTRY["dark_castle"]

# Each pack on its own and everything mixed: the options, the prisoners the players pick (the
# plague pack's own prisoners where it is on), the item cards the deck is steered to, and the
# service's seed. Each seed's game ends in at most about a hundred moves, the Undead Queen's
# castle in an escape and the others in defeat (a content change may change that: the tests
# say so; pick another seed).
PACKS: dict[str, dict] = {
    "cult": {
        "options": "cult=on castle=pack",
        "picks": ("smith", "tailor"),
        "deck": ("marked", "brittle"),
        "seed": 4,
    },
    "plague": {
        "options": "plague=on castle=pack",
        "picks": ("ratcatcher", "herbalist"),
        "deck": ("knapsack", "fever", "vinegar"),
        "seed": 9,
    },
    "undead": {
        "options": "undead=on castle=pack",
        "picks": ("smith", "tailor"),
        "deck": ("ev_novice", "chalice", "spellbook"),
        "seed": 33,
    },
    "collector": {
        "options": "collector=on castle=pack",
        "picks": ("smith", "tailor"),
        "deck": ("stone",),
        "seed": 2,
    },
    "mixed": {
        "options": "cult=on undead=on plague=on collector=on",
        "picks": ("gravedigger", "abbot"),
        "deck": ("knapsack", "leech", "ev_hound", "fever", "stone"),
        "seed": 18,
    },
}


@dataclass
class Steer:
    """`draw` for the service: wanted item cards first, else the seeded generator."""

    wanted: list[str]
    drawn: list[str] = field(default_factory=list)

    def __call__(self, outcomes: list[tuple[str, float]], seed: int, position: int) -> str:
        kinds = {name for name, _ in outcomes}
        for card in self.wanted:
            if card in kinds and card in cards.ITEMS:
                self.wanted.remove(card)
                self.drawn.append(card)
                return card
        return draw(outcomes, seed, position)


def steer(monkeypatch, wanted) -> Steer:
    hook = Steer(list(wanted))
    monkeypatch.setattr(move_records, "draw", hook)
    return hook


def party_choice(s, picks: list[str]) -> tuple[int, str]:
    """Who presses what: the picks in order, then `party_move` over every action of every
    seat now to act (a group decision is anyone's; an item only its holder's)."""
    seats = G.to_act(s)
    legal = {seat: G.legal_actions(s, seat) for seat in seats}
    if s.pending.kind == "pick":
        seat = seats[0]
        return seat, next(f"pick {w}" for w in picks if f"pick {w}" in legal[seat])
    every = [
        a for seat in seats for a in legal[seat] if a not in legal[seats[0]] or seat == seats[0]
    ]
    action = party_move(s, every)
    return next(seat for seat in seats if action in legal[seat]), action


def party_move(s, legal: list[str]) -> str:
    """A plain table that tries what the packs offer: pack the knapsack once, wake the Living
    Stone, cast from the Spell Book, hold the Chalice's rite for the most hurt (one HP from
    the healthiest) and use a flaw as soon as they can help, share items to empty hands, rest the most hurt, fight, and let the
    healthiest prisoner turn the page and draw the item cards."""
    kind = s.pending.kind
    hp = {c.who: c.hp for c in s.chars}
    if not any(c.stored for c in s.chars):
        stow = [a for a in legal if a.startswith("stow ")]
        if stow:
            return stow[0]
    if "use stone" in legal:  # the Living Stone: woken whenever it can be
        return "use stone"
    casts = [a for a in legal if a.startswith("cast ")]
    if casts:  # the Spell Book: a spell instead of a roll, whenever offered
        return casts[0]
    if "drink" in legal:  # the Ritual Chalice: drink once something is pledged
        return "drink"
    gifts = [a for a in legal if a.startswith("give ") and a.endswith(" 1")]
    if gifts:
        return max(gifts, key=lambda a: hp[a.split()[1]])
    rites = [a for a in legal if a.startswith("rite ")]
    if rites and min(hp.values()) <= s.hp_start - 4:
        return min(rites, key=lambda a: hp[a.split()[1]])
    flaws = [a for a in legal if a.startswith("use ") and a.split()[1] in cards.FLAWS]
    if flaws:
        return flaws[0]
    takes = [a for a in legal if a.startswith("take ")]
    if takes:
        return min(takes, key=lambda a: hp[a.split()[2]])
    heals = [a for a in legal if a.startswith("use ")]
    if kind in ("between", "share") and heals and min(hp.values()) < s.hp_start - 5:
        return heals[0]
    if kind == "rest":
        rests = [a for a in legal if a.startswith("rest ")]
        weakest = min(rests, key=lambda a: hp[a.split()[1]], default="fight")
        if weakest != "fight" and hp[weakest.split()[1]] <= s.hp_start - 3:
            return weakest
    if kind in ("between", "drawer"):
        verb = "turn " if kind == "between" else "draw "
        return max((a for a in legal if a.startswith(verb)), key=lambda a: hp[a.split()[1]])
    for safe in ("done", "pass", "fight"):
        if safe in legal:
            return safe
    return next((a for a in legal if a.startswith(("hit ", "choose ", "send "))), legal[0])


@dataclass
class Seen:
    """What the pack mechanics showed along the way, read from the public views."""

    curse: bool = False
    marked: bool = False
    plague: int = 0
    stored: bool = False
    flaw_used: bool = False
    flaws_dealt: bool = False
    epilogue: str = ""
    death_dice: bool = False  # a death die in the enemy's row (the Collector's Box)
    death_faces: set[str] = field(default_factory=set)  # its shields and split faces seen
    stone: set[str] = field(default_factory=set)  # the Living Stone's faces rolled
    companion: set[str] = field(default_factory=set)  # companions that joined the party
    ritual: bool = False  # the Ritual Chalice's rite held
    spell: bool = False  # a spell cast from the Spell Book
    alt_texts: list[str] = field(default_factory=list)
    prompts: set[str] = field(default_factory=set)

    def note(self, view: dict) -> None:
        for char in view["chars"]:
            self.curse |= bool(char.get("curses"))
            self.marked |= bool(char.get("marked"))
            self.plague = max(self.plague, char.get("plague", 0))
            self.stored |= bool(char.get("stored"))
            self.flaw_used |= bool((char.get("flaw") or {}).get("used"))
            if char.get("companion"):
                self.companion.add(char["who"])
        combat = view.get("combat") or {}
        self.death_dice |= bool(combat.get("death"))
        self.death_faces |= {face for face in combat.get("row", []) if face not in ("m", "c", "w")}
        self.stone |= {combat["stone"]} if combat.get("stone") else set()
        relics = view.get("relics") or {}
        self.ritual |= bool(relics.get("ritual"))
        self.spell |= bool(relics.get("casting"))
        self.flaws_dealt |= bool(view.get("flaws"))
        self.epilogue = view.get("epilogue") or self.epilogue
        self.prompts.add(view["prompt"])
