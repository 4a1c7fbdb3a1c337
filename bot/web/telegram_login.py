"""Telegram Mini App sign-in: the `initData` a Mini App is opened with, checked as Telegram
specifies (core.telegram.org/bots/webapps, "Validating data received via the Mini App").

The data-check-string is every received field but `hash`, as `key=value` lines sorted
by key; its HMAC-SHA256 under the key HMAC-SHA256("WebAppData", bot token) must equal
`hash` (compared in constant time). `auth_date` must be recent (`MAX_AGE`): the same
initData comes back while the Mini App is reloaded, so freshness, not one use, is what
bounds a copied one. Data signed for another bot fails the check like a forgery.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

from bot.service import UserError, UserRef
from languages import msg

MAX_AGE = 24 * 3600  # seconds an initData is taken after Telegram signed it
SKEW = 300  # seconds an auth_date may lie in the future (clocks differ)
NOT_TELEGRAM = msg(
    "This sign-in did not come from Telegram for this bot; open the board from the bot's button again."
)
TOO_OLD = msg("This Telegram sign-in is too old; close the board and open it again from the chat.")


@dataclass(frozen=True)
class TelegramLogin:
    user: UserRef
    start_param: str  # what a t.me/<bot>/<app>?startapp=<param> link carried ("" if none)
    auth_date: int


def data_check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def sign(fields: dict[str, str], bot_token: str) -> str:
    """The `hash` Telegram would give these fields (tests sign genuine data with it)."""
    key = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    return hmac.new(key, data_check_string(fields).encode(), hashlib.sha256).hexdigest()


def check_init_data(
    init_data: str, bot_token: str, now: float, max_age: float = MAX_AGE
) -> TelegramLogin:
    """The user an initData proves; UserError (changing nothing) when it is forged, for
    another bot, malformed or too old."""
    if not isinstance(init_data, str) or not init_data or len(init_data) > 8192:
        raise UserError(NOT_TELEGRAM, reason="forged")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError as exc:
        raise UserError(NOT_TELEGRAM, reason="forged") from exc
    fields = dict(pairs)
    if len(fields) != len(pairs) or not bot_token:
        raise UserError(NOT_TELEGRAM, reason="forged")
    given = fields.get("hash", "")
    if not hmac.compare_digest(given.encode(), sign(fields, bot_token).encode()):
        raise UserError(NOT_TELEGRAM, reason="forged")
    auth_date = fields.get("auth_date", "")
    if (
        not (auth_date.isascii() and auth_date.isdigit())
        or len(auth_date) > 12
        or int(auth_date) > now + SKEW
    ):
        raise UserError(NOT_TELEGRAM, reason="forged")
    if now - int(auth_date) > max_age:
        raise UserError(TOO_OLD, reason="expired")
    try:
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError) as exc:
        raise UserError(NOT_TELEGRAM, reason="forged") from exc
    name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip()
    name = name or str(user.get("username") or user_id)
    return TelegramLogin(
        UserRef("telegram", str(user_id), name), fields.get("start_param", ""), int(auth_date)
    )
