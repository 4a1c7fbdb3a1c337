"""Issue 34, item 2: the pseudo-language `qps` over every front end finds no text left
untranslated. A text said in `qps` is accented and bracketed ("[Ànn plàçéš...~~]"), so a
word of our English catalogue that still reads as English (tests/german_words.py: words
only the English says) is a text that escaped translation. Read: the terminal under
LANG=qps from the list of games to the replay, and a game saved in English resumed there;
everything both chat stand-ins carried; the web page's own words and a table's JSON; and
the words drawn on a replay's frames. Allowed: the players' names and what players type in
every language (the commands, the moves' syntax, option names and values, game ids)."""

from __future__ import annotations

import random
import re
from functools import cache

import pytest

from bot.service import COMMANDS, Call, ChatRef, GameService, UserRef
from bot.store import Store
from engines import REGISTRY
from engines.playout import play
from languages import msg, say
from render import animation
from tests.bot.console.test_console import _cli
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN, BOB
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import GROUP
from tests.e2e.test_german_on_platforms import (
    _live_discord,
    _moved,
    _running,
    _seated,
    _until,
    next_move,
    offered,
    texts_in,
)
from tests.german_words import english_left
from tests.render.test_render_fit import _clear_caches, drawn  # noqa: F401

pytestmark = pytest.mark.e2e

QPS = "qps"
PATHS = re.compile(r"\S*/\S*")  # a picture's path names the test's own folder


@cache
def typed_words() -> frozenset[str]:
    """What players type in every language: commands, games, options, and the words of
    every move offered in a seeded game of each (`play key green`)."""
    words = {c.name for c in COMMANDS} | {"ann", "bob", "escape", "bot"}
    for game_id, game in REGISTRY.items():
        words |= set(re.findall(r"[a-z]{3,}", game_id))
        for name, option in game.options.items():
            words |= {name, *option.choices}
        run = play(game, max(2, game.min_players), {}, seed=1, max_steps=300)
        state = game.setup(["A", "B", "C", "D"][: max(2, game.min_players)], {})
        for seat, action in run.log:
            offered_now = [
                a for s in game.to_act(state) if s >= 0 for a in game.legal_actions(state, s)
            ]
            words |= {w.lower() for a in offered_now for w in re.findall(r"[A-Za-z]{3,}", a)}
            state, _ = game.apply(state, seat, action)
    words |= {"moves", "board", "hand", "view", "describe", "quit", "exit", "abort", "done"}
    return frozenset(words)


def untranslated(texts: list[str], typed: set[str] = frozenset()) -> list:
    ok = typed_words() | {w.lower() for a in typed for w in re.findall(r"[A-Za-z]{3,}", a)}
    return [(t[:160], w) for t in texts if (w := english_left(PATHS.sub(" ", t), ok))]


def test_the_terminal_in_qps_from_the_list_of_games_to_the_replay(tmp_path):
    answers = [
        "3",
        "nonsense",
        "short",
        "Ann,Bob",
        "1",
        "moves",
        "board",
        "hand",
        "log",
        "help",
        "rules",
        "history",
        "replay",
        "describe on",
        "2",
        "quit",
    ]
    out = _cli(tmp_path, "run", lines=answers, terminal=True, lang=QPS).stdout
    assert "[" in out and "~]" in out  # it did speak the pseudo-language
    left = untranslated(out.splitlines(), {"place", "move", "jump", "release", "fight"})
    assert not left, left[:12]


def test_a_game_saved_in_english_resumes_in_the_terminals_qps(tmp_path):
    _cli(tmp_path, "play", "castle_doors", "--players", "Ann,Bob", lines=["1", "quit"])
    out = _cli(tmp_path, "play", lines=["1", "board", "hand", "quit"], terminal=True, lang=QPS)
    lines = out.stdout.splitlines()
    assert any("~]" in line for line in lines)
    left = untranslated(lines, {"play", "discard", "key", "target", "enter", "stay"})
    assert not left, left[:12]


async def _game_at_a_qps_table(rounds: int, say_command, move, state_of) -> set[str]:
    """Moves of 18 Ghosts by Ann and Bob; what they were offered, as typed."""
    rng, typed = random.Random(5), set()
    for _ in range(rounds):
        state = await state_of()
        if state is None:
            break
        seat, action = next_move("ghosts18", state, rng)
        typed |= offered("ghosts18", state)
        await move(seat, action)
    for command in ("rules", "help", "log", "clock", "replay", "history", "board"):
        await say_command(command)
    return typed


async def test_telegram_in_qps(tg_bot):
    standin, engine = tg_bot.standin, REGISTRY["ghosts18"]
    users = [standin.ann, standin.bob]
    for user in users:
        user["language_code"] = QPS  # their app's language: what each reads alone
    await standin.say(standin.ann, GROUP, "/escape language qps")
    await standin.say(standin.ann, GROUP, "/escape start ghosts18 variant=short")
    await _until(lambda: tg_bot.live(), "the table opened")
    await standin.say(standin.bob, GROUP, "/escape join")
    await _until(lambda: _seated(tg_bot, 2), "Bob joined")
    if (await tg_bot.live()).status == "lobby":
        await standin.say(standin.ann, GROUP, "/escape begin")
        await _until(lambda: _running(tg_bot), "the game began")
    row = await tg_bot.live()
    sid, by_seat = row.id, {s.seat: int(s.user_id) for s in row.seats}

    async def state_of():
        row = await tg_bot.service.store.session(sid)
        return engine.load(row.state) if row.status == "active" else None

    async def move(seat, action):
        row = await tg_bot.service.store.session(sid)
        user = next(u for u in users if u["id"] == by_seat[seat])
        await standin.say(user, GROUP, f"/escape move {action}")
        await _until(lambda v=row.version: _moved(tg_bot, sid, v), f"{action!r} was played")

    async def command(name):
        await standin.say(standin.ann, GROUP, f"/escape {name}")

    typed = await _game_at_a_qps_table(12, command, move, state_of)
    said = [
        t
        for c in standin.calls
        if c.result is not None and c.method != "setMyCommands"
        for t in texts_in(c.params)
    ]
    assert any("~]" in t for t in said)
    left = untranslated(said, typed)
    assert not left, left[:12]


async def test_discord_in_qps(discord_bot):
    bot, engine = discord_bot, REGISTRY["ghosts18"]
    users = {ANN["id"]: ANN, BOB["id"]: BOB}
    # Discord's menu offers real languages only: the channel and both members are set to
    # qps through the service, as `/escape language qps` does on Telegram
    from tests.e2e.discord_fixtures import CHANNEL, GUILD_ID

    chat = ChatRef("discord", str(CHANNEL), "", str(GUILD_ID))
    for user in (ANN, BOB):
        member = UserRef("discord", str(user["id"]), user["username"])
        await bot.service.language(chat, member, QPS, "me")
    await bot.service.language(chat, UserRef("discord", str(ANN["id"]), "Ann"), QPS)
    await bot.slash(ANN, "start", {"game": "ghosts18", "options": "variant=short"})
    await bot.slash(BOB, "join")
    row = await _live_discord(bot)
    if row.status == "lobby":
        await bot.slash(ANN, "begin")
        row = await _live_discord(bot)
    sid, by_seat = row.id, {s.seat: s.user_id for s in row.seats}

    async def state_of():
        row = await bot.service.store.session(sid)
        return engine.load(row.state) if row.status == "active" else None

    async def move(seat, action):
        await bot.slash(users[by_seat[seat]], "move", {"action": action})

    async def command(name):
        await bot.slash(ANN, name)

    typed = await _game_at_a_qps_table(12, command, move, state_of)
    said: list[str] = []
    for message in bot.server.messages.values():
        said.append(message.content)
        said += texts_in(message.components) + texts_in(message.attachments)
        said += [t for edit in message.edits for t in texts_in(edit)]
    said = [s for s in said if s]
    assert any("~]" in t for t in said)
    left = untranslated(said, typed)
    assert not left, left[:12]


async def test_the_web_pages_own_words_and_a_tables_json_in_qps(tmp_path):
    """The page's words said on the server (the lead keeps the page's script: its words
    are these) and what the page is sent for a table."""
    from bot.web.page_words import PAGE, SCRIPT

    words = [say(text, QPS) for text in [*PAGE.values(), *SCRIPT.values()]]
    assert all("~]" in w for w in words)
    store = await Store.open(tmp_path / "web.sqlite3")
    try:
        service = GameService(store, seed_source=lambda: 3, pictures=False)
        chat = ChatRef("console", "local", "t1", "", QPS)
        ann = UserRef("console", "local:ann", "Ann", QPS)
        await service.start(chat, ann, "ghosts18", "bots=1")
        row = await service.live(chat)
        from bot.service import Visitor
        from bot.service.web.web_tables import WebPass

        table = await service.web_board.page(WebPass(row.id, Visitor(ann), 0, QPS))
    finally:
        await store.close()
    texts = [*words, *(t for t in _strings(table) if " " in t)]
    assert any("~]" in t for t in texts[len(words) :])
    left = untranslated(texts, {"place"})
    assert not left, left[:12]


def _strings(value) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, str):
        return [value]
    return []


def test_a_replay_gif_draws_only_qps_words(drawn):  # noqa: F811
    """The frames of a replay as the service makes them for a qps table: its boards, the
    headings and the captions under them."""
    game = REGISTRY["hidden_castle"]
    run = play(game, 3, {}, seed=4)
    state = game.setup(["Ann", "Bob", "Cy"], {})
    frames = [
        (
            game.view(state, None),
            say(msg("Move {done} of {total}: {who}", done=0, total=6, who="Ann"), QPS),
            "",
        )
    ]
    for k, (seat, action) in enumerate(run.log[:6]):
        state, events = game.apply(state, seat, action)
        said = " ".join(say(e.text, QPS) for e in events if e.to is None)
        heading = say(msg("Move {done} of {total}: {who}", done=k + 1, total=6, who="Bob"), QPS)
        frames.append((game.view(state, None), heading, said))
    _clear_caches()
    drawn.clear()
    animation.frame_images("hidden_castle", frames, animation.GIF_WIDTH, QPS)
    texts = [t[5] for t in drawn.texts]
    assert any("~]" in t for t in texts)
    left = untranslated(texts, {"move", "place", "hide", "roll"})
    assert not left, left[:12]


async def test_the_replay_of_a_qps_table_is_drawn_and_told_in_qps(tmp_path, monkeypatch):
    """`/escape replay` (and the terminal's `replay`) draws the GIF in the table's language:
    a game played wholly in another language was drawn in English."""
    from bot.service.records import game_records

    asked: list[str] = []
    real = game_records._replay_gif
    monkeypatch.setattr(
        game_records,
        "_replay_gif",
        lambda g, f, language: asked.append(language) or real(g, f, language),
    )
    store = await Store.open(tmp_path / "replay.sqlite3")
    try:
        service = GameService(store, seed_source=lambda: 3, pictures=True)
        chat = ChatRef("test", "c1", "", "", QPS)
        ann = UserRef("test", "u-ann", "Ann")
        await service.start(chat, ann, "ghosts18", "bots=1")
        plan = await service.replay(chat)
        page = await service.run_command("replay", Call(chat, ann))
    finally:
        await store.close()
    assert asked == [QPS]  # drawn once, in the table's language (then cached)
    assert plan.language == QPS and page.language == QPS
    assert "~]" in say(plan.replies[0].text, plan.language)
