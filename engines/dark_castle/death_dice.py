"""Death dice (the Collector's Box): chapter dice with a shield face and split faces, and the
pairing of attacks across prisoners that they need.

Death dice are rolled at combat set-up instead of the per-player chapter dice, on combats
marked `"death": true` in the content, when the Collector's Box is on (the rulebook pairs
them with the flaws it brings). Two chapters carry `"no_death"` (the rulebook's "two
chapters in which death dice cannot be used"): their combat special would contradict the
pairing rules, and the card says why. Once rolled they are chapter dice for every other rule:
a death die showing a trait is an ordinary die of that trait; a shield `s` and a split face
(`mc`, `cw`) stay in the row until removed as below.

Removing them (rulebook, Shields and Split Doubles):
- a shield: one prisoner's whole DOUBLE (any double, a split one too), or two matching
  singles from two different prisoners;
- a split face: two prisoners' results, one of each trait shown;
- results may be split and combined: a double is two results of its traits.

Chat play has no turn order and every fighter rolls at once, so while a shield or a split
face is in the row the round's attacks are resolved together (`hit all`, or by themselves
when nobody has an item to use first): the engine combines the results so that the most dice
go, the shields and split dice first among equals. Without such a face the usual one-by-one
`hit <prisoner>` applies.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from math import factorial

from engines.dark_castle import cards, party
from engines.dark_castle.rules import Position
from engines.dark_castle.state import DarkCastleState
from engines.dark_castle.words import listed
from engines.text import Msg, joined, msg

SHIELD = "s"
# Our faces: the three traits, a shield, and two split doubles (Might+Cunning and
# Cunning+Wisdom). No public source gives the printed faces.
DEATH_DIE = ["m", "c", "w", SHIELD, "mc", "cw"]
ROW_ORDER = ("m", "c", "w", "mc", "mw", "cw", SHIELD)
FACE_NAMES = {
    SHIELD: msg("Shield"),
    "mc": msg("Might+Cunning"),
    "mw": msg("Might+Wisdom"),
    "cw": msg("Cunning+Wisdom"),
}
HIT_ALL = "hit all"
HIT_ALL_LABEL = msg("Resolve every attack together: results combine against shields and splits")


def row_key(face: str) -> int:
    """The order of the enemy's row: traits, then split faces, then shields."""
    return ROW_ORDER.index(face) if face in ROW_ORDER else len(ROW_ORDER)


def face_name(face: str) -> Msg:
    return FACE_NAMES.get(face) or cards.TRAIT_NAMES[face]


def is_death_face(face: str) -> bool:
    """A face only a death die shows: a shield, or a split of two traits."""
    return face == SHIELD or (len(face) == 2 and face[0] != face[1])


def pairing_needed(row: list[str]) -> bool:
    return any(is_death_face(f) for f in row)


def marked(card: dict, step: dict) -> bool:
    """The combat rolls death dice (when the Collector's Box is on)."""
    return bool(step.get("death")) and not card.get("no_death")


def outcomes(n: int) -> list[tuple[str, float]]:
    """n death dice rolled at once, as a multiset of faces in row order ("m s mc")."""
    out: list[tuple[str, float]] = []

    def spread(i: int, left: int, counts: list[int]) -> None:
        if i == len(DEATH_DIE) - 1:
            counts = [*counts, left]
            ways = factorial(n)
            for c in counts:
                ways //= factorial(c)
            faces = [f for f, c in zip(DEATH_DIE, counts, strict=True) for _ in range(c)]
            out.append((" ".join(sorted(faces, key=row_key)), ways / len(DEATH_DIE) ** n))
            return
        for c in range(left, -1, -1):  # the plainest roll first ("m m")
            spread(i + 1, left - c, [*counts, c])

    spread(0, n, [])
    return out


def add_rolled(t: Position, outcome: str) -> None:
    faces = outcome.split()
    cb = t.s.combat
    cb.row = sorted(cb.row + faces, key=row_key)
    cb.death = sorted((cb.death or []) + faces, key=row_key)
    names = listed([face_name(f) for f in faces])
    t.say(msg("The death dice roll {faces} into the enemy's row.", faces=names), kind="death")


# ----- resolving the round's attacks together ---------------------------------------------
Unit = tuple[str, int, bool]  # a trait, its fighter, whether it may hit a plain die alone


def _alternatives(
    s: DarkCastleState, k: int, face: str, single_doubles: bool, armour: dict | None
) -> list[tuple]:
    """What fighter k's result can do: (units, breaks a shield whole)."""
    if len(face) == 2:
        if single_doubles:  # a double hits only once (the roller's choice of trait)
            alts = [(((face[0], True),), False)]
            if face[1] != face[0]:
                alts.append((((face[1], True),), False))
        else:
            alts = [(tuple((t, True) for t in face), False)]
        return [*alts, ((), True)]
    plain = not (armour and armour["trait"] == face)
    doubled = any(
        e["k"] == "double" and e["trait"] == face
        for i in s.chars[k].items
        for e in cards.ITEMS[i].get("effects", [])
    )
    units = (face, face) if doubled else (face,)
    return [(tuple((t, plain) for t in units), False)]


def plan(
    s: DarkCastleState,
    fighters: list[int],
    single_doubles: bool = False,
    armour: dict | None = None,
) -> dict:
    """The best use of the fighters' results against the row: most dice removed, then the
    most shields and split dice among them. Returns breaks, pairs and plain hits. The
    enemy's specials count: doubles hitting only once, armour against a single trait."""
    row = s.combat.row
    rolls = {k: s.combat.rolls.get(str(k), "") for k in fighters}
    choices = [
        [(k, alt) for alt in _alternatives(s, k, rolls[k], single_doubles, armour)]
        for k in fighters
        if rolls[k]
    ]
    best: tuple | None = None
    for combo in product(*choices):
        breakers = [k for k, (_, whole) in combo if whole]
        units: list[Unit] = []
        for k, (alt_units, _) in combo:
            units += [(t, k, ok) for t, ok in alt_units]
        result = _best_for(row, breakers, units)
        if best is None or result[0] > best[0]:
            best = result
    if best is None:
        return {"breaks": [], "pairs": [], "hits": []}
    return best[1]


def _best_for(row: list[str], breakers: list[int], units: list[Unit]) -> tuple:
    shields = row.count(SHIELD)
    breaks = breakers[:shields]
    special = [SHIELD] * (shields - len(breaks)) + [
        f for f in row if is_death_face(f) and f != SHIELD
    ]
    plain_row = [f for f in row if not is_death_face(f)]

    @cache
    def solve(i: int, used: int) -> tuple:
        if i == len(special):
            hits = []
            left = list(plain_row)
            for j, (t, k, ok) in enumerate(units):
                if not used >> j & 1 and ok and t in left:
                    left.remove(t)
                    hits.append((k, t))
            return (len(hits), 0), [], hits
        best = solve(i + 1, used)
        die = special[i]
        for a, (ta, ka, _) in enumerate(units):
            if used >> a & 1:
                continue
            for b in range(a + 1, len(units)):
                tb, kb, _ = units[b]
                if used >> b & 1 or ka == kb:
                    continue
                fits = ta == tb if die == SHIELD else {ta, tb} == set(die) and ta != tb
                if not fits:
                    continue
                (n, sp), pairs, hits = solve(i + 1, used | 1 << a | 1 << b)
                cand = ((n + 1, sp + 1), [(die, (ka, ta), (kb, tb)), *pairs], hits)
                if cand[0] > best[0]:
                    best = cand
        return best

    (n, sp), pairs, hits = solve(0, 0)
    score = (n + len(breaks), sp + len(breaks))
    return score, {"breaks": breaks, "pairs": pairs, "hits": hits}


def resolve_together(t: Position, single_doubles: bool, armour: dict | None) -> None:
    """Resolve every fighter's attack not yet resolved at once, with the best combination
    (a companion's special face is resolved before, by the combat)."""
    s = t.s
    cb = s.combat
    fighters = [k for k in cb.fighters if k not in cb.done]
    best = plan(s, fighters, single_doubles, armour)
    for k in best["breaks"]:
        cb.row.remove(SHIELD)
        t.say(msg("{name} breaks a shield with a double.", name=party.name(s, k)), kind="attack")
    for die, (ka, ta), (kb, tb) in best["pairs"]:
        cb.row.remove(die)
        said = dict(
            a=party.name(s, ka),
            b=party.name(s, kb),
            ta=cards.TRAIT_NAMES[ta],
            tb=cards.TRAIT_NAMES[tb],
        )
        if die == SHIELD:
            t.say(msg("{a} and {b} combine {ta} and {tb}: a shield breaks.", **said), kind="attack")
        else:
            t.say(
                msg(
                    "{a} and {b} combine {ta} and {tb}: the {die} die falls.",
                    die=face_name(die),
                    **said,
                ),
                kind="attack",
            )
    paired = set(best["breaks"]) | {k for _, a, b in best["pairs"] for k in (a[0], b[0])}
    for k in fighters:
        cb.done.append(k)
        face = cb.rolls.get(str(k), "")
        hit = [x for j, x in best["hits"] if j == k]
        for x in hit:
            cb.row.remove(x)
        blocks = len(face) == 2 and party.blocks_with_double(s, k)
        if blocks:
            cb.blocked.append(k)
        hits = joined([cards.TRAIT_NAMES[x] for x in hit], " ") if hit else None
        said = attack_result(
            party.name(s, k), hits, missed=not hit and k not in paired, blocks=blocks
        )
        if said is not None:
            t.say(said, kind="attack")


def attack_result(name: Msg, hits: Msg | None, missed: bool, blocks: bool) -> Msg | None:
    """What an attack did: "Ann (Smith) hits Might and blocks.", "... misses." (None: it
    was part of a pair, told already)."""
    if hits is not None:
        if blocks:
            return msg("{name} hits {faces} and blocks.", name=name, faces=hits)
        return msg("{name} hits {faces}.", name=name, faces=hits)
    if missed:
        return (
            msg("{name} misses and blocks.", name=name)
            if blocks
            else msg("{name} misses.", name=name)
        )
    return msg("{name} blocks.", name=name) if blocks else None
