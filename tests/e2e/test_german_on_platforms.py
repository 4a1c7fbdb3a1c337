"""Issue 26 through both platform stand-ins: one whole game of each of the five games by two
German members (Telegram's `language_code`, Discord's member and server locale), typed as
the players type them. Every text the bot sent (messages, captions, buttons, menus, alt
text, private messages) is read for English left: words only the English catalogue says,
less the players' names and the move syntax they type in every language."""

from __future__ import annotations

import contextlib
import json
import random
import re

import pytest

from bot.service import COMMANDS
from engines import REGISTRY
from tests.dark_castle_party import party_choice
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN, BOB
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import GROUP
from tests.german_words import english_left
from tests.polling import until

GAMES = {
    "ghosts18": "variant=short",
    "haunted_house": "specials=off",
    "hidden_castle": "",
    "castle_doors": "",
    "dark_castle": "",
}
# Moves at most before the game's creator aborts it. The other games end well within 400;
# Castle Doors' random players wander and seldom finish, so it stops sooner: every kind of
# its text is checked, in every language, over whole random games without a platform
# (tests/engines/test_four_games_said.py)
MOVES = {"castle_doors": 150}
TEXT_KEYS = {"text", "caption", "content", "label", "description", "placeholder", "title"}
TAG = re.compile(r"<[^>]+>")


def texts_in(value) -> list[str]:
    """Every text a member could read in an API call or message payload."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in TEXT_KEYS and isinstance(inner, str):
                found.append(TAG.sub(" ", inner))
            else:
                found += texts_in(inner)
    elif isinstance(value, list):
        for inner in value:
            found += texts_in(inner)
    elif isinstance(value, str) and value[:1] in "[{":
        with contextlib.suppress(ValueError):
            found += texts_in(json.loads(value))
    return found


def offered(game: str, state) -> set[str]:
    """Every move the acting players are offered now, as typed (a board lists them)."""
    engine = REGISTRY[game]
    return {
        a for seat in engine.to_act(state) if seat >= 0 for a in engine.legal_actions(state, seat)
    }


def next_move(game: str, state, rng: random.Random) -> tuple[int, str]:
    engine = REGISTRY[game]
    if game == "dark_castle":  # a party that plays its castle to the end
        return party_choice(state, ["smith", "tailor"])
    seat = engine.to_act(state)[0]
    return seat, rng.choice(engine.legal_actions(state, seat))


def allowed(game: str, typed: set[str]) -> set[str]:
    options = REGISTRY[game].options
    syntax = {w.lower() for a in typed for w in re.findall(r"[A-Za-z]{3,}", a)}
    commands = {c.name for c in COMMANDS}  # typed as they are in every language
    return (
        {"ann", "bob", "escape", game}
        | commands
        | syntax
        | {w for n, o in options.items() for w in (n, *o.choices)}
    )


def assert_german(said: list[str], game: str, typed: set[str]) -> None:
    ok = allowed(game, typed)
    left = [(t[:160], words) for t in said if (words := english_left(t, ok))]
    assert not left, f"{len(left)} of {len(said)} texts keep English, e.g. {left[:60]}"


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_whole_game_in_german_on_telegram(tg_bot, game):
    standin, engine = tg_bot.standin, REGISTRY[game]
    users = [standin.ann, standin.bob]
    for user in users:
        user["language_code"] = "de"  # a German Telegram: the group opens in its opener's
    await standin.say(standin.ann, GROUP, f"/escape start {game} {GAMES[game]}".strip())
    await _until(lambda: tg_bot.live(), "the table opened")
    await standin.say(standin.bob, GROUP, "/escape join")
    await _until(lambda: _seated(tg_bot, 2), "Bob joined")
    if (await tg_bot.live()).status == "lobby":
        await standin.say(standin.ann, GROUP, "/escape begin")
        await _until(lambda: _running(tg_bot), "the game began")
    rng, typed = random.Random(3), set()
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
    menus = [c for c in standin.calls_of("setMyCommands") if c.params.get("language_code") == "de"]
    assert menus, "a German command menu"
    assert_german(said + [t for c in menus for t in texts_in(c.params)], game, typed)


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_whole_game_in_german_on_discord(discord_bot, game):
    bot, engine = discord_bot, REGISTRY[game]
    german = {"locale": "de", "guild_locale": "de"}  # German members in a German server
    users = {ANN["id"]: ANN, BOB["id"]: BOB}
    await bot.slash(ANN, "start", {"game": game, "options": GAMES[game]}, **german)
    await bot.slash(BOB, "join", **german)
    row = await _live_discord(bot)
    if row.status == "lobby":
        await bot.slash(ANN, "begin", **german)
        row = await _live_discord(bot)
    rng, typed = random.Random(3), set()
    sid, by_seat = row.id, {s.seat: s.user_id for s in row.seats}
    for _ in range(MOVES.get(game, 400)):
        row = await bot.service.store.session(sid)
        if row.status != "active":
            break
        state = engine.load(row.state)
        seat, action = next_move(game, state, rng)
        typed |= offered(game, state)
        await bot.slash(users[by_seat[seat]], "move", {"action": action}, **german)
        assert (await bot.service.store.session(sid)).version > row.version, action
    else:  # random players wander (Castle Doors): the game ends by its creator's abort
        await bot.slash(ANN, "abort", **german)
        assert (await bot.service.store.session(sid)).status == "aborted"
    for sub, options in (("rules", {"game": game}), ("help", None), ("log", None), ("clock", None)):
        await bot.slash(ANN, sub, options, **german)
    said: list[str] = []
    for message in bot.server.messages.values():
        said.append(message.content)
        said += texts_in(message.components) + texts_in(message.attachments)
        said += [t for edit in message.edits for t in texts_in(edit)]
    assert_german([s for s in said if s], game, typed)


def afterwards(game: str) -> list[str]:
    """What the tests ask once a game is over."""
    return [f"/escape rules {game}", "/escape help", "/escape log", "/escape clock"]


async def ask_in_turn(standin, user: dict, commands: list[str]) -> None:
    """Each command typed in the group once the answer to the one before is there."""
    for command in commands:
        mark = len(standin.calls)
        await standin.say(user, GROUP, command)
        await standin.wait_for(
            lambda c: c.result is not None and c.params.get("chat_id") == GROUP, after=mark
        )


async def _until(check, what: str, timeout: float = 10.0):
    await until(check, timeout, what=what)


async def _seated(tg_bot, n: int) -> bool:
    row = await tg_bot.live()
    return row is not None and len(row.seats) >= n


async def _running(tg_bot) -> bool:
    row = await tg_bot.live()
    return row is not None and row.status != "lobby"


async def _ended(tg_bot, sid: int) -> bool:
    return (await tg_bot.service.store.session(sid)).status != "active"


async def _moved(tg_bot, sid: int, version: int) -> bool:
    return (await tg_bot.service.store.session(sid)).version > version


async def _live_discord(bot):
    from bot.service import ChatRef
    from tests.e2e.discord_fixtures import CHANNEL, GUILD_ID

    return await bot.service.live(ChatRef("discord", str(CHANNEL), "", str(GUILD_ID)))
