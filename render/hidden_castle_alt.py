"""Hidden Castle's words: the caption under the board and the alt text (the whole position
told: the clock or the round, the Phantom, each player's guests), in the reader's language."""

from __future__ import annotations

from engines.text import Msg, in_context, joined, msg
from languages import DEFAULT, say
from render import captions, palette

COLOUR_NAMES = (
    in_context("token", "vermilion"),
    in_context("token", "blue"),
    in_context("token", "green"),
    in_context("token", "orange"),
    in_context("token", "pink"),
    in_context("token", "sky blue"),
    in_context("token", "yellow"),
    in_context("token", "brown"),
)
SHAPE_NAMES = {  # a player's pieces, in the plural
    "circle": in_context("tokens", "circles"),
    "square": in_context("tokens", "squares"),
    "triangle": in_context("tokens", "triangles"),
    "diamond": in_context("tokens", "diamonds"),
    "hexagon": in_context("tokens", "hexagons"),
    "star": in_context("tokens", "stars"),
    "pentagon": in_context("tokens", "pentagons"),
    "cross": in_context("tokens", "crosses"),
}


def status(view: dict) -> Msg:
    """What the table waits for now (or who escaped): the caption's last line."""
    names = view["names"]
    if view["phase"] == "over":
        winners = [names[p] for p in view["winners"] or []]
        if len(winners) == 1:
            return msg("Game over: {name} escapes.", name=winners[0])
        return msg(
            "Game over: {names} and {last} escape.",
            names=joined(winners[:-1]),
            last=winners[-1] if winners else "",
        )
    if view["phase"] == "place":
        seat = view["to_act"][0]
        return msg(
            "Set-up: {name} places guest {letter}.",
            name=names[seat],
            letter=view["next_place"].upper(),
        )
    who = names[view["turn"]]
    if view["phase"] == "roll":
        return msg("{name} rolls next.", name=who)
    return msg("{name} rolled {roll}: move a guest.", name=who, roll=view["roll"])


def caption_lines(view: dict, language: str = DEFAULT) -> list[str]:
    """What just happened, then what comes next. While a roll waits for its move, the roll is
    in the status line, so the caption shows the move before it instead. At the end the
    engine's "X escapes with N points" says it all, without "Game over: X escapes." after."""
    last = view.get("last_move") if view["phase"] == "move" else view.get("last")
    over = view["phase"] == "over"
    winners = [view["names"][p] for p in view.get("winners") or []]
    return captions.footer(last, status(view), over, *winners, "escape", language=language)


def _where(view: dict, g: dict) -> Msg:
    if g["where"] == "gallery":
        return msg("space {n}", n=g["pos"])
    if g["where"] == "chamber":
        return msg("chamber {n}", n=g["pos"])
    if g["where"] == "stairs":
        return msg("step {value}", value=f"{view['steps'][g['pos']]:+d}")
    return msg("not placed")


def describe(view: dict, language: str = DEFAULT) -> str:
    """Alt text: the whole position in words."""
    names = view["names"]
    midnight = view["variant"] == "midnight_party"
    head = msg("Midnight Party") if midnight else msg("Escape from the Hidden Castle")
    parts: list = [say(head, language) + "."]
    if midnight:
        parts.append(msg("Round {round} of {rounds}.", round=view["round"], rounds=view["rounds"]))
    else:
        parts.append(
            msg(
                "Clock {time}, the Phantom moves {count} spaces.",
                time=view["clocks"][view["clock"]],
                count=view["speed"],
            )
        )
    ph = view["phantom"]
    if ph["space"]:
        parts.append(msg("The Phantom is on Gallery space {n}.", n=ph["space"]))
    else:
        parts.append(
            msg(
                "The Phantom is on the staircase, {count} spaces from the exit.",
                count=view["climb"] - ph["climbed"],
            )
        )
    for seat, name in enumerate(names):
        places = [
            msg("{letter} {where}", letter=g["label"].upper(), where=_where(view, g))
            for g in view["guests"]
            if g["owner"] == seat
        ]
        shape = msg(
            "{colour} {shapes}",
            colour=COLOUR_NAMES[seat % 8],
            shapes=SHAPE_NAMES[palette.PLAYER_SHAPES[seat % 8]],
        )
        parts.append(
            msg(
                "{name} ({shape}, {points} points): {places}.",
                name=name,
                shape=shape,
                points=view["scores"][seat],
                places=joined(places),
            )
        )
    parts += [msg("Last: {last}", last=line) for line in caption_lines(view, language)[:-1]]
    parts.append(status(view))
    return " ".join(say(part, language) for part in parts)
