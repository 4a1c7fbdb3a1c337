"""Issue 26: one whole game of each of the five games at a German table, through the
service and delivery: every message, button, caption and alt text the players read is
German (no word only English says is left; names and the typed move syntax allowed), and
so are the rules, the help, the log and the replay's captions."""

from __future__ import annotations

import random
import re

import pytest

from bot.delivery import Asked, Delivery
from bot.service import Call, UserError, UserRef
from languages import say
from tests.bot.conftest import CHAT
from tests.bot.recording_transport import RecordingTransport
from tests.german_words import english_left

GAMES = {
    "ghosts18": "variant=short",
    "haunted_house": "",
    "hidden_castle": "",
    "castle_doors": "",
    "dark_castle": "",
}
NAMES = {"ann", "bob"}
# German players: what each reads alone follows their app, German too
ANN = UserRef("test", "u-ann", "Ann", language="de")
BOB = UserRef("test", "u-bob", "Bob", language="de")


def _syntax(actions) -> set[str]:
    """The words of the moves as players type them: the same in every language."""
    return {w.lower() for a in actions for w in re.findall(r"[A-Za-z]{3,}", a)}


async def _said(via: RecordingTransport) -> list[tuple[str, str]]:
    out = []
    for shown in via.shown:
        reply = shown.reply
        out.append(
            ("text", str.__str__(reply.text) if isinstance(reply.text, str) else str(reply.text))
        )
        out += [("button", label) for label in shown.labels]
        if reply.picture is not None:
            out.append(("alt text", reply.picture.alt))
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_whole_game_at_a_german_table_reads_german(service, game):
    await service.store.set_chat_language("test", CHAT.chat, "", "de")
    via, delivery = RecordingTransport(), Delivery(service, "test")
    await delivery.deliver(CHAT, await service.start(CHAT, ANN, game, GAMES[game]), via, Asked(ANN))
    await delivery.deliver(CHAT, await service.join(CHAT, BOB), via, Asked(BOB))
    if (await service.live(CHAT)).status == "lobby":
        await delivery.deliver(CHAT, await service.begin(CHAT, ANN), via, Asked(ANN))
    rng, typed, refusals = random.Random(7), set(), []
    for _ in range(1500):
        row = await service.live(CHAT)
        if row is None or row.status != "active":
            break
        moved = False
        for user in (ANN, BOB):
            choices = await service.choices(CHAT, user)
            if not choices:
                continue
            typed |= _syntax(a for a, _ in choices)
            action, _ = rng.choice(choices)
            if rng.random() < 0.05:  # now and then a refused move, said to its player
                with pytest.raises(UserError) as refused:
                    await service.move(CHAT, user, "fly away")
                refusals.append(say(refused.value.msg, "de"))
            plan = await service.move(CHAT, user, action)
            await delivery.deliver(CHAT, plan, via, Asked(user))
            for viewer in (ANN, BOB):
                if rng.random() < 0.1:
                    await delivery.deliver(CHAT, await service.private_view(CHAT, viewer), via)
            moved = True
            break
        assert moved, "somebody can always act in a running game"
    else:  # random players wander (Castle Doors): the game ends by its creator's abort
        plan = await service.run_command("abort", Call(CHAT, ANN, {}))
        await delivery.deliver(CHAT, plan, via, Asked(ANN))
        assert (await service.live(CHAT)) is None
    for name in ("rules", "help", "log", "games", "clock", "language"):
        plan = await service.run_command(
            name, Call(CHAT, ANN, {"game": game} if name == "rules" else {})
        )
        await delivery.deliver(CHAT, plan, via, Asked(ANN))
    said = await _said(via) + [("refusal", r) for r in refusals]
    assert said and {s.reply.language for s in via.shown} == {"de"}, [
        (s.where, s.reply.kind, str(s.reply.text)[:80])
        for s in via.shown
        if s.reply.language != "de"
    ][:5]
    options = service.game(game).options  # typed as they are: `cult=on`
    allowed = (
        NAMES
        | typed
        | {game.lower(), "fly", "away"}
        | {w for name, o in options.items() for w in (name, *o.choices)}
    )
    left = [
        (kind, text[:160], words) for kind, text in said if (words := english_left(text, allowed))
    ]
    assert not left, f"{len(left)} texts keep English, e.g. {left[:5]}"
