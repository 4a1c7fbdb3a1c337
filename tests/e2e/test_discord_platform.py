"""Discord-specific duties, with the real discord.py against the stand-in: the 3-second
rule, rate limits, secrets, threads, the notifier, command sync and component layout."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
import threading
import time
from pathlib import Path

import discord
import pytest
from PIL import Image

import render
from bot.discord import sync_commands
from bot.discord.bridge import OOPS
from bot.discord.components import layout
from bot.discord.posting import messages
from bot.discord.slash_commands import invite_permissions, invite_url
from bot.service import COMMANDS, ChatRef, Choice, Reply, UserRef
from engines import REGISTRY
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN, BOB, CHANNEL, CID, GUILD_ID, DiscordBot, mentioned
from tests.e2e.discord_standin import APP_ID, command_limits
from tests.e2e.test_discord_game import PNG, open_ghosts, options_of

CHAT = ChatRef("discord", str(CHANNEL), "", str(GUILD_ID))
SECRET_GAMES = [g for g in ("haunted_house", "castle_doors") if g in REGISTRY]


def ref(user: dict) -> UserRef:
    return UserRef("discord", user["id"], user["global_name"])


def beyond_shared_start(text: str, other: str) -> str:
    """What `text` says after the part it shares, character for character, with `other`."""
    pairs = enumerate(zip(text, other, strict=False))
    same = next((i for i, (a, b) in pairs if a != b), min(len(text), len(other)))
    return text[same:].strip()


class HeldRender:
    """render.paint_board (a board painted on its canvas) that notes when and on which
    thread it starts, then waits for the test to release it: a render as slow as the test
    needs, with no time measured."""

    def __init__(self, draw=None) -> None:
        self.started: list[tuple[float, int]] = []  # (time.monotonic(), thread id)
        self.gate = threading.Event()
        self._draw = draw or render.paint_board

    def __call__(self, *args, **kwargs):
        self.started.append((time.monotonic(), threading.get_ident()))
        self.gate.wait(10)
        return self._draw(*args, **kwargs)

    def also(self, draw):
        """The same hold around another drawing function (the rules picture)."""

        def held(*args, **kwargs):
            self.started.append((time.monotonic(), threading.get_ident()))
            self.gate.wait(10)
            return draw(*args, **kwargs)

        return held

    async def wait_started(self, count: int) -> None:
        for _ in range(1000):
            if len(self.started) >= count:
                return
            await asyncio.sleep(0.01)
        raise TimeoutError("the render never started")


async def test_answered_before_a_slow_render_which_leaves_the_loop_free(discord_bot, monkeypatch):
    """Discord wants the first answer within 3 s: it goes out before any picture is drawn,
    and while one is drawn the bot still answers other members at once."""
    bot = discord_bot
    board = await open_ghosts(bot)
    held = HeldRender()
    monkeypatch.setattr(render, "paint_board", held)
    monkeypatch.setattr(render, "rules_png", held.also(render.rules_png))
    loop_thread = threading.get_ident()
    for payload in (
        bot.server.click_payload(ANN, board, options_of(board)[0][1]),
        bot.server.slash_payload(CID, CHANNEL, "rules", {"game": "ghosts18"}),
    ):
        n = len(held.started)
        held.gate.clear()
        settled = bot.finished.setdefault(int(payload["id"]), asyncio.Event())
        record = await bot.server.push(payload)
        await held.wait_started(n + 1)
        (callback,) = [c for c in bot.server.callbacks() if record.token in c.path]
        assert callback.at < held.started[n][0], "acknowledged before the render began"
        assert record.callbacks[0]["type"] in (5, 6)  # a deferral
        assert held.started[n][1] != loop_thread, "the picture is drawn on a worker thread"
        helped = await bot.slash(CID, "help")  # answered while the render is held
        assert helped.callbacks[0]["type"] == 4
        held.gate.set()
        await asyncio.wait_for(settled.wait(), 10)
        clicked = [bot.server.messages[board.id]] if "message" in record.payload else []
        assert any(m.attachments for m in bot.answers(record) + clicked)  # posted, or edited
    # the board again: its picture was drawn once, at the move, and is posted as it is
    drawn = len(held.started)
    shown = await bot.slash(BOB, "board")
    assert len(held.started) == drawn
    assert any(m.attachments for m in bot.answers(shown)) or any(
        m.attachments for m in bot.public()[-1:]
    )


async def test_the_private_view_is_drawn_off_the_event_loop(discord_bot, monkeypatch):
    bot = discord_bot
    await open_ghosts(bot)
    threads: list[int] = []
    draw = render.paint_board

    def noting_board_png(*args, **kwargs):
        threads.append(threading.get_ident())
        return draw(*args, **kwargs)

    monkeypatch.setattr(render, "paint_board", noting_board_png)
    record = await bot.slash(ANN, "hand")
    assert record.callbacks[0] == {"type": 5, "data": {"flags": 64}}
    assert any(m.attachments for m in bot.answers(record))
    assert threads and threading.get_ident() not in threads


async def test_rate_limited_followup_is_retried_without_losing_the_move(discord_bot):
    bot = discord_bot
    board = await open_ghosts(bot)
    version = (await bot.service.store.session(1)).version
    public_before = len(bot.public())
    bot.server.fail_next("PATCH", r"^/webhooks/\d+/tok\d+/messages/@original$", retry_after=0.1)
    record = await bot.click(ANN, board, options_of(board)[0][1])
    edits = [
        c.status
        for c in bot.server.calls
        if c.method == "PATCH" and record.token in c.path and "/webhooks/" in c.path
    ]
    assert edits == [429, 200]
    assert not bot.answers(record), "the board was edited in place"
    new_board = bot.server.messages[board.id]
    assert new_board.attachments and mentioned(new_board) == [int(BOB["id"])]
    assert len(bot.public()) == public_before
    assert (await bot.service.store.session(1)).version == version + 1


async def test_notifier_posts_boards_in_the_channel_and_skips_private_replies(discord_bot):
    bot = discord_bot
    await open_ghosts(bot)
    (board,) = await bot.service.board(CHAT)
    secret = Reply("Only Bob may read this.", kind="private", to=ref(BOB))
    bot.server.fail_next("POST", rf"^/channels/{CHANNEL}/messages$", retry_after=0.05)
    before = len(bot.public())
    assert await bot.service.notify(CHAT, [board, secret])
    posted = [c for c in bot.server.calls if c.path == f"/channels/{CHANNEL}/messages"]
    assert [c.status for c in posted] == [429, 200]
    public = bot.public()
    assert len(public) == before, "the reminder's board replaced the live one"
    reminder = public[-1]
    assert reminder.files[0][1].startswith(PNG) and reminder.attachments[0]["description"]
    assert mentioned(reminder) == [int(ANN["id"])]
    assert reminder.buttons(), "the reminder carries the choices"
    assert all("Only Bob" not in m.content for m in bot.server.messages.values())
    # its buttons work like any other
    record = await bot.click(ANN, reminder, options_of(reminder)[0][1])
    assert not bot.answers(record) and bot.server.messages[reminder.id].edits


@pytest.mark.skipif(
    not SECRET_GAMES, reason="no game with secrets (haunted_house, castle_doors) is registered"
)
async def test_a_hand_never_appears_in_a_channel_message(discord_bot):
    bot = discord_bot
    game = SECRET_GAMES[0]
    start = await bot.slash(ANN, "start", {"game": game})
    assert not bot.answers(start)[0].ephemeral
    joined = await bot.slash(BOB, "join")
    (answer,) = [m for m in bot.answers(joined) if not m.ephemeral]
    if not answer.attachments and any(b["label"] == "Begin" for b in answer.buttons()):
        begin = next(b["custom_id"] for b in answer.buttons() if b["label"] == "Begin")
        begun = await bot.click(ANN, answer, begin)
        answer = next(m for m in bot.answers(begun) if not m.ephemeral)
        assert all(m.ephemeral for m in bot.answers(begun) if m is not answer)
    board = answer
    (fresh,) = await bot.service.board(CHAT)
    # the board drawn is the public view's (its caption band tells what happened)
    posted, drawn = (Image.open(io.BytesIO(b)) for b in (board.files[0][1], fresh.picture.png))
    height = min(posted.height, drawn.height) - 200
    assert (
        posted.crop((0, 0, posted.width, height)).tobytes()
        == drawn.crop((0, 0, drawn.width, height)).tobytes()
    ), "the public picture is the public view's"
    mine = [b for b in board.buttons() if b["label"] == "My hand / my view"]
    assert mine, "a game with secrets offers the public My hand / my view button"
    assert len(board.buttons()) == 1 and not board.selects(), "no move labels in public"
    (actor,) = mentioned(board)
    waiting = BOB if actor == int(ANN["id"]) else ANN
    shown = await bot.click(waiting, board, mine[0]["custom_id"])
    hand = bot.answers(shown)
    assert hand and all(m.ephemeral for m in hand)
    assert not any(m.components for m in hand), "no moves for who is not to act"
    asked = await bot.slash(waiting, "hand")
    assert all(m.ephemeral for m in bot.answers(asked))
    actor_user = ANN if actor == int(ANN["id"]) else BOB
    shown = await bot.click(actor_user, board, mine[0]["custom_id"])
    hand = bot.answers(shown)
    assert hand and all(m.ephemeral for m in hand)
    (moves,) = [m for m in hand if m.components]
    # what a private view adds to the public description is exactly the secret part
    public_alt = board.attachments[0]["description"]
    private_alts = [
        a["description"]
        for m in bot.server.messages.values()
        if m.ephemeral
        for a in m.attachments
        if a["filename"] == "my-view.png"
    ]
    assert len(private_alts) >= 2, "both players looked at their view"
    extras = [beyond_shared_start(alt, public_alt) for alt in private_alts]
    assert all(len(extra) > 10 for extra in extras), extras
    version = (await bot.service.store.session(1)).version
    picked = await bot.click(actor_user, moves, options_of(moves)[0][1])
    assert (await bot.service.store.session(1)).version > version, "a private button moves"
    after = bot.answers(picked)
    assert all(m.ephemeral for m in after)
    assert bot.server.messages[board.id].edits, "the live board shows the move"

    secrets = set()
    for message in bot.server.messages.values():
        if message.ephemeral:
            secrets.add(message.content)
            secrets.update(a["description"] or "" for a in message.attachments)
    for user in (ANN, BOB):
        for reply in await bot.service.history(CHAT, ref(user)):
            if reply.to is not None:
                secrets.update(reply.text.splitlines()[1:])  # "Only you saw:" then the lines
    secrets = {s for s in secrets if len(s) > 15}
    assert secrets
    labels = {
        c.get("label") for m in bot.server.messages.values() if m.ephemeral for c in m.buttons()
    }
    for message in bot.public():
        seen = [message.content] + [a["description"] or "" for a in message.attachments]
        for extra in extras:
            assert all(extra not in text for text in seen), (extra, message.content)
        for secret in secrets:
            assert all(secret not in text for text in seen), (secret, message.content)
        public_labels = {b.get("label") for b in message.buttons()} | {
            o["label"] for s in message.selects() for o in s["options"]
        }
        assert not (labels - {"My hand / my view"}) & public_labels


async def test_a_table_in_a_new_thread(discord_bot):
    bot = discord_bot
    bad = await bot.slash(ANN, "start", {"game": "ghosts18", "options": "speed", "thread": True})
    (refusal,) = bot.answers(bad)
    assert refusal.ephemeral and "name=value" in refusal.content
    assert not [c for c in bot.server.calls if c.path.endswith("/threads")], "no empty thread"
    assert bot.public() == []
    record = await bot.slash(ANN, "start", {"game": "ghosts18", "thread": True})
    made = [c for c in bot.server.calls if c.path == f"/channels/{CHANNEL}/threads"]
    assert len(made) == 1
    assert made[0].body["type"] == 11 and made[0].body["auto_archive_duration"] == 10080
    thread_id = next(int(k) for k, v in bot.server.channels.items() if v.get("parent_id"))
    (note,) = bot.answers(record)
    assert not note.ephemeral and f"<#{thread_id}>" in note.content
    assert note.channel_id == CHANNEL, "the channel learns where the table is"
    lobby = [m for m in bot.public() if m.channel_id == thread_id]
    assert len(lobby) == 1 and lobby[0].buttons()
    joined = await bot.slash(BOB, "join", channel=thread_id)
    (board,) = bot.answers(joined)
    assert board.attachments and board.channel_id == thread_id
    row = await bot.service.live(ChatRef("discord", str(CHANNEL), str(thread_id)))
    assert row is not None and row.status == "active"
    assert await bot.service.live(CHAT) is None, "the parent channel stays free"


async def test_a_reminder_reopens_an_archived_thread(discord_bot):
    bot = discord_bot
    await bot.slash(ANN, "start", {"game": "ghosts18", "thread": True})
    thread_id = next(int(k) for k, v in bot.server.channels.items() if v.get("parent_id"))
    await bot.slash(BOB, "join", channel=thread_id)
    chat = ChatRef("discord", str(CHANNEL), str(thread_id), str(GUILD_ID))
    (board,) = await bot.service.board(chat)
    bot.server.archive(thread_id)
    before, first_call = len(bot.public()), len(bot.server.calls)
    assert await bot.service.notify(chat, [board])
    calls = bot.server.calls[first_call:]
    posts = [c.status for c in calls if c.path == f"/channels/{thread_id}/messages"]
    assert posts == [400, 200]
    (reopen,) = [c for c in calls if c.method == "PATCH"]
    assert reopen.path == f"/channels/{thread_id}" and reopen.body == {"archived": False}
    assert not bot.server.channels[thread_id]["thread_metadata"]["archived"]
    assert len(bot.public()) == before, "the reminder's board replaced the live one"
    reminder = bot.public()[-1]
    assert reminder.channel_id == thread_id and reminder.files and reminder.buttons()


async def test_help_rules_and_games_answer_only_the_asker(discord_bot):
    bot = discord_bot
    helped = await bot.slash(CID, "help")
    assert helped.callbacks[0]["type"] == 4 and helped.callbacks[0]["data"]["flags"] == 64
    rules = await bot.slash(CID, "rules", {"game": "ghosts18"})
    answers = bot.answers(rules)
    assert answers and all(m.ephemeral for m in answers)
    assert any(m.files and m.files[0][1].startswith(PNG) for m in answers)
    assert all(len(m.content) <= 2000 for m in answers)
    await open_ghosts(bot)
    games = await bot.slash(CID, "games")
    (listing,) = bot.answers(games)
    assert listing.ephemeral and "18 Ghosts" in listing.content


async def test_command_sync_publishes_described_commands(standin, tmp_path, capsys):
    settings = DiscordBot(standin, tmp_path / "x.sqlite3").settings
    assert await sync_commands(settings, [GUILD_ID]) == 0
    assert f"Invite link: {invite_url(APP_ID)}" in capsys.readouterr().out
    (put,) = [c for c in standin.calls if c.method == "PUT"]
    assert put.path == f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"
    (escape,) = put.body
    assert escape["name"] == "escape" and escape["description"]
    subs = {}  # every command, in its group or not
    for entry in escape["options"]:
        subs |= (
            {o["name"]: o for o in entry["options"]}
            if entry["type"] == 2
            else {entry["name"]: entry}
        )
    assert set(subs) == {c.name for c in COMMANDS}
    assert set(subs) >= {
        "start",
        "join",
        "leave",
        "begin",
        "move",
        "board",
        "hand",
        "log",
        "rules",
        "help",
        "abort",
        "games",
    }
    for sub in subs.values():
        assert sub["description"], sub["name"]
        for option in sub.get("options", []):
            assert option["description"], (sub["name"], option["name"])
    games = {
        c["value"]
        for c in next(o for o in subs["start"]["options"] if o["name"] == "game")["choices"]
    }
    assert "ghosts18" in games and games <= set(REGISTRY)
    assert next(o for o in subs["move"]["options"])["autocomplete"] is True
    # every description, option name and game in German, Spanish and Russian for a client
    # of that language (issues 26, 37; Discord's locales "de", "es-ES", "ru"); the command
    # names stay as every message says them
    start_game = next(o for o in subs["start"]["options"] if o["name"] == "game")
    ghosts = next(c for c in start_game["choices"] if c["value"] == "ghosts18")
    for locale in ("de", "es-ES", "ru"):
        assert escape["description_localizations"][locale] != escape["description"]
        for sub in subs.values():
            assert locale not in (sub.get("name_localizations") or {}), sub["name"]
            said = sub["description_localizations"][locale]
            assert said != sub["description"] and len(said) <= 100, sub["name"]
            for option in sub.get("options", []):
                assert option.get("description_localizations", {}).get(locale) not in (
                    None,
                    option["description"],
                ), (sub["name"], option["name"], locale)
                named = option.get("name_localizations", {}).get(locale)
                assert named not in (None, option["name"]), (sub["name"], option["name"], locale)
        assert ghosts["name_localizations"][locale] != ghosts["name"]
    assert ghosts["name_localizations"]["ru"] == "18 призраков"
    # a language and a game that may be left out are suggested as one types (a menu's
    # choices count against the command's 4,000 characters); starting a game keeps its menu
    language = next(o for o in subs["language"]["options"] if o["name"] == "code")
    assert language["autocomplete"] is True and not language.get("choices")
    for sub in ("top", "rules"):
        assert next(o for o in subs[sub]["options"] if o["name"] == "game")["autocomplete"]
    assert await sync_commands(settings, []) == 0
    assert standin.calls[-1].method == "PUT"
    assert standin.calls[-1].path == f"/applications/{APP_ID}/commands"
    calls = len(standin.calls)
    no_token = DiscordBot(standin, tmp_path / "x.sqlite3").settings
    object.__setattr__(no_token, "discord_token", "")
    assert await sync_commands(no_token, []) == 4  # a missing setting (EXIT_SETTINGS)
    assert len(standin.calls) == calls


def _more(table, count: int):
    """The command table and more commands up to `count`, each in a group, as a table that
    grew would be: each has an argument, help and a description of its own."""
    from dataclasses import replace

    from bot.service.commands import Arg

    base = COMMANDS[0]
    extra = [
        replace(
            base,
            name=f"extra{n}",
            help=f"An extra command number {n}",
            args=(Arg("what", "text", f"What extra {n} takes"),),
            group=("records", "admin", "me")[n % 3],
        )
        for n in range(count - len(table))
    ]
    return (*table, *extra)


async def test_thirty_commands_all_reach_discord_which_checks_its_limits(
    standin, tmp_path, monkeypatch
):
    """Issue 59: `/escape` once took the first 25 commands and dropped the rest (`clock`
    vanished). With 30 in the table, every one is published, in its group, and the
    stand-in takes the command only within Discord's limits."""
    import bot.discord.slash_commands as slash

    table = _more(COMMANDS, max(30, len(COMMANDS)))
    monkeypatch.setattr(slash, "COMMANDS", table)
    settings = DiscordBot(standin, tmp_path / "x.sqlite3").settings
    assert await sync_commands(settings, [GUILD_ID]) == 0
    (put,) = [c for c in standin.calls if c.method == "PUT"]
    (escape,) = put.body
    assert command_limits(escape) == []
    published = []
    for entry in escape["options"]:
        assert len(escape["options"]) <= 25 and len(entry.get("options") or []) <= 25
        inner = entry["options"] if entry["type"] == 2 else [entry]
        published += [(entry["name"] if entry["type"] == 2 else "", o["name"]) for o in inner]
    assert sorted(published) == sorted((c.group, c.name) for c in table)
    assert len(published) >= 30


def test_a_table_that_does_not_fit_discord_fails_never_drops():
    """26 commands at the top of `/escape`, or more than 4,000 characters, refuse to be
    built (the bot's start builds it); the stand-in refuses such a command as Discord
    does."""
    from dataclasses import replace

    from bot.discord.slash_commands import DoesNotFit, escape_group
    from bot.service import GameService
    from bot.startup_errors import StartupError

    assert issubclass(DoesNotFit, StartupError)  # one line for the operator, no start

    games = GameService.game_list()
    escape_group(None, games)  # the table as it is fits
    flat = tuple(replace(c, group="") for c in _more(COMMANDS, 26))
    with pytest.raises(DoesNotFit, match="25"):
        escape_group(None, games, flat)
    wordy = tuple(
        replace(c, help=("x" * 99) + str(n)[-1]) for n, c in enumerate(_more(COMMANDS, 40))
    )
    with pytest.raises(DoesNotFit, match="4000"):
        escape_group(None, games, wordy)
    assert any(
        "4000" in p
        for p in command_limits(
            {
                "name": "escape",
                "description": "d",
                "options": [
                    {
                        "name": f"c{n}",
                        "type": 1,
                        "description": "y" * 100,
                        "options": [{"name": "what", "type": 3, "description": "z" * 100}],
                    }
                    for n in range(25)
                ],
            }
        )
    )


def test_layout_fits_discord_limits():
    owner = "930000000000000011"
    many = [
        Choice(f"Move number {i} " + "x" * 90, f"a:1:5:0:{i}", for_user=owner) for i in range(60)
    ]
    mine = Choice("My hand / my view", "v:1", "primary")
    rows = layout(Reply("Board", kind="board", choices=[*many, mine])).view.to_components()
    assert len(rows) <= 5
    selects = [c for row in rows for c in row["components"] if c["type"] == 3]
    assert [len(s["options"]) for s in selects] == [25, 25, 10]
    assert all(len(o["label"]) <= 100 for s in selects for o in s["options"])
    buttons = [c for row in rows for c in row["components"] if c["type"] == 2]
    assert [b["custom_id"] for b in buttons] == ["escape:v:1"]
    assert all(len(c["custom_id"]) <= 100 for row in rows for c in row["components"])

    few = [Choice(f"Move {i}", f"a:1:5:0:{i}", for_user=owner) for i in range(25)]
    (message,) = messages(Reply("Board", kind="board", choices=few), ephemeral=False)
    rows = message["view"].to_components()
    assert len(rows) == 5 and all(len(r["components"]) == 5 for r in rows)

    lots = [Choice(f"Move {i}", f"a:1:5:0:{i}", for_user=owner) for i in range(130)]
    (message,) = messages(Reply("Your moves", kind="private", choices=lots), ephemeral=True)
    assert len(message["view"].to_components()) == 5
    assert "5 more moves" in message["content"] and "/escape move" in message["content"]


async def test_escape_bot_sync_and_run_use_the_adapter(standin, tmp_path, monkeypatch):
    """The real entry points: `escape-bot sync --guild ID` and `escape-bot run`."""
    from bot import cli
    from bot.runner import serve

    monkeypatch.chdir(tmp_path)  # no stray .env
    monkeypatch.setenv("DISCORD_TOKEN", "standin-token")
    monkeypatch.setenv("DISCORD_API_BASE", f"http://127.0.0.1:{standin.port}")
    monkeypatch.setenv("DISCORD_GATEWAY", standin.gateway_url)
    monkeypatch.setenv("ESCAPE_DB", str(tmp_path / "run.sqlite3"))
    monkeypatch.delenv("TELEGRAM_TOKEN", raising=False)
    code = await asyncio.to_thread(cli.main, ["sync", "--guild", str(GUILD_ID)])
    assert code == 0
    assert standin.calls[-1].path == f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"

    from bot.settings import Settings

    syncs = [c for c in standin.calls if c.method == "PUT"]
    task = asyncio.create_task(serve(Settings.from_env()))
    await asyncio.wait_for(standin.identified.wait(), 10)
    record = await standin.push(standin.slash_payload(ANN, CHANNEL, "help"))
    await standin.wait_for(lambda: record.callbacks)
    assert record.callbacks[0]["data"]["flags"] == 64
    assert [c for c in standin.calls if c.method == "PUT"] == syncs, "run never syncs"
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    await standin.wait_for(lambda: not standin.connected)


async def test_starter_is_told_privately_when_the_bot_cannot_post_later(discord_bot):
    bot = discord_bot
    view_only = str(1 << 10)  # the bot can see the channel but not send or attach there
    record = await bot.slash(ANN, "start", {"game": "ghosts18"}, app_permissions=view_only)
    lobby, note = bot.answers(record)
    assert not lobby.ephemeral and lobby.buttons()
    assert note.ephemeral and "Send Messages" in note.content and "Attach Files" in note.content


async def test_an_unexpected_failure_is_told_only_to_the_asker(discord_bot, monkeypatch):
    bot = discord_bot
    await open_ghosts(bot)
    public_before = len(bot.public())

    async def broken(chat, viewer=None):
        raise RuntimeError("database file is locked at /srv/secret/path")

    monkeypatch.setattr(bot.service.play, "board", broken)  # what /escape board calls
    record = await bot.slash(CID, "board")
    assert record.callbacks[0]["type"] == 5
    (answer,) = bot.answers(record)
    assert answer.ephemeral and answer.content == OOPS
    assert len(bot.public()) == public_before, "the public 'thinking' message is gone"


def test_discord_guide_invite_link_asks_for_what_the_bot_checks():
    guide = (Path(__file__).parents[2] / "docs" / "discord.md").read_text(encoding="utf-8")
    assert invite_url("APPLICATION_ID") in guide
    assert "scope=bot+applications.commands" in invite_url("APPLICATION_ID")
    section = guide[guide.index("## Discord") :]
    rows = re.findall(r"^\s*\| ([A-Z][A-Za-z ]+) \| (\d+) \|", section, re.MULTILINE)
    wanted = invite_permissions()
    assert sorted(int(value) for _, value in rows) == sorted(
        getattr(discord.Permissions, name).flag for name, on in wanted if on
    )
    assert sum(int(value) for _, value in rows) == wanted.value
