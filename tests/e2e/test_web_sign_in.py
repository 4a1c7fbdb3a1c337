"""The apps' doors to the web board: Telegram's initData (genuine, forged, expired, signed
for another bot) checked as Telegram specifies, and a Discord Activity's code exchanged at
the stand-in Discord's OAuth2 endpoint (code, token, @me; a refused code), each ending in a
session that shows that user their own seat, and an Activity's channel naming its table."""

from __future__ import annotations

import json
import time
from urllib.parse import urlencode

import pytest

from bot.service import ChatRef, GameService, UserError, UserRef
from bot.store import Store
from bot.web.telegram_login import check_init_data, sign
from tests.bot.web_fixtures import TG_ANN, TG_BOB, TG_GROUP, TG_TOKEN, Page, serve_board
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN, CHANNEL
from tests.e2e.discord_standin import APP_ID


def init_data(
    user_id: int, name: str, *, token: str = TG_TOKEN, age: float = 0, start: str = ""
) -> str:
    fields = {
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps({"id": user_id, "first_name": name, "language_code": "en"}),
        "auth_date": str(int(time.time() - age)),
        "signature": "an-ed25519-signature-kept-in-the-check",
    }
    if start:
        fields["start_param"] = start
    fields["hash"] = sign(fields, token)
    return urlencode(fields)


def test_genuine_init_data_names_the_user_and_the_table():
    login = check_init_data(init_data(1001, "Ann", start="7"), TG_TOKEN, time.time())
    assert login.user == UserRef("telegram", "1001", "Ann") and login.start_param == "7"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (init_data(1001, "Ann").replace("Ann", "Bob"), "did not come from Telegram"),  # forged
        (init_data(1001, "Ann", age=2 * 86400), "too old"),  # expired
        (init_data(1001, "Ann", token="7000002:ANOTHER-BOT"), "did not come from Telegram"),
        ("user=%7B%7D&auth_date=1&hash=00", "did not come from Telegram"),
        ("", "did not come from Telegram"),
    ],
    ids=["forged", "expired", "another bot", "junk hash", "empty"],
)
def test_refused_init_data(data, words):
    with pytest.raises(UserError, match=words):
        check_init_data(data, TG_TOKEN, time.time())


@pytest.fixture
async def web(tmp_path, standin):
    store = await Store.open(tmp_path / "web.sqlite3")
    service = GameService(store, seed_source=lambda: 1234, pictures=False)
    running = await serve_board(
        service,
        discord_client_id=str(APP_ID),
        discord_client_secret=standin.client_secret,
        discord_api=standin.api_base,
    )
    page = Page(running.url)
    yield running, page
    await page.close()
    await running.close()
    await store.close()


async def test_a_mini_app_signs_in_with_init_data_and_sees_its_own_seat(web):
    running, page = web
    service = running.service
    await service.start(TG_GROUP, TG_ANN, "ghosts18", "variant=short")
    await service.join(TG_GROUP, TG_BOB)
    sid = (await service.live(TG_GROUP)).id
    status, refused = await page.post(
        "/api/auth/telegram", {"init_data": init_data(1001, "Ann", token="1:other")}
    )
    assert status == 401 and "did not come from Telegram" in refused["error"]
    status, signed = await page.post(
        "/api/auth/telegram", {"init_data": init_data(1001, "Ann", start=str(sid))}
    )
    assert status == 200 and signed["table"] == sid and signed["name"] == "Ann"
    page.token = signed["token"]
    _, table = await page.get(f"/api/tables/{sid}")
    assert table["seat"] == 0 and table["you"] == "Ann"


async def test_an_activity_exchanges_its_code_and_finds_its_channels_table(web, standin):
    running, page = web
    service = running.service
    chat = ChatRef("discord", str(CHANNEL), "", "910000000000000001")
    ann = UserRef("discord", ANN["id"], "Ann")
    await service.start(chat, ann, "ghosts18", "variant=short")
    sid = (await service.live(chat)).id
    status, refused = await page.post("/api/auth/discord", {"code": "never-issued"})
    assert status == 401 and "did not accept" in refused["error"]
    standin.oauth_codes["code-1"] = ANN
    status, signed = await page.post("/api/auth/discord", {"code": "code-1"})
    assert (
        status == 200 and signed["name"] == "Ann" and signed["access_token"].startswith("access-")
    )
    status, _ = await page.post("/api/auth/discord", {"code": "code-1"})  # a code works once
    assert status == 401
    page.token = signed["token"]
    status, found = await page.get(f"/api/discord/channels/{CHANNEL}")
    assert status == 200 and found == {"table": sid}
    _, table = await page.get(f"/api/tables/{sid}")
    assert table["seat"] == 0 and table["status"] == "lobby"
    assert [m["label"] for m in table["shared"]] == ["Leave", "Add a bot"]  # seated: no Join
    status, none_here = await page.get("/api/discord/channels/123")
    assert status == 404 and "No table" in none_here["error"]
