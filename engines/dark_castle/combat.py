"""Combat (rulebook, "Combat"): the enemy's row of chapter dice, rounds of attack and defend,
resting, combat specials, and the item drawn after a won fight.

A round: `rest` (may one character rest?), every fighter rolls (`rolls.py`), then `attack`:
the attacks are resolved one by one in the order the party likes (`hit <prisoner>`), items
used between them; whatever is left of the row strikes back (`defend`). While the row holds
a death die's shield or split face (the Collector's Box) the round's attacks resolve
together (`death_dice.py`). The state of a fight is `DarkCastleState.combat`.
"""

from __future__ import annotations

from engines.contract import Seat
from engines.dark_castle import cards, chapters, death_dice, effects, explain, items, party, words
from engines.dark_castle.rules import ChanceStep, Position, Step
from engines.dark_castle.state import Combat, DarkCastleState, Pending
from engines.text import Msg, msg


def special(s: DarkCastleState, kind: str) -> dict | None:
    """The enemy's combat special of this kind, if it has one (`cards.SPECIALS`)."""
    if not s.combat:
        return None
    return next((sp for sp in s.combat.specials if sp["k"] == kind), None)


# ----- setting up: the row, the dice per player, an ambush ------------------------------
def start(t: Position, step: dict, card: str, path: list, ctx: int) -> None:
    """The script verb `combat`: the enemy's printed dice, plus dice rolled per player (per
    prisoner where companions do not count), then an ambush and the first round."""
    s = t.s
    phases = cards.combat_steps(cards.ALL_CARDS[card])
    s.combat = Combat(
        name=str(step["name"]),
        row=sorted(step.get("dice", ""), key=death_dice.row_key),
        attack=step["attack"],
        specials=[dict(sp) for sp in step.get("specials", [])],
        loot=step.get("loot", True),
        phase=next((i for i, ph in enumerate(phases) if ph is step), 0) + 1,
        phases=len(phases),
        cultist=step.get("cultist", False),
        carrier=step.get("carrier", False),
        text=str(step.get("text", "")),
    )
    t.say(
        msg(
            "Combat! {enemy} (attack {attack}).",
            enemy=words.card(step["name"]),
            attack=step["attack"],
        ),
        kind="combat",
    )
    rolling = party.prisoner_count(s) if step.get("prisoners_only") else len(s.chars)
    n = step.get("per_player", 0) * rolling
    kind = t.rules.combat_dice(t, cards.ALL_CARDS[card], step) or "dice"
    if n:
        s.pending = Pending(kind, n=n)
    else:
        ready(t)


def ready(t: Position) -> None:
    """The row is laid out: an ambush strikes before the first round."""
    s = t.s
    for kind, who in (("ambush", "all"), ("ambush_you", "you")):
        spec = special(s, kind)
        if spec:
            for k in chapters.targets(s, who, s.turner):
                effects.hurt(t, k, spec.get("n", 1))
            effects.check_death(t)
    if not s.outcome:
        round_start(t)


# ----- a round ----------------------------------------------------------------------------
LONG_FIGHT = 20  # from this round of one fight on, the enemy's attack grows by 1 a round


def round_start(t: Position) -> None:
    s = t.s
    cb = s.combat
    cb.round += 1
    cb.rester = -1
    flee = special(s, "flees")
    if flee and cb.round > flee.get("n", 3):
        t.say(msg("{enemy} flees into the dark. Nothing is won.", enemy=words.card(cb.name)))
        s.combat = None
        s.pending = None
        return
    if cb.round >= LONG_FIGHT:
        # our decision (rules text, LONG FIGHTS): a fight neither side can win, such as an
        # armoured enemy against a party with no double of its trait while one rests and the
        # other blocks, would otherwise go on for ever
        cb.attack += 1
        t.say(
            msg(
                "The fight drags on: {enemy} now strikes for {attack}.",
                enemy=words.card(cb.name),
                attack=cb.attack,
            ),
            kind="combat",
        )
    if len(s.chars) > 1 and not special(s, "no_rest"):
        s.pending = Pending("rest")
    else:
        begin_rolls(t)


def resters(s: DarkCastleState) -> list[int]:
    """Who may rest this round: not whoever the enemy singles out (focus_you), not a
    prisoner Marked for Death, not one who joined the enemy's row, and someone must
    still fight."""
    cb = s.combat
    barred = s.turner if special(s, "focus_you") else None
    able = [k for k in range(len(s.chars)) if k not in cb.turned]
    if len(able) < 2:
        return []
    return [k for k in able if k != barred and not party.marked(s, k)]


def begin_rolls(t: Position) -> None:
    """Every fighter rolls; a prisoner on the cult die rolls (and resolves) first."""
    s = t.s
    cb = s.combat
    turned = cb.turned
    cb.fighters = [k for k in range(len(s.chars)) if k != cb.rester and k not in turned]
    cb.queue = sorted(cb.fighters, key=lambda k: not party.cult_die(s, k))
    cb.rolls = {}
    cb.done = []
    cb.blocked = []
    for c in s.chars:
        c.roll = ""
    s.pending = effects.roll(t, cb.queue[0], "combat")


def rolled(t: Position, k: int, face: str, black: bool) -> None:
    """A fighter's attack roll is in. Pack 1: a black face of the cult die joins the enemy's
    row instead, and its roller sits out the rest of the fight."""
    s = t.s
    cb = s.combat
    cb.queue.remove(k)
    if black:
        cb.row = sorted([*cb.row, face], key=death_dice.row_key)
        cb.fighters.remove(k)
        cb.turned.append(k)
        s.chars[k].roll = ""
        t.say(
            msg(
                "The cult takes {name}: the die joins the enemy's row and must be hit away; they sit out this combat.",
                name=party.name(s, k),
            )
        )
    else:
        cb.rolls[str(k)] = face
    if cb.queue:
        s.pending = effects.roll(t, cb.queue[0], "combat")
    elif not [j for j in cb.fighters if j not in cb.done]:
        after_attack(t)
    else:
        s.pending = Pending("attack")
        auto_attack(t)


def attack_spent(t: Position, k: int) -> None:
    """k's turn to attack went on something else (a spell): the round goes on as after any
    roll."""
    s = t.s
    cb = s.combat
    cb.queue.remove(k)
    cb.rolls[str(k)] = ""
    cb.done.append(k)
    if cb.queue:
        s.pending = effects.roll(t, cb.queue[0], "combat")
    elif not cb.row or not [j for j in cb.fighters if j not in cb.done]:
        after_attack(t)
    else:
        s.pending = Pending("attack")
        auto_attack(t)


def helps_in_combat(t: Position, k: int, effect: dict) -> bool:
    """An item effect worth using now: a re-roll or a new face before k's attack resolves, a
    strike at a trait in the row, a block not yet made, the Living Stone's die."""
    s = t.s
    cb = s.combat
    if special(s, "no_items"):
        return False
    kind = effect["k"]
    if kind in ("reroll", "become"):
        return k not in cb.done and cb.rolls.get(str(k)) != effect.get("face")
    if kind == "strike":
        return effect["trait"] in cb.row
    if kind == "block":
        return k not in cb.blocked
    return kind == "stone"


def auto_attack(t: Position) -> None:
    """The last attack of a round resolves itself when nobody has an item to use first."""
    s = t.s
    cb = s.combat
    while s.pending == Pending("attack") and s.combat is cb:
        left = [k for k in cb.fighters if k not in cb.done]
        if any(items.usable(t, k, "combat", helps_in_combat) for k in cb.fighters):
            return
        if death_dice.pairing_needed(cb.row):  # the round's results combine: all at once
            attack_together(t)
            after_attack(t)
            continue
        if len(left) != 1:
            return
        resolve_attack(t, left[0])
        after_attack(t)


def attack_together(t: Position) -> None:
    """Death dice in the row: every attack not yet resolved at once, a companion's special
    face first."""
    cb = t.s.combat
    for k in [k for k in cb.fighters if k not in cb.done]:
        if cb.rolls.get(str(k)) == cards.SPECIAL_FACE:
            resolve_attack(t, k)
    death_dice.resolve_together(
        t, single_doubles=bool(special(t.s, "doubles_single")), armour=special(t.s, "armoured")
    )


def resolve_attack(t: Position, k: int, pick: str | None = None) -> None:
    """k's attack: each trait rolled removes a matching die of the row; a double hits twice
    and blocks (rulebook, "Attack")."""
    s = t.s
    cb = s.combat
    face = cb.rolls[str(k)]
    cb.done.append(k)
    if face == cards.SPECIAL_FACE:  # a companion's special face (Pack 2)
        t.rules.special_face(t, k)
        return
    double = len(face) == 2
    hits = list(face)
    if double and special(s, "doubles_single"):
        # A split double counting as a single: the roller picks which trait (by default
        # one that hits).
        best = next((x for x in face if x in cb.row), face[0])
        hits = [pick or best]
    armour = special(s, "armoured")
    if not double:
        if armour and armour["trait"] == face:
            hits = []
        elif any(
            e["k"] == "double" and e["trait"] == face
            for i in s.chars[k].items
            for e in cards.ITEMS[i].get("effects", [])
        ):
            hits = [face, face]
    removed = []
    for x in hits:
        if x in cb.row:
            cb.row.remove(x)
            removed.append(x)
    blocks = double and party.blocks_with_double(s, k)
    if blocks:
        cb.blocked.append(k)
    hits = explain.faces("".join(removed)) if removed else None
    t.say(
        death_dice.attack_result(party.name(s, k), hits, missed=not removed, blocks=blocks),
        kind="attack",
    )


def after_attack(t: Position) -> None:
    """An attack is resolved: the enemy falls, or strikes back once all have attacked."""
    cb = t.s.combat
    if not cb.row:
        won(t)
        return
    if all(k in cb.done for k in cb.fighters):
        defend(t)
    else:
        t.s.pending = Pending("attack")
        auto_attack(t)


def defend(t: Position) -> None:
    """The enemy strikes every fighter who did not block (rulebook, "Defend"), with its
    specials; then the next round."""
    s = t.s
    cb = s.combat
    focus = special(s, "focus_you")
    pierce = special(s, "pierce")
    hurt = 0
    for k in cb.fighters:
        if focus and k != s.turner:
            continue
        if k in cb.blocked:
            dmg = pierce.get("n", 1) if pierce else 0
        else:
            dmg = cb.attack + (focus.get("n", 1) if focus else 0)
        if dmg > 0:  # armour softens every enemy blow, a piercing one too
            dmg -= sum(
                e.get("n", 1)
                for i in s.chars[k].items
                for e in cards.ITEMS[i].get("effects", [])
                if e["k"] == "ward"
            )
            dmg += sum(c.get("frail", 0) for c in party.curses(s, k))
            if cb.cultist and party.marked(s, k):
                dmg += 1  # Marked for Death: cultists hurt 1 HP more
        if dmg > 0:
            hurt += 1
            effects.hurt(t, k, dmg)
            if k not in cb.wounded:
                cb.wounded.append(k)
            masked = any(cards.has_effect(i, "mask") for i in s.chars[k].items)
            if cb.carrier and k not in cb.blocked and not masked:
                effects.gain_plague(t, k, 1)  # Pack 3: a hit from a carrier passes plague
    if not hurt:
        t.say(msg("{enemy} strikes, but nobody is hurt.", enemy=words.card(cb.name)))
    effects.check_death(t)
    if s.outcome:
        return
    rage = special(s, "rage")
    if rage and cb.attack < rage.get("max", 99):
        cb.attack += 1
    regrow = special(s, "regrow")
    if regrow and cb.grown < regrow.get("max", 3):
        n = min(regrow.get("n", 1), regrow.get("max", 3) - cb.grown)
        cb.grown += n
        s.pending = Pending("dice", n=n, then="round")
        return
    round_start(t)


def won(t: Position) -> None:
    """The row is empty: the enemy is defeated at once; after combat, draw one item (and one
    more for a companion who brings loot)."""
    s = t.s
    cb = s.combat
    t.say(msg("{enemy} is defeated!", enemy=words.card(cb.name)), kind="victory")
    venom = special(s, "venom")
    s.combat = None
    s.pending = None
    t.rules.won_combat(t)
    if venom:
        for k in cb.wounded:
            effects.hurt(t, k, venom.get("n", 1))
        effects.check_death(t)
        if s.outcome:
            return
    if cb.loot:
        extra = sum(
            cards.COMPANIONS[c.who].get("loot", 0) for c in s.chars if c.who in cards.COMPANIONS
        )
        effects.draw(t, 1 + extra, tainted=cb.carrier)


# ----- the steps: rest or fight, the attacks, chapter dice rolled -----------------------
class Rest(Step):
    """Before each round: at most one character rests (+1 HP, no attack, no damage)."""

    kind = "rest"
    labels = ("rest",)

    def legal(self, t: Position, seat: Seat) -> list[str]:
        return ["fight"] + [f"rest {t.s.chars[k].who}" for k in resters(t.s)]

    def apply(self, t: Position, seat: Seat, action: str) -> None:
        s = t.s
        verb, *args = action.split()
        if verb == "fight":
            t.say(msg("Nobody rests: everyone fights this round."))
            begin_rolls(t)
            return
        k = party.index(s, args[0])
        s.combat.rester = k
        effects.heal(t, k, 1)
        t.say(msg("{name} rests this round (+1 HP).", name=party.name(s, k)))
        t.rules.rested(t, k)
        begin_rolls(t)

    def prompt(self, t: Position) -> Msg:
        return msg("New combat round: may one prisoner rest? fight, or rest <prisoner>.")

    def default(self, t: Position, seat: Seat, legal: list[str]) -> str | None:
        return "fight" if "fight" in legal else None

    def describe(self, t: Position, action: str) -> str | None:
        verb, *args = action.split()
        if verb == "rest" and args:
            return msg("Rest: {character}", character=party.title(args[0]))
        return None


class Attack(Step):
    """The rolls are in: resolve the attacks in any order, using items between them."""

    kind = "attack"
    labels = ("hit",)

    def legal(self, t: Position, seat: Seat) -> list[str]:
        s = t.s
        cb = s.combat
        left = [k for k in cb.fighters if k not in cb.done]
        # A prisoner on the cult die resolves their attack before anyone else's.
        first = [k for k in left if party.cult_die(s, k)]
        out = [death_dice.HIT_ALL] if death_dice.pairing_needed(cb.row) else []
        for k in [] if out else first or left:
            face = cb.rolls.get(str(k), "")
            split = len(face) == 2 and face[0] != face[1]
            if split and special(s, "doubles_single"):  # the roller picks one
                out += [f"hit {s.chars[k].who} {x}" for x in face]
            else:
                out.append(f"hit {s.chars[k].who}")
        for k in party.mine(s, seat):
            if k in cb.fighters:
                out += items.uses(t, k, "combat", helps_in_combat)
        return out

    def apply(self, t: Position, seat: Seat, action: str) -> None:
        verb, *args = action.split()
        if verb == "use":
            items.use_action(t, args)
        elif action == death_dice.HIT_ALL:
            attack_together(t)
            after_attack(t)
        else:
            pick = args[1] if len(args) > 1 else None
            resolve_attack(t, party.index(t.s, args[0]), pick=pick)
            after_attack(t)

    def use_effect(self, t: Position, k: int, effect: dict) -> bool:
        s = t.s
        cb = s.combat
        kind = effect["k"]
        if kind == "reroll":
            s.pending = Pending("roll", char=k, why="combat")
            cb.queue = [k]
        elif kind == "become":
            cb.rolls[str(k)] = s.chars[k].roll = effect["face"]
            t.say(msg("The attack now counts as {faces}.", faces=explain.faces(effect["face"])))
        elif kind == "strike":
            cb.row.remove(effect["trait"])
            t.say(msg("One {trait} die is struck away.", trait=cards.TRAIT_NAMES[effect["trait"]]))
            after_attack(t)
        elif kind == "block":
            cb.blocked.append(k)
            t.say(msg("{name} will block this round.", name=party.name(s, k)))
        elif kind == "stone":  # the Living Stone wakes (living_stone.py)
            s.pending = Pending("stone", char=k)
        else:
            return False
        return True

    def prompt(self, t: Position) -> Msg:
        if death_dice.pairing_needed(t.s.combat.row):
            return msg("Death dice in the row: use items first, then hit all (results combine).")
        return msg("Resolve the attacks in the order you like: hit <prisoner> (items first?).")

    def default(self, t: Position, seat: Seat, legal: list[str]) -> str | None:
        return next((a for a in legal if a.startswith("hit ")), None)

    def describe(self, t: Position, action: str) -> str | None:
        verb, *args = action.split()
        if action == death_dice.HIT_ALL:
            return death_dice.HIT_ALL_LABEL
        if verb == "hit" and len(args) == 2:
            trait = cards.TRAIT_NAMES.get(args[1], args[1])
            return msg("Hit: {character} (as {trait})", character=party.title(args[0]), trait=trait)
        if verb == "hit" and args:
            return msg("Hit: {character}", character=party.title(args[0]))
        return None


class ChapterDice(ChanceStep):
    """Chapter dice rolled into the enemy's row: per player at set-up, or more each round
    for an enemy that regrows."""

    kind = "dice"

    def outcomes(self, t: Position) -> list[tuple[str, float]]:
        return cards.chapter_dice_outcomes(t.s.pending.n)

    def resolve(self, t: Position, p: Pending, outcome: str) -> None:
        cb = t.s.combat
        cb.row = sorted(cb.row + list(outcome), key=death_dice.row_key)
        t.say(msg("The chapter dice add {dice} to the enemy's row.", dice=explain.dice(outcome)))
        if p.then == "round":
            round_start(t)
        else:
            ready(t)
