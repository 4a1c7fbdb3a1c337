"""What a chapter asks, in plain words: the trait, the attempts, a double or not, who rolls,
and what failing costs. The card picture, the scene line, the prompts and the choice
buttons all say it from here, so a group never sends someone in blind."""

from __future__ import annotations

from engines.dark_castle import cards
from engines.dark_castle.words import card, listed
from engines.text import Msg, in_context, joined, msg, plural

WHO = {
    "you": msg("YOU"),
    "each": msg("each prisoner"),
    "chosen": msg("one prisoner you send"),
    "all": msg("everyone"),
    "others": msg("everyone but YOU"),
    "it": msg("that prisoner"),
    "weakest": msg("the weakest prisoner"),
    "strongest": msg("the strongest prisoner"),
    "party": msg("the party"),
}
# The same, opening a sentence.
WHO_FIRST = {
    "you": msg("YOU"),
    "each": msg("Each prisoner"),
    "chosen": msg("One prisoner you send"),
    "all": msg("Everyone"),
    "others": msg("Everyone but YOU"),
    "it": msg("That prisoner"),
    "weakest": msg("The weakest prisoner"),
    "strongest": msg("The strongest prisoner"),
    "party": msg("The party"),
}
# The item tags a chapter's option may need (content/*.json, "tags" and "needs").
TAGS = {
    "food": in_context("item tag", "food"),
    "holy": in_context("item tag", "holy"),
    "key": in_context("item tag", "key"),
    "light": in_context("item tag", "light"),
    "rope": in_context("item tag", "rope"),
    "relic": in_context("item tag", "relic"),
}


def tag(name: str) -> Msg:
    return TAGS.get(name, Msg(name))


def _who(step: dict, default: str = "you", first: bool = False) -> tuple[bool, Msg]:
    """(is it YOU, who in words)."""
    key = step.get("who", default)
    names = WHO_FIRST if first else WHO
    return key == "you", names.get(key, Msg(key))


def traits(trait: str, double: bool = False) -> Msg:
    """`mc` -> "Might or Cunning"; with a double: "a Might or Cunning double"."""
    names = listed([cards.TRAIT_NAMES[t] for t in trait], "or")
    return msg("a {traits} double", traits=names) if double else names


def attempts(n: int) -> Msg:
    if n == 0:
        return msg("until it succeeds")
    return (
        msg("in one attempt") if n == 1 else plural("in {count} attempt", "in {count} attempts", n)
    )


def effects(steps: list, players: int = 0) -> Msg:
    """A short account of what a list of steps does ("YOU lose 2 HP; draw 1 item")."""
    parts = [p for p in (step_effect(step, players) for step in steps) if p]
    return joined(parts, "; ") if parts else msg("nothing")


def step_effect(step: dict, players: int = 0, first: bool = False) -> Msg:
    """What one step does; `first`: said at the start of a sentence."""
    kind = step["do"]
    you, who = _who(step, first=first)
    n = step.get("n", 1)
    if kind == "damage":
        return msg("YOU lose {n} HP", n=n) if you else msg("{who} loses {n} HP", who=who, n=n)
    if kind == "heal":
        return msg("YOU gain {n} HP", n=n) if you else msg("{who} gains {n} HP", who=who, n=n)
    if kind == "draw":
        if first:
            if n == "per_player":
                return msg("Draw 1 item per player")
            return plural("Draw {count} item", "Draw {count} items", n)
        if n == "per_player":
            return msg("draw 1 item per player")
        return plural("draw {count} item", "draw {count} items", n)
    if kind == "lose_item":
        if step.get("what") == "all":
            return msg("YOU lose every item") if you else msg("{who} loses every item", who=who)
        return msg("YOU discard an item") if you else msg("{who} discards an item", who=who)
    if kind == "test":
        return test_text(step, players)
    if kind == "group_test":
        return group_test_text(step, players)
    if kind == "combat":
        return combat_text(step, players, first)
    if kind == "choose":
        labels = joined([card(o["label"]) for o in step["options"]], " / ")
        return (
            msg("A choice: {options}", options=labels)
            if first
            else msg("a choice: {options}", options=labels)
        )
    if kind == "gamble":
        return msg("A chapter die decides") if first else msg("a chapter die decides")
    if kind == "plague":
        if "n" in step:
            return (
                msg("YOU gain {n} plague", n=n)
                if you
                else msg("{who} gains {n} plague", who=who, n=n)
            )
        return msg("YOU roll for plague") if you else msg("{who} rolls for plague", who=who)
    if kind == "cure":
        return (
            msg("YOU lose {n} plague", n=n) if you else msg("{who} loses {n} plague", who=who, n=n)
        )
    if kind == "if_item":
        then = effects(step.get("then", []), players)
        if first:
            return msg("If you carry a {tag}: {effects}", tag=tag(step["needs"]), effects=then)
        return msg("if you carry a {tag}: {effects}", tag=tag(step["needs"]), effects=then)
    return Msg("")


def test_text(step: dict, players: int = 0) -> Msg:
    """ "Each prisoner rolls Cunning in one attempt; failing: that prisoner loses 1 HP"."""
    you, who = _who(step, first=True)
    asked = traits(step["trait"], step.get("double", False))
    tries = attempts(step.get("attempts", 1))
    if you:
        text = msg("YOU roll for {traits} {attempts}", traits=asked, attempts=tries)
    else:
        text = msg("{who} rolls for {traits} {attempts}", who=who, traits=asked, attempts=tries)
    if step.get("fail_each"):
        text = msg(
            "{test}; each failure: {effects}",
            test=text,
            effects=effects(step["fail_each"], players),
        )
    if step.get("fail"):
        text = msg("{test}; failing: {effects}", test=text, effects=effects(step["fail"], players))
    if step.get("pass"):
        text = msg("{test}; success: {effects}", test=text, effects=effects(step["pass"], players))
    if not step.get("fail") and not step.get("fail_each"):
        text = msg("{test}; failing costs nothing", test=text)
    return text


def need(step: dict, players: int) -> int:
    from math import ceil

    return ceil(step["need"] * (players if step.get("per_player") else 1))


def group_test_text(step: dict, players: int = 0) -> Msg:
    total = need(step, players) if players else step["need"]
    text = msg(
        "Everyone rolls once together: {total} {trait} in all",
        total=total,
        trait=cards.TRAIT_NAMES[step["trait"]],
    )
    if step.get("fail"):
        text = msg(
            "{test}; falling short: {effects}", test=text, effects=effects(step["fail"], players)
        )
    if step.get("pass"):
        text = msg("{test}; success: {effects}", test=text, effects=effects(step["pass"], players))
    return text


ENEMY_TAGS = {"cultist": msg("cultist"), "carrier": msg("carrier")}


def combat_text(step: dict, players: int = 0, first: bool = False) -> Msg:
    row: list = [cards.TRAIT_NAMES[t] for t in step.get("dice", "")]
    extra = step.get("per_player", 0)
    if extra:
        dice = plural("{count} rolled die per player", "{count} dice per player", extra)
        if step.get("death"):
            dice = msg("{dice} (death dice with the Collector's Box)", dice=dice)
        if step.get("prisoners_only"):  # Pack 2: companions are not counted here
            dice = msg("{dice} (companions not counted)", dice=dice)
        row.append(dice)
    tags = [ENEMY_TAGS[t] for t in ("cultist", "carrier") if step.get(t)]
    args = dict(name=card(step["name"]), row=joined(row), attack=step["attack"])
    if tags:
        if first:
            return msg(
                "Combat with {name}, a {tags} ({row}; attack {attack})", tags=listed(tags), **args
            )
        return msg(
            "combat with {name}, a {tags} ({row}; attack {attack})", tags=listed(tags), **args
        )
    if first:
        return msg("Combat with {name} ({row}; attack {attack})", **args)
    return msg("combat with {name} ({row}; attack {attack})", **args)


def sentence(text: Msg) -> Msg:
    """A clause said as a sentence: with its full stop."""
    return Msg("{p0}.", {"p0": text}, context="list")


def card_asks(card_data: dict, players: int = 0) -> list[Msg]:
    """One line per step of a card that asks something of the party (narration is left out)."""
    lines = []
    for step in card_data.get("steps", []):
        if step["do"] == "narrate":
            continue
        text = step_effect(step, players, first=True)
        if step["do"] == "choose":
            text = msg(
                "Choose: {options}",
                options=joined(
                    [
                        msg(
                            "{label} ({cost})", label=card(o["label"]), cost=option_cost(o, players)
                        )
                        for o in step["options"]
                    ],
                    " / ",
                ),
            )
        if text:
            lines.append(sentence(text))
    return lines


def option_cost(option: dict, players: int = 0) -> Msg:
    """What a choice's option costs or tests, for its button."""
    parts = []
    if option.get("needs"):
        needed = tag(option["needs"])
        parts.append(
            msg("uses up a {tag}", tag=needed)
            if option.get("spend")
            else msg("needs a {tag}", tag=needed)
        )
    if option.get("requires") == "you_item":
        parts.append(msg("YOU must carry an item"))
    body = effects(option.get("steps", []), players)
    if body != "nothing" or not parts:
        parts.append(body)
    return joined(parts, "; ")


def fail_reason(step: dict, face: str) -> Msg:
    """Why a face failed a test: "Wisdom needed", "a double needed"."""
    if step.get("double") and len(face) < 2 and set(face) & set(step["trait"]):
        return msg("a double was needed")
    return msg("{traits} was needed", traits=traits(step["trait"], step.get("double", False)))


def spell_text(name: str) -> Msg:
    """A spell of the Spell Book with its requirement and what the spell die can do."""
    spell = cards.SPELLS[name]
    return msg("{spell} (cast {id}): {text}", spell=spell["name"], id=name, text=spell["text"])


def companion_text(comp: dict) -> Msg:
    """A companion as the card says it: HP, die, characteristic, special."""
    faces = joined(
        [
            msg("special") if f == cards.SPECIAL_FACE else cards.face_letters(f)
            for f in comp["faces"]
        ]
    )
    special = comp["special"]
    return msg(
        "{companion}: {hp} HP, die {faces}. {trait} Special, {special}: {text}",
        companion=card(comp["title"]),
        hp=comp["hp"],
        faces=faces,
        trait=card(comp["trait"]),
        special=card(special["name"]),
        text=card(special["text"]),
    )


def attempts_left(n: int) -> Msg:
    return plural("{count} attempt left", "{count} attempts left", n)


def item_name(item_id: str) -> Msg:
    return card(cards.TOOLS[item_id]["name"])


def the(item_id: str) -> Msg:
    """An item card's name after "the": "the Lantern", "the Living Stone" (never "the The")."""
    name = cards.TOOLS[item_id]["name"]
    if name.startswith("The "):
        return msg("the {item}", item=in_context("after 'the'", name.removeprefix("The ")))
    return msg("the {item}", item=card(name))


def faces(face: str) -> Msg:
    """A rolled face in words: "Might Might", "the special face", "nothing"."""
    if not face:
        return msg("nothing")
    if face == cards.SPECIAL_FACE:
        return msg("the special face")
    return joined([cards.TRAIT_NAMES[t] for t in face], " ")


def dice(faces_: str) -> Msg:
    """Dice added to a row, as a list: "Might and Wisdom"."""
    return listed([cards.TRAIT_NAMES[t] for t in faces_])
