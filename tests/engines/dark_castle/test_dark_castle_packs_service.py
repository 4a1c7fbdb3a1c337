"""Dark Castle's packs through the chat service: each pack on its own and everything mixed,
played by the buttons under each board to an end, with each pack's mechanics met on the way."""

from __future__ import annotations

import pytest

from bot.service import ChatRef, GameService, UserRef
from bot.service.base.buttons import parse
from bot.store import Store
from engines.dark_castle import cards
from tests.dark_castle_party import PACKS, G, Seen, party_choice, steer
from tests.engines.dark_castle.test_dark_castle_helpers import set_char, started

CHAT = ChatRef("test", "castle-packs", "", "guild-1")
USERS = [UserRef("test", "u-ann", "Ann"), UserRef("test", "u-bob", "Bob")]


def pressed(board, seat: int, action: str, legal: list[str], user: UserRef) -> str:
    """The button data of `action` for `seat` under `board`: it is there, for that player,
    labelled as the engine describes it."""
    index = legal.index(action)
    (choice,) = [
        c
        for c in board.choices
        if c.data.startswith("a:") and (parse(c.data).seat, parse(c.data).index) == (seat, index)
    ]
    assert choice.for_user == user.id
    return choice.data


async def play_pack(tmp_path, monkeypatch, pack: str) -> tuple[object, object, Seen, list]:
    cfg = PACKS[pack]
    hook = steer(monkeypatch, cfg["deck"])
    store = await Store.open(tmp_path / f"{pack}.sqlite3", busy_timeout=0.2)
    seen = Seen()
    texts: list[str] = []
    try:
        service = GameService(store, seed_source=lambda: cfg["seed"], pictures=False)
        await service.start(CHAT, USERS[0], "dark_castle", cfg["options"])
        await service.join(CHAT, USERS[1])
        (board, *_) = await service.begin(CHAT, USERS[0])
        for _ in range(400):
            row = await store.session(board.session_id)
            s = G.load(row.state)
            seen.note(G.view(s, None))
            texts.append(board.text)
            if board.final:
                break
            seat, action = party_choice(s, cfg["picks"])
            data = pressed(board, seat, action, G.legal_actions(s, seat), USERS[seat])
            (board, *_) = await service.press(CHAT, USERS[seat], data)
        else:
            raise AssertionError(f"the {pack} castle did not end in 400 moves")
        assert hook.drawn == list(cfg["deck"]), "every steered card came up"
        return board, row, seen, texts
    finally:
        await store.close()


@pytest.mark.parametrize("pack", list(PACKS))
async def test_each_pack_alone_and_all_mixed_to_an_end_by_buttons(tmp_path, monkeypatch, pack):
    """Issue 16, done when: "A party can play each pack on its own and all of it mixed,
    through the service ... with every supplement mechanic above reachable"."""
    board, row, seen, texts = await play_pack(tmp_path, monkeypatch, pack)
    state = G.load(row.state)
    assert row.status == "finished" and state.outcome in ("won", "lost")
    assert [c.label for c in board.choices] == ["Rematch", "Replay", "Review"]
    assert G.result(state).summary in board.text
    options = dict(pair.split("=") for pair in PACKS[pack]["options"].split())
    assert {name: state.opts[name] for name in options} == options
    packs = {name for name, value in options.items() if value == "on"}
    chapters = {cards.CHAPTERS[c]["set"] for c in state.used}
    if options.get("castle") == "pack":  # a pack alone: only its chapters, its own boss
        assert chapters <= (packs & {"cult", "undead", "plague"} or {"core"})
    else:
        assert chapters <= {"core", "cult", "undead", "plague"} and len(chapters) > 1
    said = "\n".join(texts)
    if {"cult"} & packs:  # Cult of the Death Knight: a curse drawn, and it stays beside them
        assert seen.curse and "Curse" in said
    if "cult" in packs and pack == "cult":
        assert seen.marked, "Marked for Death came up"
    if "plague" in packs:  # Blight of the Plague Lord: plague tallies, the knapsack packed
        assert seen.plague >= 2 and seen.stored
        assert "plague" in said.lower() and "stows the" in said
    if "collector" in packs:  # Collector's Box: flaws dealt and used, the epilogue at the end
        assert seen.flaws_dealt and seen.flaw_used
        assert seen.epilogue and f"Epilogue: {seen.epilogue}" in board.text
        assert seen.death_dice, "death dice were rolled into an enemy's row"
        assert seen.death_faces & {"s", "mc", "mw", "cw"}, "a shield or a split face stood there"
        assert seen.stone, "the Living Stone was woken and its die rolled"
    drawers = [p for p in seen.prompts if p.startswith("Who draws the next item card")]
    if packs & {"cult", "plague"}:  # the group names who draws: told what lurks in the deck
        lurking = {"cult": "urses", "plague": "lague cards"}
        assert drawers and all(
            (lurking[name] in p) == (name in packs) for p in drawers for name in lurking
        )
    else:
        assert not drawers
    if "undead" in packs:  # Scourge of the Undead Queen: a companion joins from the deck
        assert seen.companion and " joins the party" in said
    if pack == "undead":  # and its relics: the Chalice's rite, a spell from the Spell Book
        assert seen.ritual and seen.spell and "The spell die: " in said
        assert state.outcome == "won", "one of these castles is escaped"


def test_an_item_named_with_the_reads_once_on_buttons_and_in_the_story():
    """A button's label and the story name an item card once: "the Living Stone", never
    "the The Living Stone" (a relic of the Collector's Box, packed into the plague pack's
    knapsack)."""
    s = started(options={"plague": "on", "collector": "on"})
    s = set_char(s, "smith", items=["knapsack", "stone"])
    legal = G.legal_actions(s, 0)
    assert G.describe(s, "stow stone") == "Put the Living Stone into the knapsack"
    s, events = G.apply(s, 0, "stow stone")
    assert [e.text for e in events] == ["P1 (Smith) stows the Living Stone."]
    assert G.describe(s, "unstow stone") == "Put the Living Stone out of the knapsack"
    assert "stow stone" in legal
