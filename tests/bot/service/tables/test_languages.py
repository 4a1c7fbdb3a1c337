"""Who reads which language (issue 26): a table's language when it opens and when it is
changed, a person's own, and what delivery says in each. The pseudo-language `qps` marks
every translated text with brackets, so these checks do not depend on a translation."""

from __future__ import annotations

import json

import pytest

from bot.delivery import Asked, Delivery
from bot.service import ChatRef, UserError, UserRef
from bot.service.tables.board_plans import table_language
from languages import msg, say
from tests.bot.conftest import ANN, BOB, CHAT, CY
from tests.bot.recording_transport import RecordingTransport


def pseudo(text: str) -> bool:
    return (text.startswith("[") and text.endswith("]")) or "~]" in text


async def two_player_table(service, chat: ChatRef = CHAT) -> int:
    await service.start(chat, ANN, "ghosts18")
    [board] = await service.join(chat, BOB)
    return board.session_id


# ----- a table's language when it opens ------------------------------------------------
async def test_a_new_table_speaks_the_chats_setting_else_the_platforms_else_english(service):
    plain = ChatRef("test", "c-plain", "", "g")
    german_server = ChatRef("test", "c-de", "", "g", language="de-DE")
    chosen = ChatRef("test", "c-set", "", "g", language="de")
    await service.store.set_chat_language("test", "c-set", "", "qps")
    for chat in (plain, german_server, chosen):
        await service.start(chat, ANN, "ghosts18")
    spoken = [table_language(await service.live(c)) for c in (plain, german_server, chosen)]
    assert spoken == ["en", "de", "qps"]


async def test_a_telegram_group_speaks_the_language_of_whoever_opened_it(service):
    group = ChatRef("telegram", "-100", "", "-100")
    opener = UserRef("telegram", "7", "Ann", language="de")
    await service.start(group, opener, "ghosts18")
    assert table_language(await service.live(group)) == "de"
    # elsewhere a person's app language says nothing of the place
    await service.start(CHAT, UserRef("test", "u-ann", "Ann", language="de"), "ghosts18")
    assert table_language(await service.live(CHAT)) == "en"


# ----- /escape language --------------------------------------------------------------------
async def test_setting_a_running_tables_language_changes_its_next_board(service):
    sid = await two_player_table(service)
    plan = await service.language(CHAT, ANN, "qps")
    assert plan.language == "qps" and pseudo(say(plan[0].text, "qps"))
    row = await service.store.session(sid)
    assert table_language(row) == "qps"
    assert await service.store.chat_language("test", CHAT.chat, "") == "qps"  # the next table too

    via = RecordingTransport()
    delivery = Delivery(service, "test")
    seat = (
        row.seats[0]
        if row.seats[0].user_id in (row.clock or {}).get("waiting", [])
        else row.seats[1]
    )
    mover = ANN if seat.user_id == ANN.id else BOB
    actions = service.game("ghosts18").legal_actions(service.table.load(row).state, seat.seat)
    moved = await service.move(CHAT, mover, actions[0])
    await delivery.deliver(CHAT, moved, via, Asked(mover))
    boards = [s for s in via.public() if s.reply.kind == "board"]
    assert boards and all(pseudo(s.text) for s in boards), [s.text for s in boards]
    assert boards[-1].reply.language == "qps"


async def test_only_a_player_changes_a_running_tables_language(service):
    sid = await two_player_table(service)
    with pytest.raises(UserError, match=r"not playing|not a player|seated|players"):
        await service.language(CHAT, CY, "qps")
    assert table_language(await service.store.session(sid)) == "en"
    assert await service.store.chat_language("test", CHAT.chat, "") is None


async def test_an_unknown_language_is_refused_and_changes_nothing(service):
    sid = await two_player_table(service)
    with pytest.raises(UserError, match="no language 'xx'") as refused:
        await service.language(CHAT, ANN, "xx")
    assert "English (en)" in str(refused.value)
    assert table_language(await service.store.session(sid)) == "en"


async def test_a_bare_language_command_says_every_setting(service):
    await two_player_table(service)
    plan = await service.language(CHAT, ANN)
    text = str(plan[0].text)
    assert (
        plan.quiet
        and "This table speaks English (en)." in text
        and "Deutsch" not in text.split("Languages:")[0]
    )
    assert "Languages: English (en), German (de)" in text


# ----- a person's own language -------------------------------------------------------------
async def test_what_one_person_reads_follows_their_own_setting(service):
    await service.start(CHAT, ANN, "haunted_house")
    await service.join(CHAT, BOB)
    await service.begin(CHAT, ANN)
    own = await service.language(CHAT, ANN, "qps", "me")
    assert own.quiet and (await service.contact(ANN)).language == "qps"
    assert table_language(await service.live(CHAT)) == "en"  # the table is not theirs alone

    via = RecordingTransport()
    delivery = Delivery(service, "test")
    for user in (ANN, BOB):
        await delivery.deliver(CHAT, await service.private_view(CHAT, user), via)
    assert via.to(ANN) and {s.reply.language for s in via.to(ANN)} == {"qps"}
    assert via.to(BOB) and {s.reply.language for s in via.to(BOB)} == {"en"}

    back = await service.language(CHAT, ANN, "auto", "me")
    assert back.quiet and (await service.contact(ANN)).language == ""


async def test_an_answer_to_one_person_is_in_their_apps_language_the_chats_in_the_tables(service):
    await two_player_table(service)
    asker = UserRef(ANN.platform, ANN.id, ANN.name, language="qps")
    via = RecordingTransport()
    await Delivery(service, "test").deliver(
        CHAT, await service.board(CHAT, asker), via, Asked(asker)
    )
    assert via.public() and not any(pseudo(s.text) for s in via.public())
    help_plan = await service.language(CHAT, asker)  # a quiet answer: shown to the asker alone
    await Delivery(service, "test").deliver(CHAT, help_plan, via, Asked(asker))
    [answer] = [s for s in via.shown if s.where == "in place"]
    assert pseudo(answer.text.splitlines()[0])


async def test_the_language_a_person_was_last_seen_with_is_kept(service):
    await service.start(CHAT, UserRef(ANN.platform, ANN.id, ANN.name, language="de-AT"), "ghosts18")
    assert (await service.contact(ANN)).seen_language == "de"


# ----- old logs ----------------------------------------------------------------------------
async def test_a_log_reads_in_either_language_and_an_older_english_log_still_reads(service):
    sid = await two_player_table(service)
    row = await service.store.session(sid)
    seat = next(s for s in row.seats if s.user_id in row.clock.get("waiting", []))
    state = service.table.load(row).state
    mover = ANN if seat.user_id == ANN.id else BOB
    await service.move(CHAT, mover, service.game("ghosts18").legal_actions(state, seat.seat)[0])
    said = msg(
        "{name} places a {colour} ghost on {cell}.", name="Ann", colour=msg("blue"), cell="a1"
    )
    events = [
        {"text": str(said), "to": None, "kind": "info", "msg": said.to_json()},  # as logged now
        {"text": "Bob moved a ghost.", "to": None, "kind": "info"},  # before messages were
    ]

    async def rewrite(conn) -> None:
        await conn.execute(
            "UPDATE actions SET events = ? WHERE session_id = ?", (json.dumps(events), sid)
        )

    await service.store.write(rewrite)
    [log] = await service.game_log(CHAT, ANN)
    english, marked = say(log.text, "en").splitlines(), say(log.text, "qps").splitlines()
    assert "Ann places a blue ghost on a1." in english and "Bob moved a ghost." in english
    assert any(pseudo(line) and "Ann" in line and "a1" in line for line in marked)
    assert "Bob moved a ghost." in marked  # an old line keeps its English
