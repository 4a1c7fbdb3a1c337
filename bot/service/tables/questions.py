"""`/escape describe [what]`: one question about the table, answered in words, for a player
who cannot see the picture (a screen reader, a text-only client): a place (`c3`, `16`),
a player (`Ann`), what is next to me (`near`), my own view (`hand`, to me alone). With no
question, the whole board in words.

A public question is answered from the description of the public view (the picture's alt
text, in the table's language): the sentences of it, and the items of a sentence, that
name the place or player asked about, under the sentence's head ("Ann (round): red c3").
`near` asks the same of the places next to the asker's pieces (`render.places`). `hand`
is the asker's own view in words, to them alone. Only views are read, never the state, so
no answer can tell another seat's secret."""

from __future__ import annotations

import re

from bot.service.base.delivery_plan import Plan, Reply
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.tables.board_plans import described, table_language
from bot.service.tables.table import Table, not_a_player
from engines.text import Text, in_context, joined, msg
from languages import say
from render import places

HAND = in_context("describe question", "hand")
NEAR = in_context("describe question", "near")
HEAD = 60  # a sentence's head ("Ann (round)", "Row 3") is at most this long
SENTENCE = re.compile(r"(?<=[.!?])\s+")
PART = re.compile(r";\s+")
ITEM = re.compile(r",\s+")


class Questions:
    def __init__(self, table: Table) -> None:
        self.table = table

    async def describe(self, chat: ChatRef, user: UserRef, what: str | None) -> Plan:
        row = await self.table.active(chat)
        loaded = self.table.load(row)
        game, state = loaded.game, loaded.state
        language = table_language(row)
        seat = loaded.seat_of(user)
        public = game.view(state, None)
        words = described(game.id, public, game.title, language)
        asked = " ".join((what or "").split())[:80]
        if not asked:
            return _answer(user, words)
        if _is(asked, HAND, language):
            if seat is None:
                raise UserError(not_a_player(row))
            own = described(game.id, game.view(state, seat), game.title, language)
            reply = Reply(own, kind="private", to=user, session_id=row.id, version=row.version)
            return Plan([reply], asker=user, quiet=True)
        if _is(asked, NEAR, language):
            if seat is None:
                raise UserError(not_a_player(row))
            terms = [say(t, language) for t in places.near(game.id, public, seat)]
            found = matching(words, terms)
            if not found:
                return _answer(user, msg("Nothing is next to your pieces."))
            return _answer(user, joined([msg("Next to your pieces:"), *found], "\n"))
        names = {s.name.lower(): s.name for s in row.seats}
        term = names.get(asked.lower()) or _place(asked, places.places(game.id, public))
        found = matching(words, [term])
        if found:
            return _answer(user, "\n".join(found))
        if term.lower() in places.places(game.id, public):
            return _answer(user, msg("{place}: nothing is there.", place=term))
        return _answer(
            user,
            msg(
                "Nothing on this board is called {what}. Ask about a place, a player by name, {near} or {hand}; or nothing, for the whole board.",
                what=asked,
                near=NEAR,
                hand=HAND,
            ),
        )


def matching(description: str, terms: list[str]) -> list[str]:
    """The sentences of a description that name one of `terms`: a sentence whose head
    names it whole, else the items of it that do, under its head."""
    found: list[str] = []
    for sentence in SENTENCE.split(description.strip()):
        head, colon, body = sentence.partition(": ")
        if not colon or len(head) > HEAD:
            head, body = "", sentence
        if head and any(_names(head, t) for t in terms):
            found.append(sentence)
            continue
        items = [item for part in PART.split(body) for item in ITEM.split(part)]
        hits = [item.rstrip(".") for item in items if any(_names(item, t) for t in terms)]
        if hits:
            found.append(f"{head}: {', '.join(hits)}." if head else f"{', '.join(hits)}.")
    return found


def _names(text: str, term: str) -> bool:
    """`text` names `term` as a whole word (c3, not c30; 16, not +16)."""
    return bool(term) and re.search(rf"(?<![\w+]){re.escape(term)}(?!\w)", text, re.I) is not None


def _place(asked: str, known: set[str]) -> str:
    """The place named by a question: itself, or its last word where that is a place of
    this board (`space 16`, `guest a`, `feld 16`)."""
    words = asked.split()
    if asked.lower() not in known and words[-1].lower() in known:
        return words[-1]
    return asked


def _is(asked: str, word: Text, language: str) -> bool:
    typed = asked.strip().lower()
    return typed in {say(word, language).lower(), str(word).lower()}


def _answer(user: UserRef, text: Text) -> Plan:
    return Plan([Reply(text, kind="info")], asker=user, quiet=True)
