"""What the bot offers: the list of games, a game's rules with an illustration, the help."""

from __future__ import annotations

from bot.service import commands
from bot.service.drawing import draw_rules
from bot.service.plan import Reply
from bot.service.workers import CpuPool
from engines import REGISTRY, Game

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


async def rules(game: Game, cpu: CpuPool, *, pictures: bool) -> Reply:
    picture = await cpu.run(draw_rules, game.id) if pictures else None
    return Reply(game.rules_text, kind="rules", picture=picture)
