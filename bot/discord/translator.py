"""`/escape` in each Discord user's language: descriptions, option names and choices are
given to Discord at `sync` in every language we have (discord.py's `Translator`), so the
menu reads German in a German client with nothing to choose.

Command names stay English in every language: every message, the help, Telegram's menu
and the terminal say `/escape start`, so a German name in Discord's menu alone would
contradict all of them.
"""

from __future__ import annotations

import re

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.service import ARG_NAMES, COMMANDS
from languages import DEFAULT, Msg, resolve, say

OPTION_NAMES = ARG_NAMES  # Discord's `thread` too
# the commands' and their options' descriptions as messages, by the English Discord is given
# (a description that names a command has it as a value, not in its catalogue's text)
DESCRIPTIONS: dict[str, Msg] = {
    str(text)[:100]: text
    for c in COMMANDS
    for text in (c.help, *(arg.help for arg in c.args))
    if isinstance(text, Msg)
}
_NOT_IN_A_NAME = re.compile(r"[^\w-]+")


def language_of(locale: Locale) -> str:
    """Ours for a Discord locale ("de", "en-GB", "pt-BR"); empty when we have none."""
    return resolve(str(locale.value), "")


def translated(english: str, location: Where, language: str) -> str | None:
    """A name or description of `/escape` in `language`, or None where it stays English
    (command and group names; text with a placeholder; a word not in the catalogue)."""
    if not language or language == DEFAULT:
        return None
    if location in (Where.command_name, Where.group_name):
        return None
    if location is Where.parameter_name:
        name = OPTION_NAMES.get(english)
        if name is None:
            return None
        said = _NOT_IN_A_NAME.sub("_", say(name, language).strip().lower())[:32]
    else:  # a description or a choice's name: a message of the catalogue
        if "{" in english:
            return None
        said = say(DESCRIPTIONS.get(english) or Msg(english), language)[:100]
    return said if said and said != english else None


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        return translated(string.message, context.location, language_of(locale))
