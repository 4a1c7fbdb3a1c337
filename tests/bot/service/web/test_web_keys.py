"""The web board's signing keys kept in the store (bot/service/web/web_keys.py): a second
process (a restart) signs and accepts with the same keys; a rotation adds a key that is
accepted at once and signs only later, while what the old key signed still opens until it
is dropped; two processes rotating at once write one ring."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import UserError, UserRef
from bot.service.web.web_keys import DAY, KEEP, META, PUBLISH, ROTATE, WebKeys
from bot.store import Store
from tests.bot.conftest import on_both

ANN = UserRef("telegram", "1", "Ann")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@on_both
async def test_a_restart_keeps_the_keys_and_a_rotation_keeps_old_tokens_open(store, db_target):
    clock = Clock()
    first = await WebKeys(store, clock).signer(None)
    clock.now += ROTATE - DAY
    session = first.session(ANN)  # a week's session, held over the rotation
    watch = first.watch(12)
    again = await Store.open(db_target)  # another process on the same data
    try:
        second_keys = WebKeys(again, clock)
        second = await second_keys.signer(None)
        assert second.read_session(session).user.id == "1"
        assert second.valid_watch(12, watch)

        clock.now += DAY  # due: the second process rotates
        await second_keys.refresh(second)
        assert second.read_session(session).user.id == "1"  # the old key still accepts
        assert second.session(ANN) and second.watch(12) == watch  # not yet signing
        ahead = second.session(ANN)
        # the first process has not read the ring again: what the new key signs would be
        # refused there, so nothing is signed with it until every process has read it
        first.read_session(ahead)

        clock.now += PUBLISH
        await second_keys.refresh(second)
        assert second.watch(12) != watch  # the new key signs now
        new_session = second.session(ANN)
        with pytest.raises(UserError):
            first.read_session(new_session)  # (a process that never read it again)
        first_keys = WebKeys(store, clock)
        await first_keys.refresh(first)
        assert first.read_session(new_session).user.id == "1"
        assert first.valid_watch(12, watch)  # an old spectator link still opens

        clock.now += KEEP + ROTATE  # the old key is dropped at the next rotation after KEEP
        await second_keys.refresh(second)
        clock.now += PUBLISH
        await second_keys.refresh(second)
        assert not second.valid_watch(12, watch)
    finally:
        await again.close()


@on_both
async def test_two_processes_starting_at_once_keep_one_ring(store, db_target):
    clock = Clock()
    others = [await Store.open(db_target) for _ in range(3)]
    try:
        signers = await asyncio.gather(*(WebKeys(s, clock).signer(None) for s in others))
        token = signers[0].session(ANN)
        assert all(s.read_session(token).user.id == "1" for s in signers)
        clock.now += ROTATE
        keys = [WebKeys(s, clock) for s in others]
        await asyncio.gather(*(k.refresh(s) for k, s in zip(keys, signers, strict=True)))
        ring = await store.get_meta(META)
        assert ring.count('"key"') == 2  # one rotation, not three
    finally:
        for s in others:
            await s.close()


async def test_a_new_ring_starts_with_the_key_that_signed_before(store):
    """The first start of this release keeps the key derived from the chat tokens, which
    signed the links and sessions of the release before."""
    from bot.service.base.web_links import WebSigner

    derived = b"derived from the tokens, 32 bytes"
    clock = Clock()
    before = WebSigner(derived, clock).session(ANN)
    signer = await WebKeys(store, clock).signer(derived)
    assert signer.read_session(before).user.id == "1"


async def test_an_unreadable_ring_is_replaced_not_fatal(store):
    await store.set_meta(META, "not json")
    signer = await WebKeys(store, Clock()).signer(None)
    assert signer.read_session(signer.session(ANN)).user.id == "1"
    assert (await store.get_meta(META)).startswith("[")
