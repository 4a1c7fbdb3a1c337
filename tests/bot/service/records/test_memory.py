"""The table's memory through the service: replay, history, logs, ratings, rematch, undo,
watching. A real SQLite file, seeded dice, pictures decoded frame by frame."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from bot.service import ChatRef, GameService, UserError, UserRef
from bot.service.base import buttons as B
from bot.service.records import replay_frames as replays
from engines import REGISTRY
from render import animation
from tests.bot.conftest import ANN, BOB, CHAT, CY, on_both

OTHER_SERVER = ChatRef("test", "chan-9", "", "guild-2")


async def play(service: GameService, chat: ChatRef, moves: int | None = None, seed: int = 7) -> int:
    """Play the game in `chat` with seeded random legal moves (to the end, or `moves`)."""
    rng = random.Random(seed)
    row = await service.live(chat)
    users = {s.user_id: UserRef(chat.platform, s.user_id, s.name) for s in row.seats}
    made = 0
    while moves is None or made < moves:
        row = await service.live(chat)
        if row is None:
            break
        game = REGISTRY[row.game]
        state = game.load(row.state)
        seat = game.to_act(state)[0]
        action = rng.choice(game.legal_actions(state, seat))
        await service.move(chat, users[row.seats[seat].user_id], action)
        made += 1
    return made


async def begin(service: GameService, game: str, chat: ChatRef = CHAT, players=(ANN, BOB)) -> int:
    await service.start(chat, players[0], game)
    for p in players[1:]:
        replies = await service.join(chat, p)
    row = await service.live(chat)
    if row.status == "lobby":
        replies = await service.begin(chat, players[0])
    return replies[0].session_id


def decoded(gif: bytes) -> list[Image.Image]:
    img = Image.open(io.BytesIO(gif))
    frames = []
    for i in range(img.n_frames):
        img.seek(i)
        frames.append(img.convert("RGB"))
    return frames


def quantised(img: Image.Image) -> Image.Image:
    return Image.open(io.BytesIO(animation.to_png(img))).convert("RGB")


def _without_viewer(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "viewer"}


# ----- replay ----------------------------------------------------------------------
async def test_replay_of_a_finished_game_has_a_frame_per_public_move_plus_one(service, drawn):
    sid = await begin(service, "hidden_castle")
    await play(service, CHAT)  # played without pictures; replayed with them
    row = await drawn.store.session(sid)
    assert row.status == "finished"
    log = await drawn.store.log(sid)
    moves = [e for e in log if e.seat >= 0]
    [reply] = await drawn.replay(CHAT)
    assert reply.picture.filename.endswith(".gif") and f"{len(moves)} moves" in reply.text
    frames = decoded(reply.picture.png)
    assert len(frames) == len(moves) + 1
    assert len(reply.picture.png) <= animation.MAX_BYTES
    assert frames[0].width == animation.GIF_WIDTH
    # frames are the public boards of their moment (a sample here; the next test checks
    # every frame of a game with hands)
    steps = replays.steps(REGISTRY["hidden_castle"], row, log)
    for i in (0, len(steps) // 2, len(steps) - 1):
        board = quantised(animation._board("hidden_castle", steps[i].view, animation.GIF_WIDTH))
        top = frames[i].crop((0, 0, board.width, board.height))
        assert ImageChops.difference(top, board).getbbox() is None
    assert steps[1].heading.startswith("Move 1 of") and steps[1].caption


async def test_no_frame_of_a_replay_shows_a_hand(service, drawn):
    """Haunted House deals hands: each frame is the public view, never a seat's."""
    game = REGISTRY["haunted_house"]
    await begin(service, "haunted_house")
    await play(service, CHAT, moves=8)
    row = await drawn.live(CHAT)
    [reply] = await drawn.replay(CHAT)
    assert "so far" in reply.text
    frames = decoded(reply.picture.png)
    log = await drawn.store.log(row.id)
    assert len(frames) == sum(1 for e in log if e.seat >= 0) + 1
    steps = replays.steps(game, row, log)
    # the same moments drawn from each seat's view (with its hand) differ from every frame
    state = game.setup([s.name for s in row.seats], row.options)
    seat_views = []
    entries = [e for e in log if e.seat >= -1]
    for entry in entries:
        if entry.seat >= 0:
            seat_views.append([game.view(state, p) for p in range(len(row.seats))])
        state, _ = game.apply(state, entry.seat, entry.action)
    seat_views.append([game.view(state, p) for p in range(len(row.seats))])
    public = [(s.view, s.heading, s.caption) for s in steps]
    expected = animation.frame_images("haunted_house", public, animation.GIF_WIDTH)
    checked = 0
    for i, frame in enumerate(frames):
        assert ImageChops.difference(frame, quantised(expected[i])).getbbox() is None
        for view in seat_views[i]:
            if _without_viewer(view) == _without_viewer(steps[i].view):
                continue
            board = animation._board("haunted_house", view, animation.GIF_WIDTH)
            top = frame.crop((0, 0, board.width, min(board.height, frame.height)))
            mine = quantised(board).crop((0, 0, top.width, top.height))
            assert ImageChops.difference(top, mine).getbbox() is not None
            checked += 1
    assert checked > 0  # there were hands to hide


async def test_replay_pages_board_by_board(service, drawn):
    sid = await begin(service, "hidden_castle")
    await play(service, CHAT, moves=3)
    [first] = await drawn.press(CHAT, CY, B.ReplayPage(sid, 0).data)  # anyone may watch
    assert "board 1 of 4" in first.text
    assert [c.label for c in first.choices] == ["Next"]
    [second] = await drawn.press(CHAT, CY, first.choices[0].data)
    assert "board 2 of 4" in second.text and "Move 1 of 3" in second.text
    assert [c.label for c in second.choices] == ["Previous", "Next"]
    [last] = await drawn.press(CHAT, ANN, B.ReplayPage(sid, 3).data)
    assert [c.label for c in last.choices] == ["Previous"]
    assert Image.open(io.BytesIO(last.picture.png)).format == "PNG"


async def test_replay_of_another_servers_game_is_refused(service):
    sid = await begin(service, "hidden_castle")
    with pytest.raises(UserError, match="no game"):
        await service.replay(OTHER_SERVER, str(sid))
    with pytest.raises(UserError, match="No game has been played here"):
        await service.replay(OTHER_SERVER)


# ----- history and logs ------------------------------------------------------------
@on_both
async def test_history_lists_ended_games_with_replay_and_log(service):
    first = await begin(service, "hidden_castle")
    await play(service, CHAT)
    second = await begin(service, "hidden_castle")
    await service.abort(CHAT, ANN)
    [reply] = await service.ended_games(CHAT)
    assert reply.text.index(f"#{second}") < reply.text.index(f"#{first}")
    assert "Ann, Bob" in reply.text and "ended unfinished" in reply.text
    assert "won by" in reply.text or "tie" in reply.text
    labels = [c.label for c in reply.choices]
    assert f"Replay #{first}" in labels and f"Log #{first}" in labels
    [other] = await service.ended_games(OTHER_SERVER)
    assert "No game has ended here" in other.text
    # the full log of the finished game, paged from the start
    [page] = await service.press(CHAT, CY, B.LogPage(first, 0).data)
    assert "page 1 of" in page.text and page.text.count("\n") == replays.LOG_PAGE
    assert [c.label for c in page.choices] == ["Next"]
    [named] = await service.game_log(CHAT, ANN, str(first))
    assert "Log of #" in named.text and "Previous" in [c.label for c in named.choices]


# ----- ratings -------------------------------------------------------------------
async def test_a_rated_game_moves_both_players_and_the_leaderboard(service, drawn):
    sid = await begin(service, "hidden_castle")
    await play(service, CHAT)
    row = await drawn.store.session(sid)
    ranking = row.result["ranking"]
    standings = await drawn.store.ratings_of("test", "guild-1", "hidden_castle", ["u-ann", "u-bob"])
    assert set(standings) == {"u-ann", "u-bob"}
    assert all(r.played == 1 for r in standings.values())
    if len(ranking) > 1:
        winner = row.seats[ranking[0][0]].user_id
        loser = row.seats[ranking[-1][0]].user_id
        shown = {u: r.mu - 3 * r.sigma for u, r in standings.items()}
        assert shown[winner] > shown[loser] and standings[winner].won == 1
    [top] = await drawn.top(CHAT, "hidden_castle")
    await top.drawn()  # the picture is drawn in its reader's language when delivered
    assert top.picture is not None and "Ann" in top.text and "Bob" in top.text
    [stats] = await drawn.stats(CHAT, ANN, "Bob")
    assert "Escape from the Hidden Castle" in stats.text or "Hidden Castle" in stats.text
    # another server's leaderboard never shows this server's games
    [elsewhere] = await drawn.top(OTHER_SERVER, "hidden_castle")
    assert "No game" in elsewhere.text and elsewhere.picture is None


async def test_final_board_says_the_rating_change_and_offers_rematch_and_replay(service):
    await begin(service, "hidden_castle")
    rng = random.Random(3)
    final = None
    while (row := await service.live(CHAT)) is not None:
        game = REGISTRY[row.game]
        state = game.load(row.state)
        seat = game.to_act(state)[0]
        user = [ANN, BOB][seat]
        replies = await service.move(CHAT, user, rng.choice(game.legal_actions(state, seat)))
        final = replies[0]
    assert final.final and "Ratings: Ann" in final.text
    assert [c.label for c in final.choices] == ["Rematch", "Replay", "Review"]


@on_both
async def test_aborted_and_bot_seat_games_change_no_rating(service):
    await begin(service, "hidden_castle")
    await play(service, CHAT, moves=4)
    await service.abort(CHAT, ANN)
    assert (
        await service.store.ratings_of("test", "guild-1", "hidden_castle", ["u-ann", "u-bob"]) == {}
    )
    # against a bot seat: the game ends by its rules but is not rated
    await service.start(CHAT, ANN, "hidden_castle", "bots=1")
    row = await service.live(CHAT)
    assert row.status == "active" and [s.kind for s in row.seats] == ["human", "ai"]
    rng = random.Random(5)
    final = None
    while (row := await service.live(CHAT)) is not None:
        game = REGISTRY[row.game]
        state = game.load(row.state)
        [seat] = game.to_act(state)
        assert seat == 0  # the bot has moved at once
        final = (await service.move(CHAT, ANN, rng.choice(game.legal_actions(state, 0))))[0]
    assert "Not rated: a seat was played by the bot" in final.text
    assert (
        await service.store.ratings_of("test", "guild-1", "hidden_castle", ["u-ann", "u-bob"]) == {}
    )
    # the rematch of a game alone against a bot: the same bot, at once
    [board] = await service.press(CHAT, ANN, final.choices[0].data)
    row = await service.live(CHAT)
    assert board.kind == "board" and [s.kind for s in row.seats] == ["human", "ai"]


async def test_cooperative_games_count_escapes_not_ratings(service):
    await begin(service, "dark_castle")
    await play(service, CHAT)
    standings = await service.store.ratings_of("test", "guild-1", "dark_castle", ["u-ann", "u-bob"])
    for r in standings.values():
        assert (r.mu, r.sigma) == (25.0, 25 / 3) and r.played == 1 and r.won + r.lost == 1
    [top] = await service.top(CHAT, "dark_castle")
    assert "Escaped" not in top.text  # the text lists rows; the picture has the header
    assert top.text.startswith("Dark Castle")


# ----- rematch -------------------------------------------------------------------
@on_both
async def test_rematch_starts_when_every_player_pressed(service):
    sid = await begin(service, "hidden_castle")
    await play(service, CHAT)
    with pytest.raises(UserError, match="Only the players"):
        await service.press(CHAT, CY, B.Rematch(sid).data)
    [lobby] = await service.press(CHAT, BOB, B.Rematch(sid).data)
    assert lobby.kind == "lobby" and "waiting for Ann" in lobby.text
    with pytest.raises(UserError, match="already have a seat"):
        await service.press(CHAT, BOB, B.Rematch(sid).data)
    [board] = await service.press(CHAT, ANN, B.Rematch(sid).data)
    assert board.kind == "board"
    row = await service.live(CHAT)
    old = await service.store.session(sid)
    assert row.id != sid and row.status == "active" and row.options == old.options
    assert {s.user_id for s in row.seats} == {"u-ann", "u-bob"}
    assert row.clock["pace"] == old.clock["pace"]


# ----- undo ----------------------------------------------------------------------
async def _to_move_without_chance(service: GameService):
    """Ghosts18: placing ghosts involves no chance and no hidden card."""
    sid = await begin(service, "ghosts18")
    row = await service.live(CHAT)
    game = REGISTRY[row.game]
    state = game.load(row.state)
    action = game.legal_actions(state, 0)[0]
    await service.move(CHAT, ANN, action)
    return sid


@on_both
async def test_undo_accepted_takes_the_move_back_and_marks_it(service):
    sid = await _to_move_without_chance(service)
    before = await service.store.log(sid)
    [ask] = await service.ask_undo(CHAT, ANN)
    assert [c.label for c in ask.choices] == ["Accept undo", "Decline"]
    with pytest.raises(UserError, match="other players"):
        await service.press(CHAT, ANN, ask.choices[0].data)
    [board] = await service.press(CHAT, BOB, ask.choices[0].data)
    assert board.kind == "board" and "taken back" in board.text and board.mention == [ANN]
    log = await service.store.log(sid)
    assert [e.undone for e in log if e.seat >= 0] == [True]
    assert len(log) == len(before) + 1  # the move is kept, marked, with a note
    row = await service.live(CHAT)
    game = REGISTRY[row.game]
    assert game.to_act(game.load(row.state)) == [0]
    steps = replays.steps(game, row, log)
    assert len(steps) == 1  # the replay skips it
    [page] = await service.game_log(CHAT, ANN, str(sid))
    assert "(taken back)" in page.text


async def test_undo_declined_or_timed_out_or_overtaken(store):
    now = [1000.0]
    service = GameService(store, seed_source=lambda: 1234, pictures=False, clock=lambda: now[0])
    sid = await _to_move_without_chance(service)
    [ask] = await service.ask_undo(CHAT, ANN)
    [no] = await service.press(CHAT, BOB, ask.choices[1].data)
    assert "declines" in no.text
    with pytest.raises(UserError, match="no longer open"):
        await service.press(CHAT, BOB, ask.choices[0].data)
    [ask] = await service.ask_undo(CHAT, ANN)
    now[0] += 3 * 3600  # past the table's reaction time (2 hours at the normal pace)
    with pytest.raises(UserError, match="timed out"):
        await service.press(CHAT, BOB, ask.choices[0].data)
    assert all(not e.undone for e in await service.store.log(sid))
    # once the next player has acted, the move stands
    row = await service.live(CHAT)
    game = REGISTRY[row.game]
    await service.move(CHAT, BOB, game.legal_actions(game.load(row.state), 1)[0])
    with pytest.raises(UserError, match="has acted since"):
        await service.ask_undo(CHAT, ANN)


async def test_undo_refused_after_a_die_roll(service):
    """Hidden Castle: a move followed by a die roll cannot be taken back."""
    await begin(service, "hidden_castle")
    for _ in range(60):
        row = await service.live(CHAT)
        log = await service.store.log(row.id)
        live = [e for e in log if e.seat >= -1]
        if live and live[-1].seat == -1 and any(e.seat >= 0 for e in live):
            break
        game = REGISTRY[row.game]
        state = game.load(row.state)
        seat = game.to_act(state)[0]
        await service.move(CHAT, [ANN, BOB][seat], game.legal_actions(state, seat)[0])
    mover = next(e for e in reversed(live) if e.seat >= 0).seat
    with pytest.raises(UserError, match="die roll or a card draw"):
        await service.ask_undo(CHAT, [ANN, BOB][mover])


async def test_undo_refused_after_a_hidden_draw(service):
    """Haunted House: drawing from the deck is a chance node that shows a card to the
    drawer only; the move that drew cannot be taken back."""
    await begin(service, "haunted_house")
    found = False
    rng = random.Random(2)
    for _ in range(80):
        row = await service.live(CHAT)
        log = await service.store.log(row.id)
        live = [e for e in log if e.seat >= -1]
        last_chance = live[-1].seat == -1 and any(e.seat >= 0 for e in live)
        private = any(ev.get("to") is not None for ev in live[-1].events)
        if last_chance and private:
            found = True
            break
        game = REGISTRY[row.game]
        state = game.load(row.state)
        seat = game.to_act(state)[0]
        await service.move(CHAT, [ANN, BOB][seat], rng.choice(game.legal_actions(state, seat)))
    assert found
    mover = next(e for e in reversed(live) if e.seat >= 0).seat
    with pytest.raises(UserError, match="cannot be taken back"):
        await service.ask_undo(CHAT, [ANN, BOB][mover])


# ----- watching ------------------------------------------------------------------
async def test_board_for_a_watcher_says_so_and_offers_the_replay(service):
    sid = await begin(service, "hidden_castle")
    replies = await service.board(CHAT, CY)
    assert replies[0].kind == "board"
    note = replies[1]
    assert note.to is None and "Cy, you are watching" in note.text
    assert note.choices[0].data == B.Replay(sid).data
    assert len(await service.board(CHAT, ANN)) == 1


def test_a_replay_too_large_is_drawn_smaller_then_sampled(monkeypatch):
    game = REGISTRY["hidden_castle"]
    state = game.setup(["Ann", "Bob"], {})
    frames = [(game.view(state, None), f"Move {i}", "Ann moves.") for i in range(5)]
    full, shown = animation.replay_gif("hidden_castle", frames)
    assert shown == 5 and Image.open(io.BytesIO(full)).width == animation.GIF_WIDTH
    # a cap the full drawing exceeds: smaller frames first, all of them still there
    smaller, shown = animation.replay_gif("hidden_castle", frames, max_bytes=len(full) - 1)
    img = Image.open(io.BytesIO(smaller))
    assert shown == img.n_frames == 5 and img.width < animation.GIF_WIDTH
    assert len(smaller) < len(full)
    # an impossible cap: the smallest drawing, and boards left out (first and last kept)
    tiny, shown = animation.replay_gif("hidden_castle", frames, max_bytes=1000)
    assert Image.open(io.BytesIO(tiny)).width == animation.MIN_WIDTH and shown == 2
    # a very long game shows at most MAX_FRAMES boards
    monkeypatch.setattr(animation, "MAX_FRAMES", 3)
    _, shown = animation.replay_gif("hidden_castle", frames)
    assert shown == 3
