"""The relics of Pack 2 (rulebook: "Ritual Chalice" and "Spell Book").

- The Ritual Chalice: between chapters, a recipient is named (`rite cook`), donors pledge HP
  (`give smith 3`; never below 1 HP, never more in all than the recipient lacks), and
  `drink` pays the pledges and heals the recipient by the sum; the chalice is discarded.
  `stop` calls the ritual off.
- The Spell Book: whoever holds it, whenever they would roll their own die, may `cast` a
  spell whose requirement is met instead (`roll` declines); the spell die decides
  (`cards.SPELLS`, `cards.SPELL_DIE`). The cast takes the place of the roll: in a test it
  counts as nothing unless Second Sight made it count; in combat the caster makes no attack
  this round.
"""

from __future__ import annotations

from engines.contract import Seat
from engines.dark_castle import cards, chapters, combat, death_dice, effects, party, phase, trials
from engines.dark_castle.rules import Camp, ChanceStep, Position, Step
from engines.dark_castle.state import DarkCastleState, Pending
from engines.text import Msg, msg


def holders(s: DarkCastleState) -> dict:
    """Who holds each relic (the view's `relics`; a ritual or a cast under way adds itself)."""
    out: dict = {}
    for c in s.chars:
        for i in c.items:
            for effect in ("chalice", "spellbook"):
                if cards.has_effect(i, effect):
                    out[effect] = c.who
    return out


def _title(who: str) -> Msg:
    return party.title(who)


# ----- the Ritual Chalice -----------------------------------------------------------------
def chalice_holder(s: DarkCastleState) -> int | None:
    return next(
        (k for k, c in enumerate(s.chars) if any(cards.has_effect(i, "chalice") for i in c.items)),
        None,
    )


class Rite(Camp):
    """Between chapters: name the ritual's recipient (anyone wounded who can heal, while
    someone else has HP to give)."""

    verbs = ("rite",)

    def party_moves(self, t: Position, seat: Seat) -> list[str]:
        s = t.s
        if chalice_holder(s) is None:
            return []
        donors = [k for k, c in enumerate(s.chars) if c.hp > 1 and not party.immune(s, k)]
        return [
            f"rite {c.who}"
            for k, c in enumerate(s.chars)
            if c.hp < party.cap(s, k) and not party.immune(s, k) and set(donors) - {k}
        ]

    def apply(self, t: Position, verb: str, args: list[str]) -> None:
        k = party.index(t.s, args[0])
        t.s.pending = phase.carried_over(t.s.pending, Pending("chalice", to=k, gifts={}))
        t.say(
            msg(
                "The blood ritual begins: {name} will drink. Donors, pledge your HP (give <prisoner> <HP>), then drink.",
                name=party.name(t.s, k),
            )
        )

    def describe(self, t: Position, action: str) -> str | None:
        verb, *args = action.split()
        if verb == "rite" and args:
            return msg(
                "Blood ritual: {character} drinks (Ritual Chalice)", character=_title(args[0])
            )
        return None


class Chalice(Step):
    """The ritual under way: each donor pledges for themself (any player for a companion),
    1 HP up to what keeps them at 1 HP, never more in all than the recipient lacks."""

    kind = "chalice"
    labels = ("give", "drink")

    def room(self, t: Position) -> int:
        p = t.s.pending
        return party.cap(t.s, p.to) - t.s.chars[p.to].hp - sum(p.gifts.values())

    def legal(self, t: Position, seat: Seat) -> list[str]:
        s, p = t.s, t.s.pending
        room = self.room(t)
        out = []
        for k in party.mine(s, seat):
            char = s.chars[k]
            if k == p.to or str(k) in p.gifts or party.immune(s, k):
                continue
            out += [f"give {char.who} {n}" for n in range(1, min(char.hp - 1, room) + 1)]
        if p.gifts:
            out.append("drink")
        return [*out, "stop"]

    def apply(self, t: Position, seat: Seat, action: str) -> None:
        s, p = t.s, t.s.pending
        verb, *args = action.split()
        if verb == "give":
            k = party.index(s, args[0])
            p.gifts[str(k)] = int(args[1])
            t.say(
                msg("{name} pledges {n} HP to the chalice.", name=party.name(s, k), n=int(args[1]))
            )
        elif verb == "stop":
            t.say(msg("The ritual is called off; nobody bleeds and the chalice is kept."))
            s.pending = phase.carried_over(p, Pending("between"))
            phase.note(s, phase.CALLED_OFF, s.chars[p.to].who)
        else:  # drink
            total = 0
            for key, n in p.gifts.items():
                donor = s.chars[int(key)]
                donor.hp -= n
                total += n
                t.say(
                    msg(
                        "{name} bleeds {n} HP into the chalice ({hp} left).",
                        name=party.name(s, int(key)),
                        n=n,
                        hp=donor.hp,
                    )
                )
            gained = effects.heal(t, p.to, total)
            holder = chalice_holder(s)
            cup = next(i for i in s.chars[holder].items if cards.has_effect(i, "chalice"))
            s.chars[holder].items.remove(cup)
            t.say(
                msg(
                    "{name} drinks and gains {n} HP. The chalice crumbles to rust and is discarded.",
                    name=party.name(s, p.to),
                    n=gained,
                )
            )
            s.pending = phase.carried_over(p, Pending("between"))

    def prompt(self, t: Position) -> Msg:
        return msg(
            "The blood ritual for {name}: give <donor> <HP> (each keeps at least 1), then drink; or stop.",
            name=party.name(t.s, t.s.pending.to),
        )

    def default(self, t: Position, seat: Seat, legal: list[str]) -> str | None:
        return "stop" if "stop" in legal else None

    def describe(self, t: Position, action: str) -> str | None:
        verb, *args = action.split()
        p = t.s.pending
        if verb == "give" and len(args) == 2:
            return msg(
                "{character} gives {n} HP to the chalice", character=_title(args[0]), n=int(args[1])
            )
        if verb == "drink" and p and p.kind == "chalice":
            return msg("Drink: gain {n} HP, the chalice is discarded", n=sum(p.gifts.values()))
        return None

    def show(self, t: Position, view: dict) -> None:
        s, p = t.s, t.s.pending
        view["relics"]["ritual"] = {
            "to": s.chars[p.to].who,
            "gifts": {s.chars[int(j)].who: n for j, n in p.gifts.items()},
            "lacks": party.cap(s, p.to) - s.chars[p.to].hp,
        }


# ----- the Spell Book ---------------------------------------------------------------------
def bolt_target(row: list[str]) -> str:
    """The die Bone Bolt strikes: the most common trait of the row (Might, then Cunning,
    then Wisdom on a tie); a row of death-die faces alone (splits, shields) loses its most
    common face, in the row's order on a tie."""
    traits = [x for x in row if x in cards.TRAITS]
    pool = traits or row
    return max(pool, key=lambda x: (pool.count(x), -death_dice.row_key(x)))


def book(s: DarkCastleState, k: int) -> str | None:
    if party.cult_die(s, k):  # not the character's own die: no spell
        return None
    return next((i for i in s.chars[k].items if cards.has_effect(i, "spellbook")), None)


def spells(s: DarkCastleState, k: int, why: str) -> list[str]:
    """The spells whose requirement is met now."""
    out = []
    for name, spell in cards.SPELLS.items():
        need = spell["needs"]
        if (
            (need == "combat" and why == "combat")
            or (need == "test" and why in ("test", "gtest"))
            or (need == "wounded" and party.wounded(s))
        ):
            out.append(name)
    return out


def offer_spell(t: Position, k: int, why: str) -> Pending | None:
    """Before k rolls their own die: the choice to cast instead, when k holds the book."""
    if book(t.s, k) and spells(t.s, k, why):
        return Pending("cast", char=k, why=why)
    return None


def _casting(t: Position, view: dict) -> dict:
    s, p = t.s, t.s.pending
    casting = {"by": s.chars[p.char].who, "spell": p.spell or ""}
    view["relics"]["casting"] = casting
    return casting


class Cast(Step):
    """The Spell Book's holder is about to roll: roll as usual, or cast a spell instead."""

    kind = "cast"
    labels = ("cast", "roll")

    def to_act(self, t: Position) -> list[Seat]:
        seat = t.s.chars[t.s.pending.char].seat
        return [seat] if seat >= 0 else t.everyone()  # a companion: anyone

    def legal(self, t: Position, seat: Seat) -> list[str]:
        p = t.s.pending
        return ["roll"] + [f"cast {x}" for x in spells(t.s, p.char, p.why)]

    def apply(self, t: Position, seat: Seat, action: str) -> None:
        s, p = t.s, t.s.pending
        verb, *args = action.split()
        k = p.char
        if verb == "roll":
            s.pending = Pending("roll", char=k, why=p.why)
            return
        spell = cards.SPELLS[args[0]]
        t.say(
            msg(
                "{name} opens the Spell Book and casts {spell}...",
                name=party.name(s, k),
                spell=spell["name"],
            )
        )
        s.pending = Pending("spell", char=k, why=p.why, spell=args[0])

    def prompt(self, t: Position) -> Msg:
        return msg(
            "{name} holds the Spell Book: roll the die as usual, or cast <spell> instead.",
            name=party.name(t.s, t.s.pending.char),
        )

    def default(self, t: Position, seat: Seat, legal: list[str]) -> str | None:
        return "roll" if "roll" in legal else None

    def describe(self, t: Position, action: str) -> str | None:
        verb, *args = action.split()
        if verb == "cast" and args and args[0] in cards.SPELLS:
            spell = cards.SPELLS[args[0]]
            return msg("Cast {spell}: {text}", spell=spell["name"], text=spell["text"])
        if verb == "roll":
            return msg("Roll the die (no spell)")
        return None

    def show(self, t: Position, view: dict) -> None:
        p = t.s.pending
        _casting(t, view)["spells"] = [
            msg(
                "{spell} (cast {id}): {brief}",
                spell=cards.SPELLS[x]["name"],
                id=x,
                brief=cards.SPELLS[x]["brief"],
            )
            for x in spells(t.s, p.char, p.why)
        ]


SPELL_FACES = {
    "success": msg("The spell die: success. The spell works."),
    "partial": msg("The spell die: partial. The spell half works."),
    "recoil": msg("The spell die: recoil. The spell recoils on the caster."),
    "stray": msg("The spell die: stray. The spell strays into an ally."),
    "crumble": msg("The spell die: crumble. The spell crumbles the book to dust."),
}


class SpellRoll(ChanceStep):
    """The spell die: the spell works (success, partial) or exacts its price."""

    kind = "spell"

    def outcomes(self, t: Position) -> list[tuple[str, float]]:
        return cards.die_outcomes(t.rules.dice["spell"])

    def show(self, t: Position, view: dict) -> None:
        _casting(t, view)

    def resolve(self, t: Position, p: Pending, outcome: str) -> None:
        s = t.s
        k, name, why = p.char, p.spell, p.why
        cb = s.combat
        rolled = ""
        t.say(SPELL_FACES[outcome], kind="roll")
        if outcome in ("success", "partial"):
            full = outcome == "success"
            if name == "bolt" and cb:
                for _ in range(2 if full else 1):
                    if cb.row:
                        struck = bolt_target(cb.row)
                        cb.row.remove(struck)
                        t.say(
                            msg(
                                "A {trait} die is struck from the row.",
                                trait=death_dice.face_name(struck),
                            )
                        )
            elif name == "ward" and cb:
                for j in cb.fighters if full else [k]:
                    if j not in cb.blocked:
                        cb.blocked.append(j)
                t.say(
                    msg("Ash hangs in the air: every fighter blocks this round.")
                    if full
                    else msg("Ash hangs in the air: the caster blocks this round.")
                )
            elif name == "mend":
                for j in range(len(s.chars)) if full else [k]:
                    gained = effects.heal(t, j, 2)
                    t.say(msg("{name} gains {n} HP.", name=party.name(s, j), n=gained))
            elif name == "insight":
                frame = s.frames[-1]
                trait = chapters.step_at(frame["card"], frame["path"])["trait"][0]
                rolled = trait * 2 if full else trait
        elif outcome == "recoil":
            effects.hurt(t, k, cards.SPELL_HURT)
        elif outcome == "stray":
            allies = [j for j in range(len(s.chars)) if j != k]
            if allies:
                j = max(allies, key=lambda j: (s.chars[j].hp, -j))
                effects.hurt(t, j, cards.SPELL_HURT)
        elif outcome == "crumble":
            lost = book(s, k)
            if lost:
                s.chars[k].items.remove(lost)
            t.say(msg("The Spell Book falls apart in the caster's hands and is lost."))
        effects.check_death(t)
        if s.outcome:
            return
        if why == "combat":
            combat.attack_spent(t, k)
        elif why == "gtest":
            trials.group_rolled(t, rolled)
        else:
            s.chars[k].roll = rolled
            trials.attempted(t, k)
