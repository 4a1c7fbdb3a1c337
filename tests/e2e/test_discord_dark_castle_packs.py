"""Dark Castle's packs through the real discord.py against the stand-in Discord: two members
open a castle with each pack on its own and all mixed, play it by the buttons and menus under
the board (typing /escape move for a choice the board had no room for) to its end, and meet
each pack's mechanics on the way, in the board's words and in the picture's alt text."""

from __future__ import annotations

import pytest

from tests.dark_castle_party import PACKS, Seen, party_choice, steer
from tests.dark_castle_party import G as DC
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN, BOB, CID, DiscordBot, Message, mentioned

PNG = b"\x89PNG\r\n\x1a\n"
USERS = [ANN, BOB]
TYPE_EVERY = 9  # every ninth move is typed as /escape move, the rest pressed


def press_target(board: Message, data: str) -> tuple[str, str, str | None] | None:
    """Where the service's button `data` sits under the board: a button, or a menu option."""
    for button in board.buttons():
        if button["custom_id"] == f"escape:{data}":
            return "button", button["custom_id"], None
    for menu in board.selects():
        for option in menu["options"]:
            if option["value"] == data:
                return "select", menu["custom_id"], data
    return None


async def open_castle(bot: DiscordBot, options: str) -> Message:
    start = await bot.slash(ANN, "start", {"game": "dark_castle", "options": options})
    (lobby,) = bot.answers(start)
    assert "Dark Castle" in lobby.content and not lobby.ephemeral
    join = next(b["custom_id"] for b in lobby.buttons() if b["label"] == "Join")
    await bot.click(BOB, lobby, join)
    lobby = bot.server.messages[lobby.id]
    begin = next(b["custom_id"] for b in lobby.buttons() if b["label"] == "Begin")
    await bot.click(ANN, lobby, begin)
    return bot.latest_board()


async def play_by_discord(bot: DiscordBot, pack: str, monkeypatch) -> tuple[Message, Seen, int]:
    cfg = PACKS[pack]
    hook = steer(monkeypatch, cfg["deck"])
    bot.seed = cfg["seed"]
    board = await open_castle(bot, cfg["options"])
    seen, typed = Seen(), 0
    for moves in range(400):
        row = await bot.service.store.session(1)
        state = DC.load(row.state)
        seen.note(DC.view(state, None))
        assert board.files and board.files[0][1].startswith(PNG), "every board is a picture"
        seen.alt_texts.append(board.attachments[0]["description"])
        if row.status == "finished":
            break
        seat, action = party_choice(state, cfg["picks"])
        user = USERS[seat]
        assert int(user["id"]) in mentioned(board), "the board calls whoever must act"
        index = DC.legal_actions(state, seat).index(action)
        target = press_target(board, f"a:1:{row.version}:{seat}:{index}")
        if target is None or moves % TYPE_EVERY == TYPE_EVERY - 1:  # typed, as a player may
            record = await bot.slash(user, "move", {"action": action})
            typed += 1
        elif target[0] == "button":
            record = await bot.click(user, board, target[1])
        else:
            record = await bot.choose(user, board, target[1], target[2])
        assert not [m for m in bot.answers(record) if m.ephemeral], "no move was refused"
        board = bot.latest_board()
    else:
        raise AssertionError(f"the {pack} castle did not end in 400 moves")
    assert hook.drawn == list(cfg["deck"])
    return board, seen, typed


@pytest.mark.parametrize("pack", list(PACKS))
async def test_each_pack_to_its_end_on_discord(discord_bot, monkeypatch, pack):
    """Issue 16, done when: each pack alone and all mixed "through ... both chat platforms,
    with every supplement mechanic above reachable and shown in the pictures"."""
    bot = discord_bot
    final, seen, typed = await play_by_discord(bot, pack, monkeypatch)
    assert typed >= 2, "typed moves were part of the game"
    state = DC.load((await bot.service.store.session(1)).state)
    assert state.outcome in ("won", "lost")
    assert DC.result(state).summary in final.content
    assert not mentioned(final) and [b["label"] for b in final.buttons()] == [
        "Rematch",
        "Replay",
        "Review",
    ]
    assert bot.public() == [final], "one board in the channel, nothing left behind"
    alt = "\n".join(seen.alt_texts)
    options = PACKS[pack]["options"]
    if "cult=on" in options:
        assert seen.curse and "; cursed: " in alt
    if "plague=on" in options:
        assert seen.plague >= 2 and f"; plague {seen.plague}" in alt
        assert seen.stored and "; in the knapsack: " in alt
    if "undead=on" in options:
        assert seen.companion and "; a companion, die: " in alt
    if pack == "undead":
        assert seen.ritual and "Blood ritual for the " in alt
        assert seen.spell and "holds the Spell Book" in alt
    if "collector=on" in options:
        assert seen.flaw_used and " (used)" in alt and "; flaw " in alt
        assert "Epilogue: " + seen.epilogue in seen.alt_texts[-1]
        assert "Epilogue: " in final.content
        faces = {"s": "Shield", "mc": "Might+Cunning", "mw": "Might+Wisdom", "cw": "Cunning+Wisdom"}
        assert seen.death_faces and all(faces[f] in alt for f in seen.death_faces)
        assert seen.stone and "The Living Stone last showed: " in alt


async def test_a_pack_game_keeps_its_answers_private(discord_bot):
    """Secrets and ephemeral rules hold in a pack game too: the private view, a refusal and
    an outsider's click are answered to the asker alone; the channel keeps one board."""
    bot = discord_bot
    board = await open_castle(bot, PACKS["mixed"]["options"])
    public = len(bot.public())
    version = (await bot.service.store.session(1)).version
    hand = await bot.slash(BOB, "hand")
    assert bot.answers(hand) and all(m.ephemeral for m in bot.answers(hand))
    bad = await bot.slash(ANN, "move", {"action": "stow knapsack"})
    (refusal,) = bot.answers(bad)
    assert refusal.ephemeral
    outsider = await bot.click(CID, board, board.buttons()[0]["custom_id"])
    (refusal,) = bot.answers(outsider)
    assert refusal.ephemeral and "not playing" in refusal.content
    assert len(bot.public()) == public
    assert (await bot.service.store.session(1)).version == version
