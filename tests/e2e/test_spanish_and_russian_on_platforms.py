"""Issue 37 through both platform stand-ins: one whole game of each of the five games by two
Russian members on Telegram (their `language_code`) and by two Spanish members in a Spanish
Discord server (Discord's `es-ES` member and server locale), typed as the players type them.
Every text the bot sent (messages, captions, buttons, menus, alt text, private messages, and
Telegram's command menu for that language) is read for English left: words only the English
catalogue says, less the players' names and the move syntax they type in every language."""

from __future__ import annotations

import random
import re

import pytest

from engines import REGISTRY
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN, BOB
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import GROUP
from tests.e2e.test_german_on_platforms import (
    GAMES,
    MOVES,
    _ended,
    _live_discord,
    _moved,
    _running,
    _seated,
    _until,
    afterwards,
    allowed,
    ask_in_turn,
    next_move,
    offered,
    texts_in,
)
from tests.english_words import english_left


def assert_no_english(said: list[str], game: str, typed: set[str], language: str) -> None:
    ok = allowed(game, typed)
    left = [(t[:160], words) for t in said if (words := english_left(t, language, ok))]
    assert not left, f"{len(left)} of {len(said)} texts keep English, e.g. {left[:30]}"


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_whole_game_in_russian_on_telegram(tg_bot, game):
    standin, engine = tg_bot.standin, REGISTRY[game]
    users = [standin.ann, standin.bob]
    for user in users:
        user["language_code"] = "ru"  # a Russian Telegram: the group opens in its opener's
    await standin.say(standin.ann, GROUP, f"/escape start {game} {GAMES[game]}".strip())
    await _until(lambda: tg_bot.live(), "the table opened")
    await standin.say(standin.bob, GROUP, "/escape join")
    await _until(lambda: _seated(tg_bot, 2), "Bob joined")
    if (await tg_bot.live()).status == "lobby":
        await standin.say(standin.ann, GROUP, "/escape begin")
        await _until(lambda: _running(tg_bot), "the game began")
    rng, typed = random.Random(5), set()
    row = await tg_bot.live()
    sid, by_seat = row.id, {s.seat: int(s.user_id) for s in row.seats}
    for _ in range(MOVES.get(game, 400)):
        row = await tg_bot.service.store.session(sid)
        if row.status != "active":
            break
        state = engine.load(row.state)
        seat, action = next_move(game, state, rng)
        typed |= offered(game, state)
        user = next(u for u in users if u["id"] == by_seat[seat])
        await standin.say(user, GROUP, f"/escape move {action}")
        await _until(lambda v=row.version: _moved(tg_bot, sid, v), f"{action!r} was played")
    else:  # random players wander (Castle Doors): the game ends by its creator's abort
        await standin.say(standin.ann, GROUP, "/escape abort")
        await _until(lambda: _ended(tg_bot, sid), "the game was aborted")
    await ask_in_turn(standin, standin.ann, afterwards(game))
    said = [
        t
        for c in standin.calls
        if c.result is not None and c.method != "setMyCommands"
        for t in texts_in(c.params)
    ]
    assert sum(bool(re.search("[а-яё]", t)) for t in said) > len(said) / 2, said[-5:]
    menus = [c for c in standin.calls_of("setMyCommands") if c.params.get("language_code") == "ru"]
    assert menus, "a Russian command menu"
    assert_no_english(said + [t for c in menus for t in texts_in(c.params)], game, typed, "ru")


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_whole_game_in_spanish_on_discord(discord_bot, game):
    bot, engine = discord_bot, REGISTRY[game]
    spanish = {"locale": "es-ES", "guild_locale": "es-ES"}  # Spanish members, a Spanish server
    users = {ANN["id"]: ANN, BOB["id"]: BOB}
    await bot.slash(ANN, "start", {"game": game, "options": GAMES[game]}, **spanish)
    await bot.slash(BOB, "join", **spanish)
    row = await _live_discord(bot)
    if row.status == "lobby":
        await bot.slash(ANN, "begin", **spanish)
        row = await _live_discord(bot)
    rng, typed = random.Random(5), set()
    sid, by_seat = row.id, {s.seat: s.user_id for s in row.seats}
    for _ in range(MOVES.get(game, 400)):
        row = await bot.service.store.session(sid)
        if row.status != "active":
            break
        state = engine.load(row.state)
        seat, action = next_move(game, state, rng)
        typed |= offered(game, state)
        await bot.slash(users[by_seat[seat]], "move", {"action": action}, **spanish)
        assert (await bot.service.store.session(sid)).version > row.version, action
    else:  # random players wander (Castle Doors): the game ends by its creator's abort
        await bot.slash(ANN, "abort", **spanish)
        assert (await bot.service.store.session(sid)).status == "aborted"
    for sub, options in (("rules", {"game": game}), ("help", None), ("log", None), ("clock", None)):
        await bot.slash(ANN, sub, options, **spanish)
    said: list[str] = []
    for message in bot.server.messages.values():
        said.append(message.content)
        said += texts_in(message.components) + texts_in(message.attachments)
        said += [t for edit in message.edits for t in texts_in(edit)]
    said = [s for s in said if s]
    assert any("partida" in t.lower() for t in said), said[-5:]
    assert_no_english(said, game, typed, "es")
