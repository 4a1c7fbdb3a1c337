"""The castle's cards as data: characters, start cards, chapters, bosses and items.

Cards live in JSON files under `content/` (one file a set: `core.json` now, a
supplement later adds its own file). The engine interprets a small vocabulary of
steps (see `STEP_KINDS`), so a new card never needs code.

A die face is a short string of trait letters: `m` Might, `c` Cunning, `w` Wisdom.
One letter is a single, two letters a double (`mm`); a split double (`mc`, of the
plague supplement) is simply two different letters.

How the supplements are meant to fit (not built yet; what the vocabulary still lacks):
- sets: every JSON file here is loaded into one pool; a supplement needs the game's
  options to name the sets in play and the chapter, boss and item pools to filter on
  the card's `set` (a stand-alone pack also fixes its boss and may keep its order);
- curses: item-deck cards with a `kind` other than "item"; the item draw needs a
  "who draws it" decision before each chance, cards held beside a character outside
  the two hands, enemy tags on combat steps (a cultist), and Marked for Death as a
  state on the character: no rest, +1 damage from cultists, the cult die (4 white,
  2 black faces) in place of the character die below half HP, a black face joining
  the enemy's row until hit;
- companions: a `companion` step and entries in `chars` with their own die and HP,
  flagged so their death does not end the game and "per player" does not count them;
  relics as items with new effects (the chalice: HP given by donors to a recipient
  between chapters; the spell book: a spell die rolled instead of the character die);
- plague: a `plague` step (roll the plague die 0,0,1,1,2,3), a plague counter per
  character with thresholds (3/6/9: lose 1/2/3 HP), a `carrier` flag on combat steps
  and on infected prisoners (damage and item hand-overs then pass plague), the knapsack
  (two stored items, unusable during a chapter); split doubles (`mc`) already resolve
  and block, but `doubles_single` must let the roller choose one of the two traits;
- collector's box: flaws (one use each, a new action), death dice (a shield face `s`
  and split faces among the chapter dice outcomes, removed by a double or two players'
  matching singles, so attacks must be able to pair across players), epilogue texts
  on the result, the Living Stone (a relic with its own die). Random start cards and
  more bosses are data already.
"""

from __future__ import annotations

import json
from math import factorial
from pathlib import Path

TRAITS = ("m", "c", "w")
TRAIT_NAMES = {"m": "Might", "c": "Cunning", "w": "Wisdom"}

# The six core prisoners: a character die is main trait on 3 faces (one a double),
# second on 2 faces (one a double), third on 1 face; counts as published.
CHARACTERS: dict[str, dict] = {
    "abbot": {"title": "The Abbot", "faces": ["w", "w", "ww", "m", "mm", "c"]},
    "cook": {"title": "The Cook", "faces": ["m", "m", "mm", "c", "cc", "w"]},
    "miller": {"title": "The Miller", "faces": ["c", "c", "cc", "m", "mm", "w"]},
    "smith": {"title": "The Smith", "faces": ["m", "m", "mm", "w", "ww", "c"]},
    "tailor": {"title": "The Tailor", "faces": ["c", "c", "cc", "w", "ww", "m"]},
    "tanner": {"title": "The Tanner", "faces": ["w", "w", "ww", "c", "cc", "m"]},
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
ITEM_EFFECTS = ("heal", "reroll", "become", "strike", "block", "ward", "double", "alias")

_DIR = Path(__file__).parent / "content"


def _load() -> dict[str, dict]:
    cards: dict[str, dict] = {"start": {}, "chapter": {}, "boss": {}, "item": {}}
    for path in sorted(_DIR.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for kind, key in (("start", "starts"), ("chapter", "chapters"), ("boss", "bosses")):
            for card in data.get(key, []):
                card = dict(card, kind=kind, set=path.stem)
                cards[kind][card["id"]] = card
        for item in data.get("items", []):
            cards["item"][item["id"]] = dict(item, set=path.stem)
    return cards


CARDS = _load()
STARTS: dict[str, dict] = CARDS["start"]
CHAPTERS: dict[str, dict] = CARDS["chapter"]
BOSSES: dict[str, dict] = CARDS["boss"]
ITEMS: dict[str, dict] = CARDS["item"]
ALL_CARDS: dict[str, dict] = {**STARTS, **CHAPTERS, **BOSSES}


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


def describe_special(spec: dict) -> str:
    text = SPECIALS.get(spec["k"], spec["k"])
    trait = TRAIT_NAMES.get(spec.get("trait", ""), "")
    default_max = 99 if spec["k"] == "rage" else 3
    return text.format(n=spec.get("n", 1), max=spec.get("max", default_max), trait=trait)


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
            if kind == "combat":
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


def check_item(item: dict) -> list[str]:
    problems = []
    for key in ("id", "name", "text", "hands"):
        if key not in item:
            problems.append(f"{item.get('id', '?')}: no {key}")
    if len(item.get("id", "")) > 12:
        problems.append(f"{item['id']}: id longer than 12 letters")
    for effect in item.get("effects", []):
        if effect.get("k") not in ITEM_EFFECTS:
            problems.append(f"{item['id']}: unknown effect {effect.get('k')!r}")
    if item.get("uses", "keep") not in ("keep", "discard", "chapter"):
        problems.append(f"{item['id']}: unknown uses")
    return problems
