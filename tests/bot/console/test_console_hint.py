"""The terminal's `hint`: the service's command from the one command table, answered to the
player at the keyboard, with a sign while a slow one is worked out."""

from __future__ import annotations

import asyncio

import pytest

from bot.console import Terminal
from bot.console.terminal import help_text
from bot.delivery import waiting
from bot.service import GameService
from bot.store import Store
from tests.bot.console.test_console import Script


async def hint_at_the_keyboard(tmp_path) -> list[str]:
    """Ann against a bot in 18 Ghosts types `hint`, then `quit`: what the terminal printed."""
    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    script = Script(["hint", "quit"])
    service = GameService(store, seed_source=lambda: 5, pictures=False, ai_scale=0.05)
    terminal = Terminal(service, tmp_path / "pics", output.append, script)
    script.terminal = terminal
    await terminal.play("ghosts18", ["Ann", "bot"])
    await store.close()
    return output


async def test_hint_in_the_terminal_suggests_a_move_to_the_player_to_act(tmp_path):
    output = await hint_at_the_keyboard(tmp_path)
    hints = [line for line in output if "Hint: Place a" in line]
    assert len(hints) == 1 and hints[0].startswith("(for Ann only) Hint: ")
    assert "hint" in help_text()


@pytest.mark.parametrize("sign_after", [0.0, 60.0])
async def test_a_slow_answer_at_the_keyboard_says_it_is_coming(tmp_path, monkeypatch, sign_after):
    """A hint's search takes seconds at full strength: the screen must not look dead meanwhile.
    The sign's delay is set here (0: any answer is slow; 60: none is), so the test does not
    race the machine's speed."""
    monkeypatch.setattr(waiting, "SIGN_AFTER", sign_after)
    output = await hint_at_the_keyboard(tmp_path)
    hint = next(i for i, line in enumerate(output) if "Hint: " in line)
    signs = [i for i, line in enumerate(output) if line.startswith("Working on it")]
    assert signs == ([hint - 1] if sign_after == 0 else [])


async def test_a_sign_that_fails_still_gives_the_answer():
    """The sign is only a courtesy: a front end that cannot show it still shows the answer."""

    async def slow() -> str:
        await asyncio.sleep(0.05)
        return "the answer"

    async def broken() -> None:
        raise RuntimeError("the chat refused the sign")

    assert await waiting.signalled(slow(), broken, after=0.0) == "the answer"
