"""Dark Castle balance: the win rate of a simple, sensible party by party size.

Run from the checkout: .venv/bin/python bench/dark_castle_balance.py [games per cell]
(default 200; seeds 0..games-1, so a run is reproducible). It reports the win rate by party
size for the core castle, each pack on its own, the Collector's Box, and everything mixed.
It is not part of the test suite: pytest collects only tests/, and a simulation's rate is a
measurement, not a test.

The policy plays as a careful table would: a balanced team; the healthiest prisoner
turns the next chapter and draws the item cards (the healthiest unmarked one, where curses
lurk); items go to free hands; the most wounded prisoner rests whenever they are down 2 HP
or more; strike items (and the Living Stone, crushing the hardest die) are used at once; a
failed roll is re-rolled when an item allows it; a choice is judged by a rough value of its
steps (plague counts against it). It knows nothing of the knapsack and takes tainted loot
without a thought. With the Ritual Chalice it holds the blood ritual for a prisoner down to
a third of their HP, donors giving what keeps them at two thirds; it never casts from the
Spell Book; a companion is a fighter like any.
The target (issue 16) is a win rate between 15% and 75% for every castle and party size.
Last measured (200 games a cell, with death dice, the Living Stone and the Undead Queen's
pack, on a loaded shared machine):
                  solo    2p     3p     4p
    core          55.0%  56.5%  31.0%  30.0%
    cult alone    61.5%  61.5%  24.5%  17.0%
    undead alone  67.0%  68.0%  39.5%  25.5%
    plague alone  74.0%  73.0%  24.5%  19.0%
    collector     44.0%  44.5%  31.5%  21.0%
    mixed         36.5%  45.5%  20.0%  20.5%
(earlier, 400 games a size of the core castle: 58.0%, 54.8%, 27.8%, 29.5%; 40 games give
about +-8 points, 200 games about +-3.5.)
"""

from __future__ import annotations

import random
import sys
import time

from engines import REGISTRY
from engines.dark_castle import cards, chapters, death_dice, party
from engines.playout import play

GAME = REGISTRY["dark_castle"]
PREFERENCE = ("smith", "tailor", "abbot", "miller", "cook", "tanner")


def _value(steps: list, players: int) -> float:
    """A rough worth of a list of steps: HP gained, items, minus HP lost and risks."""
    total = 0.0
    for step in steps:
        kind = step["do"]
        width = players if step.get("who") in ("all", "each") else 1
        if kind == "damage":
            total -= step["n"] * width * 1.2
        elif kind == "heal":
            total += step["n"] * width * 0.6
        elif kind == "draw":
            total += 2.0 * (players if step["n"] == "per_player" else step["n"])
        elif kind == "lose_item":
            total -= 2.0
        elif kind == "plague":
            total -= step.get("n", 1.2) * width
        elif kind == "cure":
            total += step.get("n", 1) * width * 0.8
        elif kind == "combat":
            total -= 3.0 + step["attack"]
            total += 2.0 if step.get("loot", True) else 0.0
        elif kind in ("test", "group_test"):
            total += 0.5 * _value(step.get("pass", []), players)
            total += 0.5 * _value(step.get("fail", []), players)
            total += 1.0 * _value(step.get("fail_each", []), players)
        elif kind == "gamble":
            total += sum(_value(step[t], players) for t in "mcw") / 3
        elif kind == "if_item":
            total += _value(step.get("then", []), players)
        elif kind == "choose":
            total += max(_value(o["steps"], players) for o in step["options"])
    return total


def _hits(face: str, row: list[str]) -> bool:
    return any(t in row for t in face)


def sensible(game, state, seat, legal, rng: random.Random) -> str:
    s = state
    kind = s.pending.kind
    chars = s.chars
    hp0 = s.hp_start

    def idx(who: str) -> int:
        return next(k for k, c in enumerate(chars) if c.who == who)

    if kind == "pick":
        for who in PREFERENCE:
            if f"pick {who}" in legal:
                return f"pick {who}"
    uses = [a for a in legal if a.startswith("use ")]
    if kind in ("between", "share"):
        for action in uses:
            item = cards.TOOLS[action.split()[1]]
            words = action.split()
            holder = chars[idx(words[2])] if len(words) > 2 else None
            holder = holder or next(c for c in chars if item["id"] in party.tools(s, idx(c.who)))
            heal = next((e for e in item["effects"] if e["k"] == "heal"), None)
            missing = hp0 - holder.hp
            if heal and heal.get("all"):
                missing = min(hp0 - c.hp for c in chars)
            boss_next = len(s.used) >= 15
            if heal and (missing >= heal["n"] or (boss_next and missing > 0)):
                return action
        takes = [a for a in legal if a.startswith("take ")]
        if takes:
            # Give each item to the prisoner with the fewest items, the weakest first.
            takes.sort(
                key=lambda a: (
                    len(chars[idx(a.split()[2])].items),
                    chars[idx(a.split()[2])].hp,
                )
            )
            return takes[0]
        if kind == "share":
            return "done"
        # The blood ritual (Pack 2) for a prisoner down to a third of their HP.
        rites = [a for a in legal if a.startswith("rite ") and chars[idx(a.split()[1])].seat >= 0]
        low = [a for a in rites if chars[idx(a.split()[1])].hp * 3 <= hp0]
        if low:
            rite = min(low, key=lambda a: chars[idx(a.split()[1])].hp)
            donors = [
                k
                for k, c in enumerate(chars)
                if k != idx(rite.split()[1])
                and not party.immune(s, k)
                and c.hp - 1 >= party.cap(s, k) * 2 // 3
            ]
            if donors:
                return rite
        turns = [a for a in legal if a.startswith("turn ")]
        return max(turns, key=lambda a: chars[idx(a.split()[1])].hp)
    if kind == "chalice":
        # Donors above two thirds of their HP give down to two thirds; then drink (or stop).
        gifts = [a for a in legal if a.startswith("give ")]
        for action in sorted(gifts, key=lambda a: -int(a.split()[2])):
            k = idx(action.split()[1])
            top = hp0 if chars[k].seat >= 0 else party.cap(s, k)
            if chars[k].hp - int(action.split()[2]) >= top * 2 // 3:
                return action
        return "drink" if "drink" in legal else "stop"
    if kind == "cast":
        return "roll"
    if kind == "drawer":
        # The healthiest unmarked prisoner draws: a curse hurts them least.
        return max(
            legal,
            key=lambda a: (not party.marked(s, idx(a.split()[1])), chars[idx(a.split()[1])].hp),
        )
    if kind == "choose":
        step = chapters.step_at(s.pending.card, s.pending.path)
        return max(
            (a for a in legal if a.startswith("choose ")),
            key=lambda a: _value(step["options"][int(a.split()[1]) - 1]["steps"], len(chars)),
        )
    if kind == "send":
        frame_step = chapters.step_at(s.pending.card, s.pending.path)
        traits = set(frame_step["trait"])

        def chance(a: str) -> tuple:
            k = idx(a.split()[1])
            faces = cards.CHARACTERS[chars[k].who]["faces"]
            return (sum(1 for f in faces if traits & set(f)), chars[k].hp)

        return max((a for a in legal if a.startswith("send ")), key=chance)
    if kind == "react":
        return uses[0] if uses else "pass"
    if kind == "discard":
        return legal[-1]
    if kind == "crush":  # the Living Stone takes the hardest die: a shield, a split face
        return max(legal, key=lambda a: death_dice.row_key(a.split()[1]))
    if kind == "rest":
        # The most wounded prisoner rests once down 2 HP: it spreads the damage.
        # A companion counts by its own start (the spirit gains nothing by resting).
        resters = [
            a for a in legal if a.startswith("rest ") and not party.immune(s, idx(a.split()[1]))
        ]
        if resters:
            pick = min(resters, key=lambda a: chars[idx(a.split()[1])].hp)
            k = idx(pick.split()[1])
            if chars[k].hp <= party.cap(s, k) - 2:
                return pick
        return "fight"
    if kind == "attack":
        cb = s.combat
        for action in uses:
            item = cards.TOOLS[action.split()[1]]
            effects = {e["k"]: e for e in item["effects"]}
            holder = next(k for k in range(len(chars)) if item["id"] in party.tools(s, k))
            roll = cb.rolls.get(str(holder), "")
            if "strike" in effects or "stone" in effects:
                return action
            if "heal" in effects and chars[holder].hp <= cb.attack + 1:
                return action
            retry = ("reroll" in effects or "become" in effects) and not _hits(roll, cb.row)
            if retry and ("become" not in effects or _hits(effects["become"]["face"], cb.row)):
                return action
            if "block" in effects and chars[holder].hp <= cb.attack * 2:
                return action
        hits = [a for a in legal if a.startswith("hit ")]
        return hits[0]
    return legal[0]


# The castles measured: the core castle, each pack on its own, and everything mixed.
CASTLES = {
    "core": {},
    "cult alone": {"cult": "on", "castle": "pack"},
    "undead alone": {"undead": "on", "castle": "pack"},
    "plague alone": {"plague": "on", "castle": "pack"},
    "collector": {"collector": "on"},
    "mixed": {name: "on" for name in cards.SUPPLEMENTS},
}


def run(games: int, options: dict[str, str]) -> dict[int, float]:
    rates = {}
    for players in range(1, 5):
        wins = 0
        for seed in range(games):
            out = play(GAME, players, options, seed, max_steps=5000, policy=sensible)
            result = GAME.result(out.states[-1])
            wins += bool(result and result.scores[0] == 1.0)
        rates[players] = wins / games
    return rates


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    t0 = time.perf_counter()
    print(f"{'castle':<12}" + "".join(f"{h:>10}" for h in ("solo", "2p", "3p", "4p")))
    for name, options in CASTLES.items():
        rates = run(games, options)
        print(f"{name:<12}" + "".join(f"{rate:>10.1%}" for rate in rates.values()))
    print(f"{games} games a cell, {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
