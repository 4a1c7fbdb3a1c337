"""What the bot offers: the list of games, a game's rules with an illustration, the help."""

from __future__ import annotations

import asyncio

from bot.service import commands
from bot.service.chance import draw
from bot.service.drawing import draw_on
from bot.service.plan import Reply
from bot.service.workers import CpuPool
from engines import CHANCE, REGISTRY, Game

MAX_CHANCE_STEPS = 10_000


def catalogue() -> Reply:
    lines = ["Games you can start with /escape start GAME:"]
    for game in REGISTRY.values():
        opts = "; ".join(
            f"{name}={'|'.join(opt.choices)}" for name, opt in sorted(game.options.items())
        )
        lines.append(
            f"- {game.id}: {game.title}, {game.player_range()} players. {game.summary}"
            + (f" Options: {opts}." if opts else "")
        )
    return Reply("\n".join(lines), kind="games")


def game_list() -> list[tuple[str, str]]:
    return [(game.id, game.title) for game in REGISTRY.values()]


def help_reply() -> Reply:
    return Reply(commands.help_text(), kind="help")


def which_game(command: str) -> str:
    return f"Which game? Say /escape {command} GAME, one of: {', '.join(sorted(REGISTRY))}."


def sample_view(game: Game) -> dict:
    """The public view of a game just set up, its first chance resolved (for the rules)."""
    names = [f"Player {i + 1}" for i in range(game.min_players)]
    state = game.setup(names, {})
    for position in range(MAX_CHANCE_STEPS):
        if game.to_act(state) != [CHANCE]:
            break
        state, _ = game.apply(state, CHANCE, draw(game.chance_outcomes(state), 1, position))
    return game.view(state, None)


async def rules(game: Game, cpu: CpuPool, *, pictures: bool) -> Reply:
    picture = None
    if pictures:
        view = await asyncio.to_thread(sample_view, game)
        picture = await draw_on(cpu, game.id, view, f"{game.id}-rules.png")
    return Reply(game.rules_text, kind="rules", picture=picture)
