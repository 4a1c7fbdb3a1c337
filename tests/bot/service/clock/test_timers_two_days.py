"""Done-when of issue 8: a game played over two simulated days, with one player absent from
the start, another who disappears on the second day, and a bot restart in the middle; the
timers move it on (vote, stand-ins) and it ends correctly and replays from its log."""

from __future__ import annotations

import random

from bot.service import ChatRef, UserError, UserRef
from engines import REGISTRY
from tests.bot.service.clock.test_timers import DAY, HOUR, T0, Bot, FakeClock

ANN = UserRef("test", "u-ann", "Ann")
BOB = UserRef("test", "u-bob", "Bob")
CY = UserRef("test", "u-cy", "Cy")
CHAT = ChatRef("test", "chan-9", "", "guild-9")
GAME = "hidden_castle"


async def test_a_two_day_game_with_absent_players_and_a_restart_ends_correctly(tmp_path):
    clock = FakeClock()
    rng = random.Random(11)
    path = tmp_path / "escape.sqlite3"
    bot = await Bot(path, clock, interval=600).open()
    await bot.service.start(CHAT, ANN, GAME, "turn=10h timeout=vote")
    await bot.service.join(CHAT, BOB)
    await bot.service.join(CHAT, CY)
    await bot.service.clock_command(CHAT, ANN, "quiet 0-6")  # Ann's nights (UTC)
    await bot.service.begin(CHAT, ANN)

    def present(user: UserRef) -> bool:
        """Cy never comes; Bob leaves after 14 hours; Ann sleeps 00:00-06:00 UTC."""
        if user == CY or (user == BOB and clock.t >= T0 + 0.6 * DAY):
            return False
        return not 16 <= (clock.t - T0) / HOUR % 24 < 22  # T0 is 08:00 UTC

    restarted = False
    plans: dict[str, float] = {}  # user id -> when they next look at the game
    votes_cast = 0
    answered = []  # what the players were answered (the timers' messages are in bot.sent)
    try:
        while clock.t < T0 + 2 * DAY:
            if not restarted and clock.t >= T0 + 0.6 * DAY:  # a deploy: down for 40 minutes
                await bot.close()
                clock.t += 40 * 60
                before = bot.sent, bot.sent_at
                bot = await Bot(path, clock, interval=600).open()
                bot.sent, bot.sent_at = before
                restarted = True
                assert (await bot.timers.tick()).downtime == 40 * 60  # not the players' time
            row = await bot.service.live(CHAT)
            if row is None:
                break
            for user in (ANN, BOB):
                concerned = user.id in row.clock.get("waiting", []) or (
                    row.clock.get("warned") and user.id not in row.clock.get("late", [])
                )
                if concerned and user.id not in plans and present(user):
                    plans[user.id] = clock.t + rng.uniform(5 * 60, 30 * 60)
            soonest = min(plans.values(), default=float("inf"))
            await bot.run_until(min(soonest, clock.t + await bot.timers.next_delay(), T0 + 2 * DAY))
            for user in (ANN, BOB):
                if plans.get(user.id, float("inf")) > clock.t:
                    continue
                del plans[user.id]
                row = await bot.service.live(CHAT)
                if row is None or not present(user):
                    continue
                try:
                    if row.clock.get("warned") and user.id not in row.clock.get("late", []):
                        answered += await bot.service.clock_command(CHAT, user, "vote")
                        votes_cast += 1
                    else:
                        choices = await bot.service.choices(CHAT, user)
                        if choices:
                            answered += await bot.service.move(CHAT, user, rng.choice(choices)[0])
                except UserError:
                    pass  # the board moved meanwhile: look again next time
        assert restarted
        row = (await bot.store.sessions_in_scope("test", "guild-9", ("finished",)))[0]
        assert row.status == "finished" and row.result is not None
        assert [s.kind for s in row.seats] == ["human", "placeholder", "placeholder"]
        assert votes_cast >= 2  # Cy at his first deadline, Bob after he left
        texts = [r.text for r in answered] + [r.text for _, r in bot.sent]
        assert any("stand-in takes over from Cy" in t for t in texts)
        assert any("stand-in takes over from Bob" in t for t in texts)
        assert any(r.final for r in answered) and row.updated_at > T0 + DAY
        # every reminder pings one player; none reached Ann in her quiet hours (00-06 UTC)
        reminders = [
            (r, t) for (_, r), t in zip(bot.sent, bot.sent_at, strict=True) if r.kind == "reminder"
        ]
        assert reminders and all(len(r.mention) == 1 for r, _ in reminders)
        assert all(not 16 <= (t - T0) / HOUR % 24 < 22 for r, t in reminders if r.mention == [ANN])
        # the log replays from set-up to the stored end
        game = REGISTRY[GAME]
        state = game.setup([s.name for s in row.seats], row.options)
        log = await bot.store.log(row.id)
        for entry in log:
            state, _ = game.apply(state, entry.seat, entry.action)
        assert game.dump(state) == row.state and game.result(state) is not None
        assert {e.user_id for e in log if e.seat >= 0} <= {ANN.id, BOB.id, None}
    finally:
        await bot.close()
