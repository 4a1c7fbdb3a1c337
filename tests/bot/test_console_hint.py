"""The terminal's `hint`: the service's command from the one command table, answered to the
player at the keyboard."""

from __future__ import annotations

from bot.console import Terminal
from bot.console.terminal import help_text
from bot.service import GameService
from bot.store import Store
from tests.bot.test_console import Script


async def test_hint_in_the_terminal_suggests_a_move_to_the_player_to_act(tmp_path):
    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    script = Script(["hint", "quit"])
    service = GameService(store, seed_source=lambda: 5, pictures=False, ai_scale=0.05)
    terminal = Terminal(service, tmp_path / "pics", output.append, script)
    script.terminal = terminal
    await terminal.play("ghosts18", ["Ann", "bot"])
    await store.close()
    hints = [line for line in output if "Hint: Place a" in line]
    assert len(hints) == 1 and hints[0].startswith("(for Ann only) Hint: ")
    assert "hint" in help_text()
