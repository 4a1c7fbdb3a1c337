"""`escape-bot`: run the bot, play in the terminal, sync Discord commands, back up the data."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sqlite3
import sys
from pathlib import Path

from bot.log_setup import configure_logging
from bot.settings import Settings, load_dotenv
from bot.startup_errors import EXIT_DAMAGED, EXIT_DATABASE, EXIT_SETTINGS, StartupError
from bot.store.errors import DamagedStore, StoreError
from bot.telemetry import logs
from languages import msg, resolve, say

NO_TOKEN = msg(
    "No chat platform is configured, so Escape offers local play in this terminal.\n"
    "To run it in chat, set DISCORD_TOKEN and/or TELEGRAM_TOKEN (see .env.example and the README),\n"
    "then `make run` again."
)

LOCAL_WEB = ("127.0.0.1", 8765)  # where a tokenless `make run` serves the web board

# Without a token, `run` offers local play; with no terminal either (a service, a pipe)
# nobody could play, so it is a missing setting, not a quiet success.
NOTHING_TO_RUN = (
    "escape-bot: nothing to run: set DISCORD_TOKEN or TELEGRAM_TOKEN (see .env.example), "
    "or run it in a terminal for local play"
)


def main(argv: list[str] | None = None) -> int:
    load_dotenv()
    parser = argparse.ArgumentParser(prog="escape-bot", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the configured platforms (terminal play when none is)")
    play = sub.add_parser("play", help="play a game in the terminal (hot-seat)")
    play.add_argument("game", nargs="?", help="game id, e.g. ghosts18")
    play.add_argument("--players", default="", help="comma-separated local player names")
    play.add_argument("--options", help="e.g. 'variant=short' (default: the game's defaults)")
    play.add_argument(
        "--describe",
        action="store_true",
        help="describe the board in words after every move (else only on `board`)",
    )
    play.add_argument(
        "--lang", help="the language to play in, e.g. de (default: the terminal's, from LANG)"
    )
    play.add_argument("--db", help="SQLite file or PostgreSQL URL (default: $ESCAPE_DB)")
    play.add_argument(
        "--pictures", type=Path, help="folder for pictures (default: $ESCAPE_PICTURES)"
    )
    learn = sub.add_parser("learn", help="learn a game by playing it, in about five minutes")
    learn.add_argument("game", nargs="?", help="game id, e.g. ghosts18")
    learn.add_argument("--name", help="your name in the lesson (default: Player, in your language)")
    learn.add_argument("--lang", help="the language, e.g. de (default: the terminal's)")
    learn.add_argument("--db", help="SQLite file or PostgreSQL URL (default: $ESCAPE_DB)")
    learn.add_argument("--pictures", type=Path, help="folder for pictures")
    sync = sub.add_parser("sync", help="publish the Discord slash commands")
    sync.add_argument(
        "--guild", type=int, action="append", default=[], help="a guild id (repeatable)"
    )
    backup = sub.add_parser("backup", help="online backup of the database to an SQLite file")
    backup.add_argument("destination", type=Path)
    sub.add_parser(
        "health", help="exit 0 if the running bot's timer loop is alive (Docker HEALTHCHECK)"
    )
    copy = sub.add_parser(
        "migrate-db", help="copy every game from one database into a new, empty one"
    )
    copy.add_argument("source", help="SQLite file or postgresql:// URL")
    copy.add_argument("destination", help="SQLite file or postgresql:// URL")
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except ValueError as exc:  # a setting that cannot be read: said in one line, no traceback
        print(f"Configuration: {exc}", file=sys.stderr, flush=True)
        return EXIT_SETTINGS
    redactor = configure_logging(settings)
    logs.configure(settings.log_format)  # ESCAPE_LOG_FORMAT=json: one JSON object a line
    command = args.command or "run"
    if command in ("play", "learn") or (command == "run" and not settings.has_platform):
        # terminal play: the game's text, not the operator's INFO lines (warnings still show)
        logging.getLogger().setLevel(max(logging.WARNING, logging.getLogger().level))
    try:
        if command == "play":
            db = args.db or settings.db_path
            pictures = args.pictures or settings.pictures_dir
            names = [n.strip() for n in args.players.split(",") if n.strip()]
            return _left(
                asyncio.run(
                    _play(
                        db,
                        pictures,
                        args.game,
                        names,
                        args.options,
                        describe=args.describe,
                        language=args.lang,
                    )
                )
            )
        if command == "learn":
            db = args.db or settings.db_path
            pictures = args.pictures or settings.pictures_dir
            return _left(asyncio.run(_learn(db, pictures, args.game, args.name, args.lang)))
        if command == "sync":
            from bot.discord import sync_commands

            return asyncio.run(sync_commands(settings, args.guild or settings.discord_guild_ids))
        if command == "backup":
            return asyncio.run(_backup(settings.db_path, args.destination))
        if command == "health":
            from bot.health import check

            healthy, said = asyncio.run(check(settings))
            print(said, flush=True)
            return 0 if healthy else 1
        if command == "migrate-db":
            return asyncio.run(_migrate_db(args.source, args.destination))
        if not settings.has_platform:
            if not sys.stdin.isatty():
                print(NOTHING_TO_RUN, file=sys.stderr, flush=True)
                return EXIT_SETTINGS
            print(say(NO_TOKEN, _keyboard_language()), flush=True)
            return _left(
                asyncio.run(
                    _play(settings.db_path, settings.pictures_dir, None, [], None, web=settings)
                )
            )
        from bot.runner import serve

        asyncio.run(serve(settings))
        return 0
    except KeyboardInterrupt:
        if command in ("play", "learn") or not settings.has_platform:  # at a terminal prompt
            from bot.console.terminal import INTERRUPTED, terminal_language

            language = getattr(args, "lang", None) or terminal_language()
            print("\n" + say(INTERRUPTED, resolve(language)), flush=True)
            sys.stderr.flush()
            # The store is closed already (asyncio.run let the game's task finish); the
            # thread still blocked reading the keyboard would make the interpreter's own
            # shutdown abort on the stdin lock, so leave now.
            os._exit(130)
        return 130
    except StartupError as exc:  # a token refused, a platform unreachable: one line, no trace
        print(f"escape-bot: {redactor.redact(str(exc))}", file=sys.stderr, flush=True)
        return exc.exit_status
    except DamagedStore as exc:  # found at start: the message names the file and the restore
        print(exc, file=sys.stderr, flush=True)
        return EXIT_DAMAGED
    except StoreError as exc:  # cannot be opened, or newer than this code: stop at once
        print(f"escape-bot: {exc}", file=sys.stderr, flush=True)
        return EXIT_DATABASE


def _left(code: int) -> int:
    """Terminal play has ended (its store closed). Ctrl-C before a game existed leaves a
    thread waiting for the keyboard, which would make the interpreter's own shutdown abort
    on the stdin lock: then leave at once, with `code`."""
    from bot.console.terminal import keyboard_waited_on

    if keyboard_waited_on():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


async def _play(
    db: Path | str,
    pictures: Path,
    game: str | None,
    names: list[str],
    options: str | None,
    describe: bool = False,
    language: str | None = None,
    web: Settings | None = None,
) -> int:
    """`web`: also serve the local web board (a tokenless `run`) and print its link."""
    from bot.console import run_terminal
    from bot.service import GameService
    from bot.store import Store

    store = await Store.open(db)
    service = GameService(store)
    http = None
    try:
        if web is not None:
            http = await _local_web(web, service)
        return await run_terminal(service, pictures, game, names, options, describe, language)
    finally:
        if http is not None:
            await http.stop()
        await store.close()


async def _learn(
    db, pictures: Path, game: str | None, name: str | None, language: str | None
) -> int:
    from bot.console import learn_in_terminal
    from bot.service import GameService
    from bot.store import Store

    store = await Store.open(db)
    try:
        return await learn_in_terminal(GameService(store), pictures, game, name, language)
    finally:
        await store.close()


async def _local_web(settings: Settings, service):
    """The web board for the person at this machine: ESCAPE_WEB's address, else
    127.0.0.1:8765 (any free port if that one is taken). Its link is printed."""
    from bot.console.terminal import terminal_language
    from bot.http_server import HttpServer
    from bot.runner import web_board

    # the page speaks the terminal's language when its locale names one, else the browser's
    language = resolve(terminal_language(), "")
    board = await web_board(settings, service, local=True, language=language)
    address = settings.web_address or LOCAL_WEB
    http = HttpServer(address, [board.part], "the web board")
    try:
        await http.start()
    except OSError:
        if settings.web_address is not None:
            raise
        http = HttpServer((LOCAL_WEB[0], 0), [board.part], "the web board")
        await http.start()
    board.listening_on(http.host, http.port)
    said = msg("Play in your browser (keep this terminal open): {link}", link=board.local_link())
    print(say(said, _keyboard_language()), flush=True)
    return http


async def _backup(db: Path | str, destination: Path) -> int:
    from bot.store import Store
    from bot.store.dialects import redact

    # `backup backups/escape-$(date +%F).sqlite3` on a fresh install: make the folder, and
    # if the destination still cannot be written, say that it is the destination (SQLite's
    # own "unable to open database file" reads as if the live database were broken).
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(
            f"escape-bot: cannot create {destination.parent} for the backup: {exc.strerror}",
            file=sys.stderr,
            flush=True,
        )
        return 1
    store = await Store.open(db)
    try:
        await store.backup(destination)
    except DamagedStore:  # the live database: its own message and status
        raise
    except (OSError, sqlite3.Error, StoreError) as exc:  # the destination: SQLite's own
        print(
            f"escape-bot: cannot write the backup to {destination}: {exc}",
            file=sys.stderr,
            flush=True,
        )
        return 1
    finally:
        await store.close()
    print(f"Backed up {redact(db)} to {destination}")
    return 0


async def _migrate_db(source: str, destination: str) -> int:
    from bot.store.copy import migrate_db
    from bot.store.dialects import redact

    copied = await migrate_db(source, destination)
    counts = ", ".join(f"{n} {table}" for table, n in copied.items())
    print(f"Copied {redact(source)} into {redact(destination)}: {counts}")
    return 0


def _keyboard_language() -> str:
    """What the person at this terminal reads (its locale), before a game is chosen."""
    from bot.console.terminal import terminal_language

    return resolve(terminal_language())


if __name__ == "__main__":
    sys.exit(main())
