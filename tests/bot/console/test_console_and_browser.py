"""A terminal and a browser on one table (`make run`'s local play): a move made on the web
page reaches the terminal while it waits for a line, which shows the new board and the
new menu; the line then typed answers the table as it is now."""

from __future__ import annotations

import asyncio
import threading

from bot.console import Terminal
from bot.service import GameService
from bot.store import Store
from tests.bot.web_fixtures import Page, serve_board
from tests.polling import until


class Keyboard:
    """Lines typed when the test says so (a read waits like a person at the keyboard)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ready = threading.Semaphore(0)
        self.prompts: list[str] = []

    def type(self, line: str) -> None:
        self.lines.append(line)
        self.ready.release()

    def __call__(self, prompt: str) -> str | None:
        self.prompts.append(prompt)
        self.ready.acquire()
        return self.lines.pop(0)


async def test_a_move_on_the_web_page_redraws_the_terminal(tmp_path):
    store = await Store.open(tmp_path / "t.sqlite3")
    service = GameService(store, seed_source=lambda: 5, pictures=False)
    web = await serve_board(service, local=True)
    output: list[str] = []
    keyboard = Keyboard()
    terminal = Terminal(service, tmp_path / "pics", output.append, keyboard)
    playing = asyncio.create_task(terminal.play("ghosts18", ["Ann", "Bob"], "variant=short"))
    page = Page(web.url)
    try:
        await until(lambda: keyboard.prompts and keyboard.prompts[-1].startswith("Ann>"))
        status, _ = await page.get(f"/local/{web.board.signer.sign('local', {}, 60)}")
        assert status == 303
        [table] = (await page.get("/api/local/tables"))[1]["tables"]
        shown = (await page.open(table["id"]))["page"]
        assert shown["seat"] == 0 and shown["moves"]
        before = len(output)
        answer = await page.press(shown["moves"][0]["data"], seat=0)  # Ann moves in the browser
        assert answer["ok"], answer
        await until(lambda: any("Meanwhile, elsewhere" in line for line in output[before:]))
        await until(lambda: any(line.startswith("Bob>") for line in output[before:]))
        said = "\n".join(output[before:])
        print(said)
        assert "Waiting for Bob" in said and "1) " in said  # the new board, and Bob's menu
        assert terminal.actor().name == "Bob"
        keyboard.type("1")  # the line waiting since before answers Bob's move now
        await until(lambda: len(keyboard.prompts) >= 2)
        row = await service.live(terminal.chat)
        assert row.version == shown["version"] + 2  # Ann in the browser, Bob at the keyboard
        keyboard.type("quit")
        assert await asyncio.wait_for(playing, 5) == 0
    finally:
        playing.cancel()
        await page.close()
        await web.close()
        await store.close()
