"""What a chapter asks, in plain words: the trait, the attempts, a double or not, who rolls,
and what failing costs. The card picture, the scene line, the prompts and the choice
buttons all say it from here, so a group never sends someone in blind."""

from __future__ import annotations

from engines.dark_castle import cards as C

WHO = {
    "you": "YOU",
    "each": "each prisoner",
    "chosen": "one prisoner you send",
    "all": "everyone",
    "others": "everyone but YOU",
    "it": "that prisoner",
    "weakest": "the weakest prisoner",
    "strongest": "the strongest prisoner",
    "party": "the party",
}


def _who(step: dict, default: str = "you") -> str:
    return WHO.get(step.get("who", default), step.get("who", default))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def traits(trait: str, double: bool = False) -> str:
    """`mc` -> "Might or Cunning"; with a double: "a Might or Cunning double"."""
    names = " or ".join(C.TRAIT_NAMES[t] for t in trait)
    return f"a {names} double" if double else names


def attempts(n: int) -> str:
    if n == 0:
        return "until it succeeds"
    return "in one attempt" if n == 1 else f"in {n} attempts"


def _verb(who: str, singular: str, plural: str) -> str:
    return plural if who == "YOU" else singular


def effects(steps: list, players: int = 0) -> str:
    """A short account of what a list of steps does ("YOU lose 2 HP; draw 1 item")."""
    parts = [p for p in (step_effect(step, players) for step in steps) if p]
    return "; ".join(parts) or "nothing"


def step_effect(step: dict, players: int = 0) -> str:
    kind = step["do"]
    who = _who(step)
    if kind == "damage":
        return f"{who} {_verb(who, 'loses', 'lose')} {step['n']} HP"
    if kind == "heal":
        return f"{who} {_verb(who, 'gains', 'gain')} {step['n']} HP"
    if kind == "draw":
        n = step["n"]
        return "draw 1 item per player" if n == "per_player" else f"draw {_plural(n, 'item')}"
    if kind == "lose_item":
        if step.get("what") == "all":
            return f"{who} {_verb(who, 'loses', 'lose')} every item"
        return f"{who} {_verb(who, 'discards', 'discard')} an item"
    if kind == "test":
        return test_text(step, players)
    if kind == "group_test":
        return group_test_text(step, players)
    if kind == "combat":
        return combat_text(step, players)
    if kind == "choose":
        return "a choice: " + " / ".join(o["label"] for o in step["options"])
    if kind == "gamble":
        return "a chapter die decides"
    if kind == "plague":
        if "n" in step:
            return f"{who} {_verb(who, 'gains', 'gain')} {step['n']} plague"
        return f"{who} {_verb(who, 'rolls', 'roll')} for plague"
    if kind == "cure":
        return f"{who} {_verb(who, 'loses', 'lose')} {step.get('n', 1)} plague"
    if kind == "if_item":
        return f"if you carry a {step['needs']}: {effects(step.get('then', []), players)}"
    return ""


def test_text(step: dict, players: int = 0) -> str:
    """ "Each prisoner rolls Cunning in one attempt; failing: that prisoner loses 1 HP"."""
    who = _who(step)
    verb = _verb(who, "rolls", "roll")
    if step.get("who") == "chosen":
        who, verb = "One prisoner you send", "rolls"
    else:
        who = who[0].upper() + who[1:]
    text = f"{who} {verb} for {traits(step['trait'], step.get('double', False))}"
    text += f" {attempts(step.get('attempts', 1))}"
    if step.get("fail_each"):
        text += f"; each failure: {effects(step['fail_each'], players)}"
    if step.get("fail"):
        text += f"; failing: {effects(step['fail'], players)}"
    if step.get("pass"):
        text += f"; success: {effects(step['pass'], players)}"
    if not step.get("fail") and not step.get("fail_each"):
        text += "; failing costs nothing"
    return text


def need(step: dict, players: int) -> int:
    from math import ceil

    return ceil(step["need"] * (players if step.get("per_player") else 1))


def group_test_text(step: dict, players: int = 0) -> str:
    total = need(step, players) if players else step["need"]
    text = f"Everyone rolls once together: {total} {C.TRAIT_NAMES[step['trait']]} in all"
    if step.get("fail"):
        text += f"; falling short: {effects(step['fail'], players)}"
    if step.get("pass"):
        text += f"; success: {effects(step['pass'], players)}"
    return text


def combat_text(step: dict, players: int = 0) -> str:
    row = [C.TRAIT_NAMES[t] for t in step.get("dice", "")]
    extra = step.get("per_player", 0)
    if extra:
        row.append(f"{extra} rolled die per player" if extra == 1 else f"{extra} dice per player")
        if step.get("death"):
            row[-1] += " (death dice with the Collector's Box)"
        if step.get("prisoners_only"):  # Pack 2: companions are not counted here
            row[-1] += " (companions not counted)"
    tags = [t for t in ("cultist", "carrier") if step.get(t)]
    tag = f", a {' and '.join(tags)}" if tags else ""
    return f"combat with {step['name']}{tag} ({', '.join(row)}; attack {step['attack']})"


def card_asks(card: dict, players: int = 0) -> list[str]:
    """One line per step of a card that asks something of the party (narration is left out)."""
    lines = []
    for step in card.get("steps", []):
        if step["do"] == "narrate":
            continue
        text = step_effect(step, players)
        if step["do"] == "choose":
            text = "Choose: " + " / ".join(
                f"{o['label']} ({option_cost(o, players)})" for o in step["options"]
            )
        if text:
            lines.append(text[0].upper() + text[1:] + ".")
    return lines


def option_cost(option: dict, players: int = 0) -> str:
    """What a choice's option costs or tests, for its button."""
    parts = []
    if option.get("needs"):
        verb = "uses up" if option.get("spend") else "needs"
        parts.append(f"{verb} a {option['needs']}")
    if option.get("requires") == "you_item":
        parts.append("YOU must carry an item")
    body = effects(option.get("steps", []), players)
    if body != "nothing" or not parts:
        parts.append(body)
    return "; ".join(parts)


def fail_reason(step: dict, face: str) -> str:
    """Why a face failed a test: "Wisdom needed", "a double needed"."""
    if step.get("double") and len(face) < 2 and set(face) & set(step["trait"]):
        return "a double was needed"
    return f"{traits(step['trait'], step.get('double', False))} was needed"


def spell_text(name: str) -> str:
    """A spell of the Spell Book with its requirement and what the spell die can do."""
    spell = C.SPELLS[name]
    return f"{spell['name']} (cast {name}): {spell['text']}"


def companion_text(comp: dict) -> str:
    """A companion as the card says it: HP, die, characteristic, special."""
    faces = ", ".join("special" if f == C.SPECIAL_FACE else f.upper() for f in comp["faces"])
    special = comp["special"]
    return (f"{comp['title']}: {comp['hp']} HP, die {faces}. {comp['trait']} Special, "
            f"{special['name']}: {special['text']}")  # fmt: skip


def attempts_left(n: int) -> str:
    return "1 attempt left" if n == 1 else f"{n} attempts left"


def the(item_id: str) -> str:
    """An item card's name after "the": "the Lantern", "the Living Stone" (never "the The")."""
    name = C.ITEMS[item_id]["name"]
    return f"the {name.removeprefix('The ')}"


def faces(face: str) -> str:
    """A rolled face in words: "Might Might", "the special face", "nothing"."""
    if not face:
        return "nothing"
    if face == C.SPECIAL_FACE:
        return "the special face"
    return " ".join(C.TRAIT_NAMES[t] for t in face)
