"""The web board's signing keys, kept with the data (the store's meta `web.keys`), so a
link, a session or a spectator link made before a restart opens after it, in every process
that shares the database.

Unless the operator sets ESCAPE_WEB_SECRET (one key of theirs, never rotated here), the
keys are a ring, oldest first, each with the time it was made:
- the first start writes the first key (the key derived from the chat tokens where there
  are tokens, which the release before signed with, so its links and sessions still open;
  a fresh random key otherwise, as at a tokenless `make run`);
- every `ROTATE` a process adds a new key (a compare-and-set: of two processes, one does);
  it is accepted at once by every process that has read it, and signs only `PUBLISH`
  later, when every process has (each reads the ring again every `REFRESH`), so nothing
  it signs is refused by a process that has not heard of it;
- a key still accepts what it signed for `KEEP` after its successor began to sign (longer
  than any token it signed lives: a session's week, a local link's day; a spectator link
  lasts as long), then it is dropped.
"""

from __future__ import annotations

import base64
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.service.base.web_links import SESSION_SECONDS, WebSigner
from bot.store import Store

log = logging.getLogger(__name__)

META = "web.keys"
DAY = 24 * 3600
ROTATE = 30 * DAY  # a new key this long after the newest was made
PUBLISH = 3600  # a new key accepted everywhere this long before it signs
REFRESH = 600  # each process reads the ring again this often
KEEP = 30 * DAY  # an old key accepts this long after its successor began to sign
assert KEEP >= SESSION_SECONDS and PUBLISH >= 3 * REFRESH


@dataclass(frozen=True)
class Ring:
    keys: tuple[tuple[bytes, float], ...]  # (key, made), oldest first

    def signing(self, now: float) -> bytes:
        """The newest key every process has had time to hear of (the first key of a new
        ring signs at once: nobody has heard of any other)."""
        ready = [key for key, made in self.keys if made + PUBLISH <= now]
        return ready[-1] if ready else self.keys[0][0]

    def accepting(self, now: float) -> list[bytes]:
        return [key for key, _ in self.keys]

    def due(self, now: float) -> bool:
        return self.keys[-1][1] + ROTATE <= now

    def rotated(self, now: float, new: bytes) -> Ring:
        """A new key added; the keys whose successor has signed for `KEEP` dropped."""
        kept = [
            (key, made)
            for (key, made), (_, after) in zip(self.keys, self.keys[1:], strict=False)
            if after + PUBLISH + KEEP > now
        ]
        return Ring((*kept, self.keys[-1], (new, now)))

    def dump(self) -> str:
        return json.dumps(
            [{"key": base64.b64encode(k).decode(), "made": round(m, 3)} for k, m in self.keys]
        )

    @staticmethod
    def load(text: str) -> Ring | None:
        """The ring as stored; None if it cannot be read (then a new one is written)."""
        try:
            keys = tuple(
                (base64.b64decode(k["key"], validate=True), float(k["made"]))
                for k in json.loads(text)
            )
        except (ValueError, TypeError, KeyError):
            return None
        if not keys or any(len(key) < 16 for key, _ in keys):
            return None
        return Ring(keys)


class WebKeys:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.now = clock
        self.first: bytes | None = None  # the key a new ring starts with (the derived one)

    async def ring(self) -> Ring:
        """The ring as stored, written first if there is none and rotated if it is due (by
        whichever process gets there first: the others read what it wrote)."""
        for _ in range(10):
            text = await self.store.get_meta(META)
            ring = Ring.load(text) if text is not None else None
            now = self.now()
            if ring is not None and not ring.due(now):
                return ring
            if ring is None and text is not None:
                log.warning("the web board's stored signing keys were unreadable: new ones made")
            if ring is not None:
                made = ring.rotated(now, secrets.token_bytes(32))
            else:
                made = Ring(((self.first or secrets.token_bytes(32), now),))
            stored = await self.store.replace_meta(META, text, made.dump())
            if stored == made.dump():
                return made
        raise RuntimeError("the web board's signing keys keep changing")

    async def signer(self, first: bytes | None) -> WebSigner:
        """A signer over the kept keys (`first`: the key a new ring starts with)."""
        self.first = first
        ring = await self.ring()
        now = self.now()
        return WebSigner(ring.signing(now), self.now, ring.accepting(now))

    async def refresh(self, signer: WebSigner) -> float:
        """The ring read again (rotated if due) and the signer told; the seconds until the
        next time."""
        ring = await self.ring()
        now = self.now()
        signer.use(ring.signing(now), ring.accepting(now))
        return REFRESH
