"""The web page's own words (its headings, labels and what its script puts together),
said in the reader's language when the page is served.

`board.html` names each word `{{key}}`; the script's words travel in the page as a JSON
block (`<script type="application/json" id="words">`: data, never run, so the page's
Content-Security-Policy stays `script-src 'self'`), with `{placeholders}` the script fills (each is given as its own argument, so it
is kept as it is in every language).
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from pathlib import Path

from bot.service import HAND, NEAR
from languages import Msg, in_context, say

TEMPLATE = Path(__file__).parent / "static" / "board.html"
_KEY = re.compile(r"\{\{(\w+)\}\}")

# the context keeps a page's word apart from the same English said elsewhere
PAGE: dict[str, Msg] = {
    "play_here": in_context("web page", "Play at this machine"),
    "game": in_context("web page", "Game"),
    "players": in_context("web page", "Players"),
    "players_hint": in_context("web page", "Names separated by commas; bot is a computer player."),
    "options": in_context("web page", "Options"),
    # the local page's first player: a name that reads well in "... places a ghost"
    "default_players": in_context("web page", "Player,bot"),
    "start": in_context("web page", "Start"),
    "playing_as": in_context("web page", "Playing as"),
    "board_in_words": in_context("web page", "The board in words"),
    "your_view": in_context("web page", "Your view (only you see it)"),
    "your_moves": in_context("web page", "Your moves"),
    "moves_here": in_context("web page", "Moves at the place you tapped"),
    "log": in_context("web page", "Log"),
    "only_you_saw": in_context("web page", "Only you saw"),
    "replay": in_context("web page", "Replay"),
    "board": in_context("web page", "Board"),
    "lesson": in_context("web page", "Learn to play"),
    "learn": in_context("web page", "Learn this game (a lesson for you alone, about five minutes)"),
    "lesson_close": in_context("web page", "Close the lesson (it waits where you left it)"),
    "review": in_context(
        "web page", "Review this game (the chances move by move, as you saw them)"
    ),
    "ask_label": in_context(
        "web page",
        "Ask about the board: a place (like c3), a player, {near} or {hand}",
        near=NEAR,
        hand=HAND,
    ),
    "ask": in_context("web page", "Ask"),
}
SCRIPT: dict[str, Msg] = {
    "cancel": in_context("web page", "Cancel"),
    "heading": in_context("web page", "{game} · game #{id}", game="{game}", id="{id}"),
    "signed_in": in_context("web page", "Signed in as {name}", name="{name}"),
    "watching": in_context("web page", "Watching (the public board only)"),
    "you": in_context("web page", "{name} (you)", name="{name}"),
    "to_act": in_context("web page", "{name}: to act", name="{name}"),
    "nothing_to_do": in_context("web page", "Nothing for you to do now."),
    "frame_of": in_context("web page", "{n} of {count}", n="{n}", count="{count}"),
    "frame_alt": in_context("web page", "Board {n} of the replay", n="{n}"),
    "reviewing": in_context(
        "web page", "Reviewing the game: the AI plays it again, move by move (a few seconds)..."
    ),
    "here": in_context("web page", "Playing at this machine"),
    "game_choice": in_context(
        "web page", "{game} ({players} players)", game="{game}", players="{players}"
    ),
    "telegram_only": in_context(
        "web page", "Open this board from the Telegram bot's Open board button."
    ),
    "which_table": in_context(
        "web page", "Which table? Open the board from a game's Open board button."
    ),
    "no_activity": in_context(
        "web page", "This server was built without the Discord Activity script."
    ),
    "need_link": in_context(
        "web page", "Open a table from your personal link: type /escape web in the game's chat."
    ),
    "gone": in_context(
        "web page", "This table is no longer open to you (you may have left its chat)."
    ),
    "spectators": in_context("web page", "Spectator link: {url}", url="{url}"),
    "game_over": in_context("web page", "Game over"),
    "watching_only": in_context("web page", "You are watching: only the players move."),
    "waiting": in_context("web page", "Not your turn: the board updates by itself."),
    "lobby_waiting": in_context("web page", "Waiting for players."),
    "on_board": in_context("web page", "Moves on the board, as a list ({count})", count="{count}"),
    "more_moves": in_context(
        "web page", "{first} and the like ({count})", first="{first}", count="{count}"
    ),
    # hot-seat at this machine, in a game with secrets: the device passes between players
    "pass_to": in_context(
        "web page", "Pass the device to {name}; the others look away.", name="{name}"
    ),
    "show_as": in_context("web page", "I am {name}: show my view", name="{name}"),
}


def page_html(language: str) -> str:
    return _page(language)


@cache
def _page(language: str) -> str:
    template = TEMPLATE.read_text(encoding="utf-8")
    words = {key: html.escape(say(text, language)) for key, text in PAGE.items()}
    script = {key: say(text, language) for key, text in SCRIPT.items()}
    words["lang"] = language
    # "</" cannot end the block early: JSON may write it as "<\/"
    words["words_json"] = json.dumps(script, ensure_ascii=False).replace("</", "<\\/")
    return _KEY.sub(lambda m: words[m.group(1)], template)
