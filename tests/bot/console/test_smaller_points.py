"""Issue 60's smaller points at the terminal and the local page: Hidden Castle's choices are
numbered by their spaces (typing 7 places on space 7), `stats` is answered after a game
ends as the help lists it, a name may be as long as everywhere else (64), and a table at
this machine shows no turn clock."""

from __future__ import annotations

from bot.console import Terminal
from bot.console.setup import names_problem
from bot.service import MAX_NAME, GameService
from engines import REGISTRY
from tests.bot.web_fixtures import Page, serve_board


def _script(lines: list[str]):
    def read(_prompt: str) -> str | None:
        return lines.pop(0) if lines else None

    return read


async def test_hidden_castles_choices_are_numbered_by_their_spaces(tmp_path, store):
    output: list[str] = []
    lines = ["5", "5", "7", "quit"]
    service = GameService(store, seed_source=lambda: 5, pictures=False)
    terminal = Terminal(service, tmp_path, output.append, _script(lines))
    assert await terminal.play("hidden_castle", ["Ann", "Bob"], "") == 0
    text = "\n".join(output)
    assert "Ann's guest A is placed on space 5." in text
    assert "Bob's guest G is placed on space 7." in text  # 5 was taken: 7 means space 7
    assert "  7) Place guest G on space 7  [place 7]" in text
    assert "Choose one of the numbers shown" in text  # (Bob's 5, taken by then)


async def test_stats_is_answered_after_the_game_ends(tmp_path, store):
    output: list[str] = []
    lines = ["place a1", "abort", "yes", "stats", "quit"]
    service = GameService(store, seed_source=lambda: 5, pictures=False)
    terminal = Terminal(service, tmp_path, output.append, _script(lines))
    await terminal.play("ghosts18", ["Ann", "Bob"], "variant=short")
    text = "\n".join(output)
    after = text.split("The game is over.")[-1]
    assert "Ann" in after and "The game is over:" not in after, after[-600:]


def test_a_name_may_be_as_long_as_everywhere_else():
    game = REGISTRY["ghosts18"]
    assert MAX_NAME == 64
    assert names_problem(game, ["A" * 64, "Bob"]) is None
    problem = names_problem(game, ["A" * 65, "Bob"])
    assert problem is not None and "64" in str(problem)


async def test_a_table_at_this_machine_shows_no_turn_clock(tmp_path, store):
    service = GameService(store, seed_source=lambda: 5, pictures=False)
    web = await serve_board(service, local=True)
    page = Page(web.url)
    try:
        await page.get(f"/local/{web.board.signer.sign('local', {}, 60)}")
        _, made = await page.post(
            "/api/local/tables", {"game": "ghosts18", "players": "Ann,Bob", "options": ""}
        )
        shown = (await page.open(made["table"]))["page"]
        assert shown["status"] == "active" and shown["clock"] == ""
        _, refused = await page.post(
            "/api/local/tables", {"game": "ghosts18", "players": "A" * 65 + ",Bob"}
        )
        assert "64" in refused["error"]
    finally:
        await page.close()
        await web.close()
