"""Discord Activity sign-in: the code the Embedded App SDK's `authorize` gave the page,
exchanged at Discord's OAuth2 token endpoint with the application's client id and secret,
then `GET /users/@me` with the access token names the user.

The API base is a setting (`DISCORD_API_BASE`, which the tests point at their stand-in);
the client secret goes only to Discord, never to a page or a log line. The access token
goes back to the page that asked, for the SDK's `authenticate` (it is that user's own).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import aiohttp

from bot.service import UserError, UserRef
from languages import msg

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"
REFUSED = msg("Discord did not accept this sign-in; close the Activity and open it again.")
UNREACHABLE = msg("Discord could not be reached to sign you in; try again in a moment.")


@dataclass(frozen=True)
class DiscordLogin:
    user: UserRef
    access_token: str


def api_base(configured: str) -> str:
    base = (configured or DISCORD_API).rstrip("/")
    return base if base.rsplit("/", 1)[-1].startswith("v") else base + "/v10"


async def exchange_code(
    http: aiohttp.ClientSession, base: str, client_id: str, client_secret: str, code: str
) -> DiscordLogin:
    if not client_id or not client_secret:
        raise UserError(
            msg(
                "The Discord Activity is not set up on this bot (DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET)."
            )
        )
    if not isinstance(code, str) or not 1 <= len(code) <= 200:
        raise UserError(REFUSED, reason="forged")
    form = {
        "client_id": client_id,
        "client_secret": client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }
    timeout = aiohttp.ClientTimeout(total=10)
    try:
        async with http.post(f"{base}/oauth2/token", data=form, timeout=timeout) as answer:
            body = await answer.json(content_type=None)
            if answer.status != 200 or not isinstance(body, dict) or "access_token" not in body:
                log.info("discord refused an activity code: %s", answer.status)
                raise UserError(REFUSED, reason="denied")
        token = str(body["access_token"])
        headers = {"Authorization": f"Bearer {token}"}
        async with http.get(f"{base}/users/@me", headers=headers, timeout=timeout) as answer:
            me = await answer.json(content_type=None)
            if answer.status != 200 or not isinstance(me, dict) or "id" not in me:
                raise UserError(REFUSED, reason="denied")
    except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
        raise UserError(UNREACHABLE, reason="unreachable") from exc
    name = me.get("global_name") or me.get("username") or str(me["id"])
    return DiscordLogin(UserRef("discord", str(me["id"]), str(name)), token)
