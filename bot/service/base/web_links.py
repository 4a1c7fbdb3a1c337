"""Signed web tokens: the personal link `/escape web` sends, the session a page keeps, and
a table's spectator link. Signed with HMAC-SHA256 by the server's web secret, so the
server keeps no list of them; each says what it is for, whom and which table it names,
and until when it holds. A personal link opens once (its nonce is claimed in the store,
so a second use is refused in every process); a session lasts a week.

Nothing secret rides in a token: a user id, a display name and a table number. The
secret itself never leaves the server and never reaches a log line (Settings.secrets).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.service.base.requests import UserError, UserRef
from engines.text import command
from languages import msg

LINK_SECONDS = 15 * 60  # a personal link must be opened within this
SESSION_SECONDS = 7 * 24 * 3600  # then the page's session lasts this
PICTURE_SECONDS = 3600  # a picture's address holds this long (a page is pushed new ones)
LOCAL = "local"  # the user id of a local session: the person at this machine

FORGED = msg(
    "This link or sign-in is not one of ours (it was altered or is for another server). Ask for a new one with {web}.",
    web=command("web"),
)
EXPIRED = msg("This link has expired. Ask for a new one with {web}.", web=command("web"))
USED = msg(
    "This link was opened already; each opens once. Ask for a new one with {web}.",
    web=command("web"),
)

WEB_OFF = msg(
    "The web board is not turned on for this bot (its operator sets ESCAPE_WEB and ESCAPE_PUBLIC_URL)."
)


@dataclass(frozen=True)
class WebSession:
    """Who a page has proved to be: a user of the platform their tables live on, or the
    person at this machine (`local`: may play the terminal's local players)."""

    user: UserRef
    expires: float

    @property
    def local(self) -> bool:
        return self.user.id == LOCAL


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class WebSigner:
    """Signs with one key and accepts what any of its keys signed: while the key is
    rotated (bot/service/web/web_keys.py), links and sessions signed by the key before
    still open, and a key made by another process is accepted before this one signs
    with it."""

    def __init__(
        self, secret: bytes, clock: Callable[[], float] = time.time, also: Sequence[bytes] = ()
    ) -> None:
        self.now = clock
        self.use(secret, also)

    def use(self, secret: bytes, also: Sequence[bytes] = ()) -> None:
        """Sign with `secret` from now on; accept what it or any of `also` signed."""
        if any(len(key) < 16 for key in (secret, *also)):
            raise ValueError("the web secret must be at least 16 bytes")
        self._secret = secret
        self._keys = (secret, *(key for key in also if key != secret))

    def _mac(self, purpose: str, body: str, key: bytes | None = None) -> str:
        key = self._secret if key is None else key
        return _b64(hmac.new(key, f"{purpose}.{body}".encode(), hashlib.sha256).digest())

    def _signed(self, purpose: str, body: str, mac: str) -> bool:
        """Signed by one of the keys (each compared in constant time)."""
        found = False
        for key in self._keys:
            found |= hmac.compare_digest(mac.encode(), self._mac(purpose, body, key).encode())
        return found

    def sign(self, purpose: str, fields: dict, seconds: float) -> str:
        payload = dict(fields, exp=int(self.now() + seconds))
        body = _b64(json.dumps(payload, separators=(",", ":"), sort_keys=True).encode())
        return f"{body}.{self._mac(purpose, body)}"

    def read(self, token: str, purpose: str) -> dict:
        """The fields of a token signed for `purpose`; UserError when forged or expired."""
        if not isinstance(token, str) or token.count(".") != 1 or len(token) > 2048:
            raise UserError(FORGED, reason="forged")
        body, mac = token.split(".")
        if not self._signed(purpose, body, mac):
            raise UserError(FORGED, reason="forged")
        try:
            fields = json.loads(_unb64(body))
        except ValueError as exc:
            raise UserError(FORGED, reason="forged") from exc
        if not isinstance(fields, dict) or not isinstance(fields.get("exp"), int):
            raise UserError(FORGED, reason="forged")
        if fields["exp"] < self.now():
            raise UserError(EXPIRED, reason="expired")
        return fields

    # ----- what the web board signs ------------------------------------------------------
    def link(self, user: UserRef, session_id: int) -> str:
        """A personal link's token: this user, this table, once, for a while."""
        fields = {
            "p": user.platform,
            "u": user.id,
            "n": user.name,
            "t": session_id,
            "k": secrets.token_urlsafe(12),
        }
        return self.sign("link", fields, LINK_SECONDS)

    def tournament_link(self, user: UserRef, tournament_id: int) -> str:
        """A personal link to a tournament's page: this user, once, for a while (a token
        of its own kind: it never opens a table)."""
        fields = {
            "p": user.platform,
            "u": user.id,
            "n": user.name,
            "t": tournament_id,
            "k": secrets.token_urlsafe(12),
        }
        return self.sign("tlink", fields, LINK_SECONDS)

    def session(self, user: UserRef, seconds: float = SESSION_SECONDS) -> str:
        return self.sign("session", {"p": user.platform, "u": user.id, "n": user.name}, seconds)

    def read_session(self, token: str) -> WebSession:
        fields = self.read(token, "session")
        return WebSession(_user(fields), float(fields["exp"]))

    def watch(self, session_id: int) -> str:
        """A table's spectator key: the same for every spectator, unguessable, and good only
        for the public view of that one table."""
        return self._mac("watch", str(int(session_id)))[:22]

    def valid_watch(self, session_id: int, key: str) -> bool:
        if not isinstance(key, str) or len(key) >= 64:
            return False
        found = False
        for signing in self._keys:
            made = self._mac("watch", str(int(session_id)), signing)[:22]
            found |= hmac.compare_digest(key.encode(), made.encode())
        return found

    def picture(self, ticket: PictureTicket, seconds: float = PICTURE_SECONDS) -> str:
        """A picture's address: signed for its table, version and language, and a private
        view's for its seat and viewer (it then also needs that viewer's session)."""
        fields = {"t": ticket.table, "v": ticket.version, "l": ticket.language}
        if ticket.seat is not None and ticket.viewer is not None:
            fields |= {"s": ticket.seat, "p": ticket.viewer.platform, "u": ticket.viewer.id}
        return self.sign("picture", fields, seconds)

    def read_picture(self, token: str) -> PictureTicket:
        fields = self.read(token, "picture")
        table, version, language = fields.get("t"), fields.get("v"), fields.get("l")
        seat = fields.get("s")
        if not (isinstance(table, int) and isinstance(version, int) and isinstance(language, str)):
            raise UserError(FORGED, reason="forged")
        if seat is None:
            return PictureTicket(table, version, language)
        if not isinstance(seat, int):
            raise UserError(FORGED, reason="forged")
        viewer = UserRef(str(fields.get("p", "")), str(fields.get("u", "")), "")
        return PictureTicket(table, version, language, seat, viewer)


@dataclass(frozen=True)
class PictureTicket:
    """What a picture's address names: the public board (no seat) or one seat's view,
    which only `viewer` may load."""

    table: int
    version: int
    language: str
    seat: int | None = None
    viewer: UserRef | None = None


def _user(fields: dict) -> UserRef:
    try:
        return UserRef(str(fields["p"]), str(fields["u"]), str(fields["n"]))
    except KeyError as exc:
        raise UserError(FORGED, reason="forged") from exc


def link_fields(fields: dict) -> tuple[UserRef, int, str]:
    """(user, table or tournament, nonce) of a personal link's fields."""
    table, nonce = fields.get("t"), fields.get("k")
    if not isinstance(table, int) or not isinstance(nonce, str):
        raise UserError(FORGED, reason="forged")
    return _user(fields), table, nonce


@dataclass(frozen=True)
class WebDoor:
    """The web board, as its front end tells the service when it starts: where the pages
    are (the public origin) and the signer of its links."""

    base: str  # e.g. https://escape.example.org, without a trailing slash
    signer: WebSigner
