"""What the bot offers: the list of games, a game's rules with an illustration, the help."""

from __future__ import annotations

from bot.service.base.command_words import GAME
from bot.service.base.delivery_plan import Reply
from bot.service.pictures.drawing import rules_on
from bot.service.pictures.workers import CpuPool
from engines import REGISTRY, Game
from engines.text import Msg, Text, command, joined, msg


def catalogue() -> Reply:
    lines: list[Text] = [msg("Games you can start with {start}:", start=command("start", GAME))]
    for game in REGISTRY.values():
        opts = "; ".join(
            f"{name}={'|'.join(opt.choices)}" for name, opt in sorted(game.options.items())
        )
        about = dict(
            id=game.id, game=msg(game.title), range=game.player_range(), summary=msg(game.summary)
        )
        if opts:
            lines.append(
                msg(
                    "- {id}: {game}, {range} players. {summary} Options: {options}.",
                    **about,
                    options=opts,
                )
            )
        else:
            lines.append(msg("- {id}: {game}, {range} players. {summary}", **about))
    return Reply(joined(lines, "\n"), kind="games")


def game_list() -> list[tuple[str, str]]:
    return [(game.id, game.title) for game in REGISTRY.values()]


def which_game(name: str) -> Msg:
    return msg(
        "Which game? Say {which}, one of: {games}.",
        games=", ".join(sorted(REGISTRY)),
        which=command(name, GAME),
    )


def rules_text(game: Game) -> Text:
    """The rules, a message a paragraph (each in the catalogues through `Game.texts`)."""
    return joined([Msg(p) for p in game.rules_paragraphs()], "\n\n")


async def rules(game: Game, cpu: CpuPool, *, pictures: bool) -> Reply:
    """The rules, with their illustration drawn in each reader's language as delivered."""

    async def draw(language: str):
        return await rules_on(cpu, game.id, language)

    return Reply(rules_text(game), kind="rules", later=draw if pictures else None)
