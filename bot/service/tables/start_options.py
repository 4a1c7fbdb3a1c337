"""What a table's start options say: `name=value` words read, the service's own options
(the clock's, the hints setting) taken apart from the game's."""

from __future__ import annotations

from collections.abc import Mapping

from bot.service.base import deadlines
from bot.service.base.requests import UserError
from engines.text import msg

HINTS = "hints"
HINT_SETTINGS = ("on", "off")


def split_options(options: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """(game options, clock options): pace, turn and timeout belong to the service."""
    game = {k: v for k, v in options.items() if k not in deadlines.SERVICE_OPTIONS}
    clock = {k: v for k, v in options.items() if k in deadlines.SERVICE_OPTIONS}
    return game, clock


def parse_options(text: str | Mapping[str, str] | None) -> dict[str, str]:
    """`variant=short specials=off` (or a mapping) into a dict; the game checks the values."""
    if text is None:
        return {}
    if isinstance(text, Mapping):
        return {str(k).strip().lower(): str(v).strip().lower() for k, v in text.items()}
    options: dict[str, str] = {}
    for word in text.replace(",", " ").split():
        name, sep, value = word.partition("=")
        if not sep or not name or not value:
            raise UserError(
                msg(
                    "Options are written name=value (like variant=short), not {word}.",
                    word=repr(word),
                )
            )
        options[name.lower()] = value.lower()
    return options


def hint_setting(options: dict[str, str]) -> tuple[dict[str, str], str]:
    """Take `hints=on|off` out of the start options: (the rest, the setting)."""
    rest = {k: v for k, v in options.items() if k != HINTS}
    value = options.get(HINTS, "on")
    if value not in HINT_SETTINGS:
        raise UserError(
            msg(
                "Option {name} cannot be {value}; choose one of: {choices}.",
                name=HINTS,
                value=repr(value),
                choices=", ".join(HINT_SETTINGS),
            )
        )
    return rest, value
