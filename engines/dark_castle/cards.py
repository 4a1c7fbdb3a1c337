"""The castle's cards as data: characters, start cards, chapters, bosses and items.

Cards live in JSON files under `content/` (one file a set: `core.json`, and
each supplement adds its own file). The engine interprets a small vocabulary of
steps (see `STEP_KINDS`), so a new card never needs code.

A die face is a short string of trait letters: `m` Might, `c` Cunning, `w` Wisdom.
One letter is a single, two letters a double (`mm`); a split double (`mc`, of the
plague supplement) is simply two different letters.

The supplements (each a game option; `SUPPLEMENTS` below) add one JSON file each. Built:
- sets and castles: the chapter, boss and item pools filter on the card's `set`; a pack on
  its own fixes its boss and may keep its number order (`n` on each chapter);
- curses (cult.json): item-deck cards with `kind` "curse" and a `curse` table (see
  `CURSE_KEYS`), held beside a character; enemies and chapter damage marked `cultist`;
  Marked for Death and the cult die (`CULT_DIE`).
- plague (plague.json): `plague` and `cure` steps, plague cards (`kind` "plague") hitting
  whoever drew them, the plague die and thresholds (`PLAGUE_DIE`, `PLAGUE_THRESHOLDS`),
  `carrier` combats and tainted loot, three prisoners with split doubles, the knapsack
  (`stored` items, moved only between chapters).
- companions (undead.json): companion event cards (`kind` "companion") in the item deck;
  the companions themselves (`COMPANIONS`, also in `CHARACTERS` with `companion` set) with
  their own die (a special face `x`), HP, a characteristic and a combat special
  (`COMPANION_SPECIALS`); combats flagged `prisoners_only` roll no die per player for them.
  Relics: the Ritual Chalice (effect `chalice`) and the Spell Book (effect `spellbook`,
  `SPELLS` and `SPELL_DIE`). The rules live in `companions.py` and `relics.py`.
- collector's box (collector.json): flaws (`FLAWS`, one use each, using the item effects),
  start cards and bosses shuffled in, epilogues (`EPILOGUES`) read at the end; death dice
  (`death_dice.py`): combat steps marked `"death": true` roll them per player, cards with
  `"no_death"` (a reason) never do; a shield `s` and split faces (`mc`, `cw`) in the row,
  removed by results combined across prisoners; the Living Stone (`living_stone.py`), an
  item whose `stone` effect rolls its own die in combat.
Not built yet: nothing the supplements' rules ask for (a Spell Book spell list longer than
our four, or companions beyond three, would be content only).
"""

from __future__ import annotations

import json
from math import factorial
from pathlib import Path
from typing import Any

from engines.dark_castle.words import TEXT_KEYS, card
from engines.text import Msg, in_context, joined, msg, plural

TRAITS = ("m", "c", "w")
TRAIT_NAMES = {"m": msg("Might"), "c": msg("Cunning"), "w": msg("Wisdom")}
# A trait's letter on a die face, in each language the initial of the trait's name there
# (German: K Kraft, L List, W Weisheit); the typed commands never use these letters.
TRAIT_LETTERS = {
    "m": in_context("trait letter", "M"),
    "c": in_context("trait letter", "C"),
    "w": in_context("trait letter", "W"),
}


def face_letters(face: str) -> Msg:
    """A face as its letters ("MM", "KK" in German)."""
    return joined([TRAIT_LETTERS[t] for t in face], "")


# The six core prisoners: a character die is main trait on 3 faces (one a double),
# second on 2 faces (one a double), third on 1 face; counts as published.
CHARACTERS: dict[str, dict] = {
    "abbot": {
        "title": msg("The Abbot"),
        "short": msg("Abbot"),
        "faces": ["w", "w", "ww", "m", "mm", "c"],
        "set": "core",
    },
    "cook": {
        "title": msg("The Cook"),
        "short": msg("Cook"),
        "faces": ["m", "m", "mm", "c", "cc", "w"],
        "set": "core",
    },
    "miller": {
        "title": msg("The Miller"),
        "short": msg("Miller"),
        "faces": ["c", "c", "cc", "m", "mm", "w"],
        "set": "core",
    },
    "smith": {
        "title": msg("The Smith"),
        "short": msg("Smith"),
        "faces": ["m", "m", "mm", "w", "ww", "c"],
        "set": "core",
    },
    "tailor": {
        "title": msg("The Tailor"),
        "short": msg("Tailor"),
        "faces": ["c", "c", "cc", "w", "ww", "m"],
        "set": "core",
    },
    "tanner": {
        "title": msg("The Tanner"),
        "short": msg("Tanner"),
        "faces": ["w", "w", "ww", "c", "cc", "m"],
        "set": "core",
    },
    # Blight of the Plague Lord: three prisoners of our own whose second double is a split
    # double (two different traits: both apply, and it blocks). Our faces.
    "ratcatcher": {
        "title": msg("The Ratcatcher"),
        "short": msg("Ratcatcher"),
        "faces": ["c", "c", "cc", "m", "mc", "w"],
        "set": "plague",
    },
    "herbalist": {
        "title": msg("The Herbalist"),
        "short": msg("Herbalist"),
        "faces": ["w", "w", "ww", "c", "cw", "m"],
        "set": "plague",
    },
    "gravedigger": {
        "title": msg("The Gravedigger"),
        "short": msg("Gravedigger"),
        "faces": ["m", "m", "mm", "w", "mw", "c"],
        "set": "plague",
    },
}

STEP_KINDS = (
    "narrate",  # text only
    "damage",  # who, n
    "heal",  # who, n (never above the starting HP)
    "draw",  # n items, or "per_player"
    "lose_item",  # who, what: "choice" | "all"; who "party": the group discards one
    "test",  # who: you|each|chosen, trait, double, attempts (0: until success), pass/fail/fail_each
    "group_test",  # every character rolls once; total symbols of trait >= need
    "choose",  # options: label, steps, needs (an item tag), spend, requires ("you_item")
    "combat",  # name, dice, per_player, attack, specials, loot
    "gamble",  # roll one chapter die: steps under m, c, w
    "if_item",  # needs a tag held by anyone: then / else
    "plague",  # who rolls for plague (or gains n plague, when n is given)
    "cure",  # who loses n plague
)
TARGETS = ("you", "all", "others", "it", "weakest", "strongest")
SPECIALS = {
    "ambush": "Before the first round every prisoner loses {n} HP.",
    "ambush_you": "Before the first round YOU lose {n} HP.",
    "rage": "Each round it survives, its attack grows by 1 (up to {max}).",
    "regrow": "Each round it survives, {n} more chapter dice join its row ({max} in all).",
    "armoured": "A single {trait} does not hit; only a {trait} double does.",
    "pierce": "A double still blocks, but the blocker loses {n} HP.",
    "focus_you": "It attacks only YOU, for {n} extra damage; YOU may not rest.",
    "no_rest": "Nobody may rest.",
    "no_items": "No items may be used during this combat.",
    "doubles_single": "Doubles hit only once (they still block).",
    "flees": "After {n} rounds it flees: the fight ends without an item.",
    "venom": "After the fight, everyone it wounded loses {n} HP more.",
}
ITEM_EFFECTS = (
    "heal",
    "reroll",
    "become",
    "strike",
    "block",
    "ward",
    "double",
    "alias",
    "cure",  # lose n plague
    "mask",  # no plague from carriers in combat
    "knapsack",  # n more items stored, unusable during a chapter
    "stone",  # the Living Stone: roll its die in combat (living_stone.py)
    "chalice",  # the blood ritual between chapters (undead)
    "spellbook",  # cast a spell instead of rolling (undead)
)

# The supplements, each a game option: the content set it adds and its own boss (the one a
# pack played on its own ends with).
SUPPLEMENTS: dict[str, dict] = {
    "cult": {"title": msg("Cult of the Death Knight"), "boss": "b_deathknight"},
    "plague": {"title": msg("Blight of the Plague Lord"), "boss": "b_plaguelord"},
    # The Collector's Box has no chapters: it adds flaws, start cards, bosses and epilogues.
    "undead": {"title": msg("Scourge of the Undead Queen"), "boss": "b_undeadqueen"},
    "collector": {"title": msg("The Collector's Box"), "boss": "", "chapters": False},
}
# The plague die, never re-rolled or modified: its faces are the published 0, 0, 1, 1, 2, 3
# (the Plague Lord pack's rulebook, docs/games.md). Each threshold reached costs HP at once (our values).
PLAGUE_DIE = ["0", "0", "1", "1", "2", "3"]
PLAGUE_THRESHOLDS = ((3, 1), (6, 2), (9, 3))
# The cult die (Marked for Death): 4 white faces and 2 black; our faces (no public source
# gives them). Outcomes name a black face "black <trait>".
CULT_DIE = ["m", "c", "w", "ww", "black m", "black c"]
# Scourge of the Undead Queen. A companion's die has one special face `x`: in a chapter's
# combat it triggers the companion's special; against a boss it only blocks; outside combat it
# counts as a double of the trait the roll needs (the roller's choice, so always the best one).
SPECIAL_FACE = "x"
COMPANION_SPECIALS = ("chill", "sunder", "rally")
# The Spell Book: our spells (each with its requirement) and our spell die.
SPELLS: dict[str, dict] = {
    "bolt": {
        "name": msg("Bone Bolt"),
        "needs": "combat",
        "brief": msg("2 dice struck from the row (partial: 1)"),
        "text": msg(
            "In combat. Success: two dice of the row are struck away (the most common "
            "trait first); partial: one."
        ),
    },
    "ward": {
        "name": msg("Veil of Ash"),
        "needs": "combat",
        "brief": msg("every fighter blocks (partial: the caster)"),
        "text": msg(
            "In combat. Success: every fighter blocks this round; partial: the caster blocks."
        ),
    },
    "mend": {
        "name": msg("Knit Flesh"),
        "needs": "wounded",
        "brief": msg("everyone gains 2 HP (partial: the caster)"),
        "text": msg(
            "Someone is wounded. Success: everyone gains 2 HP; partial: the caster gains 2 HP."
        ),
    },
    "insight": {
        "name": msg("Second Sight"),
        "needs": "test",
        "brief": msg("counts as a double of the trait (partial: a single)"),
        "text": msg(
            "A test. Success: the roll counts as a double of the trait asked; "
            "partial: as a single of it."
        ),
    },
}
# Faces: 2 success, 1 partial, 1 recoil (the caster loses 2 HP), 1 stray (the ally with the
# most HP loses 2 HP), 1 crumble (the book is destroyed, the spell fails). Our faces.
SPELL_DIE = ["success", "success", "partial", "recoil", "stray", "crumble"]
SPELL_HURT = 2
# What a curse can do: `now` HP lost at once; `frail` extra damage from enemy attacks;
# `drain` HP lost whenever a chapter is turned; `noblock` doubles do not block;
# `marked` Marked for Death; `lift` when it goes: "now", "rest" (its holder rests),
# "combat" (the party wins a combat), or never.
CURSE_KEYS = ("now", "frail", "drain", "noblock", "marked", "lift")
CURSE_LIFTS = ("now", "rest", "combat")

CONTENT = Path(__file__).parent / "content"


def read_content(path: Path) -> dict:
    """One content file as its JSON holds it (its texts plain English)."""
    return json.loads(path.read_text(encoding="utf-8"))


def _said(data: Any, key: str | None = None, companion: bool = False) -> Any:
    """A content file with its texts for the players made messages (`words.card`): the
    keys in `TEXT_KEYS`, the epilogues, a companion's characteristic."""
    if isinstance(data, dict):
        own = "faces" in data and "hp" in data
        return {k: _said(v, k, own) for k, v in data.items()}
    if isinstance(data, list):
        return [_said(v, key, companion) for v in data]
    if (
        isinstance(data, str)
        and data
        and (key in TEXT_KEYS or key in ("won", "lost") or (key == "trait" and companion))
    ):
        return card(data)
    return data


def _load() -> dict[str, dict]:
    cards: dict[str, dict] = {
        "start": {},
        "chapter": {},
        "boss": {},
        "item": {},
        "flaw": {},
        "epilogue": {},
        "companion": {},
    }
    for path in sorted(CONTENT.glob("*.json")):
        data = _said(read_content(path))
        for kind, key in (("start", "starts"), ("chapter", "chapters"), ("boss", "bosses")):
            for entry in data.get(key, []):
                entry = dict(entry, kind=kind, set=path.stem)
                cards[kind][entry["id"]] = entry
        for item in data.get("items", []):
            cards["item"][item["id"]] = dict(item, set=path.stem)
        for flaw in data.get("flaws", []):
            cards["flaw"][flaw["id"]] = dict(flaw, set=path.stem, kind="flaw", hands=0)
        for comp in data.get("companions", []):
            cards["companion"][comp["id"]] = dict(comp, set=path.stem)
        if data.get("epilogues"):
            cards["epilogue"][path.stem] = data["epilogues"]
    return cards


CARDS = _load()
STARTS: dict[str, dict] = CARDS["start"]
CHAPTERS: dict[str, dict] = CARDS["chapter"]
BOSSES: dict[str, dict] = CARDS["boss"]
ITEMS: dict[str, dict] = CARDS["item"]
# Character flaws (the Collector's Box): one use each, never traded; they use the item
# effects, so `TOOLS` looks up an item or a flaw alike.
FLAWS: dict[str, dict] = CARDS["flaw"]
TOOLS: dict[str, dict] = {**ITEMS, **FLAWS}
EPILOGUES: dict[str, dict] = CARDS["epilogue"]
ALL_CARDS: dict[str, dict] = {**STARTS, **CHAPTERS, **BOSSES}
# Companions (undead): their own die and HP; they roll like prisoners, so they are characters
# too (flagged, never offered at `pick`).
COMPANIONS: dict[str, dict] = CARDS["companion"]
for _id, _comp in COMPANIONS.items():
    CHARACTERS[_id] = {
        "title": _comp["title"],
        "faces": _comp["faces"],
        "set": _comp["set"],
        "companion": True,
    }


def die_outcomes(faces: list[str]) -> list[tuple[str, float]]:
    counts: dict[str, int] = {}
    for face in faces:
        counts[face] = counts.get(face, 0) + 1
    return [(face, n / len(faces)) for face, n in counts.items()]


def chapter_dice_outcomes(n: int) -> list[tuple[str, float]]:
    """n chapter dice rolled at once (each 2 Might, 2 Cunning, 2 Wisdom faces): a multiset."""
    out = []
    for m in range(n + 1):
        for c in range(n - m + 1):
            w = n - m - c
            ways = factorial(n) // (factorial(m) * factorial(c) * factorial(w))
            out.append(("m" * m + "c" * c + "w" * w, ways / 3**n))
    return out


def steps_at(card: dict, path: list) -> list:
    node = card
    for key in path:
        node = node[key]
    return node


def describe_special(spec: dict) -> Msg:
    kind = spec["k"]
    n = spec.get("n", 1)
    most = spec.get("max", 99 if kind == "rage" else 3)
    trait = TRAIT_NAMES.get(spec.get("trait", ""), "")
    said = {
        "ambush": lambda: msg("Before the first round every prisoner loses {n} HP.", n=n),
        "ambush_you": lambda: msg("Before the first round YOU lose {n} HP.", n=n),
        "rage": lambda: msg(
            "Each round it survives, its attack grows by 1 (up to {max}).", max=most
        ),
        "regrow": lambda: plural(
            "Each round it survives, {count} more chapter die joins its row ({max} in all).",
            "Each round it survives, {count} more chapter dice join its row ({max} in all).",
            n,
            max=most,
        ),
        "armoured": lambda: msg(
            "A single {trait} does not hit; only a {trait} double does.", trait=trait
        ),
        "pierce": lambda: msg("A double still blocks, but the blocker loses {n} HP.", n=n),
        "focus_you": lambda: msg(
            "It attacks only YOU, for {n} extra damage; YOU may not rest.", n=n
        ),
        "no_rest": lambda: msg("Nobody may rest."),
        "no_items": lambda: msg("No items may be used during this combat."),
        "doubles_single": lambda: msg("Doubles hit only once (they still block)."),
        "flees": lambda: plural(
            "After {count} round it flees: the fight ends without an item.",
            "After {count} rounds it flees: the fight ends without an item.",
            n,
        ),
        "venom": lambda: msg("After the fight, everyone it wounded loses {n} HP more.", n=n),
    }.get(kind)
    return said() if said else Msg(kind)


def combat_steps(card: dict) -> list[dict]:
    """Every combat step of a card, in order (a boss's phases)."""
    found: list[dict] = []

    def walk(steps: list) -> None:
        for step in steps:
            if step["do"] == "combat":
                found.append(step)
            for key in ("pass", "fail", "fail_each", "then", "else", "m", "c", "w"):
                if key in step:
                    walk(step[key])
            for option in step.get("options", []):
                walk(option["steps"])

    walk(card.get("steps", []))
    return found


def check_card(card: dict) -> list[str]:
    """Problems with one card's data (empty when it is sound); used by the content test."""
    problems: list[str] = []
    name = card.get("id", "?")
    for key in ("id", "title", "text", "steps"):
        if key not in card:
            problems.append(f"{name}: no {key}")
    tags = {t for item in ITEMS.values() for t in item.get("tags", [])}

    def walk(steps: list, where: str) -> None:
        for i, step in enumerate(steps):
            at = f"{name} {where}[{i}]"
            kind = step.get("do")
            if kind not in STEP_KINDS:
                problems.append(f"{at}: unknown step {kind!r}")
                continue
            if kind in ("plague", "cure") and step.get("n", 1) < 1:
                problems.append(f"{at}: plague counts are positive")
            if "who" in step and step["who"] not in (*TARGETS, "each", "chosen", "party"):
                problems.append(f"{at}: unknown target {step['who']!r}")
            by_choice = kind == "lose_item" and step.get("what", "choice") == "choice"
            if by_choice and step.get("who", "you") in ("all", "others", "each"):
                problems.append(f"{at}: one prisoner at a time discards by choice")
            if kind == "test":
                if not step.get("trait") or set(step["trait"]) - set(TRAITS):
                    problems.append(f"{at}: bad trait")
                if step.get("double") and not step.get("attempts"):
                    problems.append(f"{at}: an endless test cannot need a double")
            if "n" in card and not isinstance(card["n"], int):
                problems.append(f"{at}: a chapter number is a whole number")
            if kind == "combat":
                if step.get("prisoners_only") and not step.get("per_player"):
                    problems.append(f"{at}: prisoners_only needs dice per player")
                if set(step.get("dice", "")) - set(TRAITS):
                    problems.append(f"{at}: bad dice")
                if not step.get("dice") and not step.get("per_player"):
                    problems.append(f"{at}: an empty row")
                if step.get("attack", 0) < 1:
                    problems.append(f"{at}: attack must be at least 1")
                for spec in step.get("specials", []):
                    if spec.get("k") not in SPECIALS:
                        problems.append(f"{at}: unknown special {spec.get('k')!r}")
                    armour = spec.get("trait", "") if spec.get("k") == "armoured" else ""
                    if armour and armour not in step.get("dice", ""):
                        problems.append(f"{at}: armour against a trait not in the row")
            if kind in ("choose",):
                if len(step.get("options", [])) < 2:
                    problems.append(f"{at}: a choice needs two options")
                if not any(
                    not o.get("needs") and not o.get("requires") for o in step.get("options", [])
                ):
                    problems.append(f"{at}: one option must need no item")
                for o in step.get("options", []):
                    if o.get("requires") not in (None, "you_item"):
                        problems.append(f"{at}: unknown requirement {o['requires']!r}")
            needs = [o.get("needs") for o in step.get("options", [])] + [step.get("needs")]
            for tag in needs:
                if tag and tag not in tags:
                    problems.append(f"{at}: no item has the tag {tag!r}")
            for key in ("pass", "fail", "fail_each", "then", "else", "m", "c", "w"):
                if key in step:
                    walk(step[key], f"{where}[{i}].{key}")
            for j, option in enumerate(step.get("options", [])):
                walk(option.get("steps", []), f"{where}[{i}].options[{j}]")

    walk(card.get("steps", []), "steps")
    return problems


def in_sets(cards: dict[str, dict], sets: list[str]) -> list[str]:
    """The ids of the cards that belong to the given content sets, sorted."""
    return sorted(k for k, card in cards.items() if card["set"] in sets)


def is_curse(item_id: str) -> bool:
    return ITEMS[item_id].get("kind") == "curse"


def is_companion_card(item_id: str) -> bool:
    return ITEMS[item_id].get("kind") == "companion"


def is_plague_card(item_id: str) -> bool:
    return ITEMS[item_id].get("kind") == "plague"


def has_effect(item_id: str, kind: str) -> dict | None:
    return next((e for e in TOOLS[item_id].get("effects", []) if e["k"] == kind), None)


def check_item(item: dict) -> list[str]:
    problems = []
    for key in ("id", "name", "text", "hands"):
        if key not in item:
            problems.append(f"{item.get('id', '?')}: no {key}")
    if item.get("kind") == "curse":
        curse = item.get("curse", {})
        if not curse or set(curse) - set(CURSE_KEYS):
            problems.append(f"{item['id']}: a curse needs known curse keys")
        if curse.get("lift", "now") not in CURSE_LIFTS:
            problems.append(f"{item['id']}: unknown lift")
        if item.get("hands") != 0:
            problems.append(f"{item['id']}: a curse is held in no hand")
    if item.get("kind") == "plague":
        plague = item.get("plague", {})
        if not plague or set(plague) - {"roll", "gain", "hurt"}:
            problems.append(f"{item['id']}: a plague card needs roll, gain or hurt")
    is_event = item.get("kind") == "companion"
    if is_event and (item.get("companion") not in COMPANIONS or item.get("hands") != 0):
        problems.append(f"{item['id']}: a companion event names a companion, held in no hand")
    if item.get("kind") not in (None, "curse", "plague", "companion"):
        problems.append(f"{item['id']}: unknown kind")
    if len(item.get("id", "")) > 12:
        problems.append(f"{item['id']}: id longer than 12 letters")
    for effect in item.get("effects", []):
        if effect.get("k") not in ITEM_EFFECTS:
            problems.append(f"{item['id']}: unknown effect {effect.get('k')!r}")
    if item.get("uses", "keep") not in ("keep", "discard", "chapter"):
        problems.append(f"{item['id']}: unknown uses")
    return problems


def check_companion(comp: dict) -> list[str]:
    """Problems with a companion's data: a die of six faces with one special face, HP, a
    characteristic and a known combat special."""
    problems = []
    name = comp.get("id", "?")
    for key in ("id", "title", "faces", "hp", "text", "trait", "special"):
        if key not in comp:
            problems.append(f"{name}: no {key}")
    faces = comp.get("faces", [])
    if len(faces) != 6 or faces.count(SPECIAL_FACE) != 1:
        problems.append(f"{name}: a companion die has six faces, one of them special")
    if any(set(f) - set(TRAITS) for f in faces if f != SPECIAL_FACE):
        problems.append(f"{name}: bad face")
    if comp.get("special", {}).get("k") not in COMPANION_SPECIALS:
        problems.append(f"{name}: unknown special")
    if not 1 <= comp.get("hp", 0) <= 12:
        problems.append(f"{name}: HP from 1 to 12")
    return problems
