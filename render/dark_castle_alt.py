"""Dark Castle's alt text: the chapter, the enemy's row, the party and what is asked now,
in the reader's language (the picture's words, told)."""

from __future__ import annotations

from engines.text import Msg, joined, msg, plural
from languages import DEFAULT, say
from render.dark_castle_words import SPECIAL, STONE, TRAIT
from render.dark_castle_words import die_name as _die_name
from render.dark_castle_words import short_name as _short


def _said_faces(face: str) -> Msg:
    return joined([TRAIT.get(t, SPECIAL)[3] for t in face], " ")


def _companion_faces(char: dict) -> Msg:
    return joined(
        [
            TRAIT.get(f, SPECIAL)[3] if len(f) == 1 else msg("{trait} double", trait=TRAIT[f[0]][3])
            for f in char.get("faces", [])
        ]
    )


def _char_said(view: dict, char: dict) -> Msg:
    """One prisoner in the alt text: HP, items, curses, plague, flaw, knapsack, companion,
    the last roll."""
    items = joined([i["name"] for i in char["items"]]) if char["items"] else msg("no items")
    extra: list = []
    if char.get("curses"):
        extra.append(msg("; cursed: {curses}", curses=joined([c["name"] for c in char["curses"]])))
    if char.get("cult_die"):
        extra.append(msg("; rolls the cult die"))
    if char.get("plague"):
        extra.append(msg("; plague {n}", n=char["plague"]))
    if char.get("flaw"):
        if char["flaw"]["used"]:
            extra.append(msg("; flaw {flaw} (used)", flaw=char["flaw"]["name"]))
        else:
            extra.append(msg("; flaw {flaw}", flaw=char["flaw"]["name"]))
    if char.get("stored"):
        extra.append(
            msg("; in the knapsack: {items}", items=joined([i["name"] for i in char["stored"]]))
        )
    comp = char.get("companion")
    if comp:
        extra.append(
            msg(
                "; a companion, die: {faces}; {trait} Special: {special}",
                faces=_companion_faces(char),
                trait=comp["trait"],
                special=comp["special"],
            )
        )
    if char["roll"]:
        extra.append(msg("; last roll {faces}", faces=_said_faces(char["roll"])))
    top = char.get("hp_max") or view["hp_start"]
    return msg(
        "{character} ({player}): {hp} of {top} HP, {items}{more}.",
        character=char["title"] or msg("An unchosen prisoner"),
        player=char["player"],
        hp=char["hp"],
        top=top,
        items=items,
        more=joined(extra, ""),
    )


def describe(view: dict, language: str = DEFAULT) -> str:
    """Alt text: the chapter, the enemy's row, the party and what is asked now."""
    parts: list = []
    if view.get("castle"):
        parts.append(msg("Dark Castle: {castle}.", castle=view["castle"]))
    else:
        parts.append(msg("Dark Castle."))
    card = view.get("card")
    turned, left = view["chapters_turned"], view["chapters_left"]
    parts.append(
        msg(
            "{turned} turned, {left} left before the boss.",
            turned=plural("{count} chapter", "{count} chapters", turned),
            left=plural("{count} chapter", "{count} chapters", left),
        )
    )
    if card:
        parts.append(msg("{title}: {text}", title=card["title"], text=card["text"]))
    if view.get("ending"):
        parts.append(view["ending"])
        if view.get("epilogue"):
            parts.append(msg("Epilogue: {text}", text=view["epilogue"]))
    elif view.get("asking"):
        parts.append(msg("Now: {test}.", test=view["asking"]))
    elif card and card.get("asks") and not view.get("options") and not view.get("combat"):
        parts.append(msg("This chapter asks: {asks}", asks=joined(card["asks"], " ")))
    cb = view.get("combat")
    if cb and not view.get("ending"):  # the picture shows the ending where the enemy stood
        row = joined([_die_name(t) for t in cb["row"]]) if cb["row"] else msg("empty")
        said = dict(enemy=cb["name"], round=cb["round"], attack=cb["attack"], row=row)
        if cb.get("boss"):
            parts.append(
                msg(
                    "Combat with {enemy}, round {round}, attack {attack}; row: {row}. Boss phase {phase} of {phases}.",
                    phase=cb["phase"],
                    phases=cb["phases"],
                    **said,
                )
            )
        else:
            parts.append(
                msg("Combat with {enemy}, round {round}, attack {attack}; row: {row}.", **said)
            )
        parts += [msg("Special: {special}", special=s) for s in cb["specials"]]
        if cb.get("stone"):
            parts.append(msg("The Living Stone last showed: {face}.", face=STONE[cb["stone"]]))
    for opt in view.get("options", []):
        said = dict(n=opt["n"], option=opt["label"], cost=opt.get("cost", ""))
        if opt["open"]:
            parts.append(msg("Option {n}: {option}: {cost}.", **said))
        else:
            parts.append(msg("Option {n}: {option} (locked): {cost}.", **said))
    for char in view["chars"]:
        parts.append(_char_said(view, char))
    relics = view.get("relics") or {}
    ritual = relics.get("ritual")
    if ritual:
        gifts = [
            msg("{character} {n} HP", character=_short(view, who), n=n)
            for who, n in ritual["gifts"].items()
        ]
        parts.append(
            msg(
                "Blood ritual for the {character}: pledged {gifts}.",
                character=_short(view, ritual["to"]),
                gifts=joined(gifts) if gifts else msg("nothing yet"),
            )
        )
    cast = relics.get("casting") or {}
    if cast.get("spells"):
        parts.append(
            msg(
                "The {character} may cast instead of rolling: {spells}.",
                character=_short(view, cast["by"]),
                spells=joined(cast["spells"], "; "),
            )
        )
    if view.get("pool"):
        parts.append(msg("On the table: {items}.", items=joined([i["name"] for i in view["pool"]])))
    if view.get("prompt"):
        parts.append(view["prompt"])
    if view.get("flaws"):  # while choosing: which flaw comes with which prisoner
        dealt = [
            msg(
                "{character}: {flaw} ({text})",
                character=f.get("character") or Msg(who.title()),
                flaw=f["name"],
                text=f["text"],
            )
            for who, f in view["flaws"].items()
        ]
        parts.append(msg("Flaws dealt onto the prisoners: {flaws}.", flaws=joined(dealt, "; ")))
    said = [say(part, language) for part in parts]
    return " ".join(text for text in said if text).replace(".)", ")").replace("..", ".")


# ----- the rules picture ---------------------------------------------------------------
