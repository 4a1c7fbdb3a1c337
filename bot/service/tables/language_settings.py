"""Who reads which language, decided here: a table's, a chat's and a person's own.

What the table sees speaks the table's language, fixed when it opens: the chat's setting
(`/escape language de`), else what the platform says the place prefers (a Discord server's
preferred locale; in a Telegram group, the language of the player who opened it), else
English. What one person alone reads follows their own setting (`/escape language de me`,
or the command in their private chat with the bot), else their app's language.
"""

from __future__ import annotations

from bot.service.base.delivery_plan import Plan, Reply
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.tables.board_plans import table_language
from bot.service.tables.table import Table, not_a_player
from engines.text import command
from languages import DEFAULT, LanguageName, available, joined, msg, resolve

ME = ("me", "mine", "my", "own", "ich", "mich", "mir")  # the asker's own setting
AUTO = ("auto", "off", "default", "reset")  # back to the app's language (one's own only)


def private_chat(chat: ChatRef, user: UserRef) -> bool:
    """A one-to-one chat with the bot (Telegram's private chats are numbered by the user)."""
    return chat.chat == user.id or chat.thread == "private"


class LanguageSettings:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.store = table.store

    async def opening(self, chat: ChatRef, user: UserRef) -> str:
        """The language a new table speaks."""
        chosen = await self.store.chat_language(chat.platform, chat.chat, chat.thread)
        if chosen in available():
            return chosen
        return resolve(chat.language or (user.language if chat.platform == "telegram" else ""))

    async def command(
        self, chat: ChatRef, user: UserRef, code: str | None, who: str | None
    ) -> Plan:
        """`/escape language [CODE] [me]`: show the settings, or set one."""
        mine = (who or "").lower() in ME or private_chat(chat, user)
        if not code:
            return Plan(
                [Reply(await self._status(chat, user), kind="info")], asker=user, quiet=True
            )
        if (code or "").lower() in ME:  # `/escape language me de` said the other way round
            code, mine = who, True
        if mine and (code or "").lower() in AUTO:
            await self._set_own(user, "")
            said = msg("You read your app's language again.")
            return Plan([Reply(said, kind="info")], asker=user, quiet=True)
        language = resolve(code, "")
        if not language:
            raise UserError(
                msg(
                    "There is no language {code} here. Languages: {list}.",
                    code=repr((code or "")[:16]),
                    list=self._list(),
                )
            )
        if mine:
            await self._set_own(user, language)
            said = msg(
                "You read {language} now, wherever only you read it.",
                language=LanguageName(language),
            )
            return Plan([Reply(said, kind="info")], asker=user, quiet=True)
        return await self._set_table(chat, user, language)

    async def _set_table(self, chat: ChatRef, user: UserRef, language: str) -> Plan:
        row = await self.table.live_row(chat)
        if row is not None and row.seats and all(s.user_id != user.id for s in row.seats):
            raise UserError(not_a_player(row))
        await self.store.set_chat_language(chat.platform, chat.chat, chat.thread, language)
        if row is not None:
            await self.store.set_table_language(row.id, language)
        said = msg(
            "This channel speaks {language} now: the table's boards and messages from the next one on.",
            language=LanguageName(language),
        )
        return Plan([Reply(said, kind="info")], asker=user, language=language)

    async def _set_own(self, user: UserRef, language: str) -> None:
        await self.table.note_player(user)
        known = await self.store.user(user.platform, user.id)
        prefs = dict(known["prefs"]) if known else {}
        if language:
            prefs["language"] = language
        else:
            prefs.pop("language", None)
        await self.store.set_prefs(user.platform, user.id, prefs)

    async def _status(self, chat: ChatRef, user: UserRef) -> object:
        lines = []
        row = await self.table.live_row(chat)
        if row is not None:
            lines.append(
                msg("This table speaks {language}.", language=LanguageName(table_language(row)))
            )
        chosen = await self.store.chat_language(chat.platform, chat.chat, chat.thread)
        if chosen:
            lines.append(msg("New tables here speak {language}.", language=LanguageName(chosen)))
        else:
            lines.append(
                msg(
                    "New tables here speak the language the platform gives: {language}.",
                    language=LanguageName(resolve(chat.language or DEFAULT)),
                )
            )
        known = await self.store.user(user.platform, user.id)
        own = ((known or {}).get("prefs") or {}).get("language")
        if own:
            lines.append(
                msg(
                    "You read {language} where only you read it (your setting).",
                    language=LanguageName(own),
                )
            )
        else:
            lines.append(
                msg(
                    "You read {language} where only you read it (your app's language).",
                    language=LanguageName(resolve(user.language)),
                )
            )
        lines.append(msg("Languages: {list}.", list=self._list()))
        lines.append(
            msg(
                "{language_de} sets this channel's; {language_de2} sets your own; {language_auto} goes back to your app's.",
                language_de=command("language", "de"),
                language_de2=command("language", "de", "me"),
                language_auto=command("language", "auto", "me"),
            )
        )
        return joined(lines, "\n")

    @staticmethod
    def _list() -> object:
        return joined([LanguageName(code) for code in available()], ", ")
