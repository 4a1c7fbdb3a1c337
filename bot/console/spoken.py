"""What the terminal says, as the terminal says it: in the reader's language, and the
commands the service's messages name spelled as they are typed here (`start GAME`, never
`/escape start GAME`)."""

from __future__ import annotations

from typing import Any

import languages
from languages import KEYBOARD, spelled


def say(value: Any, language: str = languages.DEFAULT) -> str:
    with spelled(KEYBOARD):
        return languages.say(value, language)
