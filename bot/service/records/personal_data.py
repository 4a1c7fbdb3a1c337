"""A person's own data: `/escape export` (everything kept about the asker, privately, as a
JSON file with a readable summary) and `/escape forget-me` (confirmed: the asker's ids and
names erased from every table, log, rating, tournament and preference; finished games of
the others stay readable, the person shown as "a former player"); and the operator's
retention of finished games (`ESCAPE_KEEP_GAMES_DAYS`, served by the timer loop).

What is kept, where and for how long is told in docs/privacy.md; the store does the
gathering and the erasing (bot/store/personal_queries.py).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

from bot.service.base.delivery_plan import Picture, Plan, Reply
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.store import Store
from engines.text import Text, command, joined, msg, plural

log = logging.getLogger(__name__)

CONFIRM = "confirm"  # `/escape forget-me confirm`: the erasure itself
DAY = 86_400.0
RETIRE_EVERY = 3600.0  # the timer loop deletes old finished games at most this often


def summary(data: dict) -> Text:
    """What the export holds, in words (each count its own plural message)."""
    games = data["games"]
    moves = sum(len(g["your_moves"]) for g in games)
    settings = ", ".join(f"{k}={v}" for k, v in sorted(data["preferences"].items()))
    lines: list[Text] = [
        msg(
            "Everything Escape keeps about you on {platform} is in the attached file (JSON):",
            platform=data["platform"],
        ),
        msg(
            "your name as last seen ({name}) and your settings ({settings});",
            name=data["name"] or "-",
            settings=settings or "-",
        ),
        plural("{count} game you sat at;", "{count} games you sat at;", len(games)),
        plural("{count} move of yours in them;", "{count} moves of yours in them;", moves),
        plural("{count} rating;", "{count} ratings;", len(data["ratings"])),
        plural(
            "{count} season standing;", "{count} season standings;", len(data["season_ratings"])
        ),
        plural(
            "{count} tournament entry;", "{count} tournament entries;", len(data["tournaments"])
        ),
        plural(
            "{count} daily castle result;",
            "{count} daily castle results;",
            len(data["daily_castle"]),
        ),
        plural("{count} person you block.", "{count} people you block.", len(data["you_block"])),
        msg(
            "{forget_me} erases it (docs/privacy.md says what is kept and for how long).",
            forget_me=command("forget-me"),
        ),
    ]
    return joined(lines, "\n")


class PersonalData:
    def __init__(
        self, store: Store, clock: Callable[[], float], keep_games_days: float | None = None
    ) -> None:
        self.store = store
        self.now = clock
        self.keep_games_days = keep_games_days
        self._retired_at = 0.0

    async def export(self, chat: ChatRef, user: UserRef) -> Plan:
        """`/escape export`: to the asker alone."""
        data = await self.store.person_data(user.platform, user.id)
        body = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False).encode()
        told = summary(data)
        picture = Picture(
            body,
            msg("Everything Escape keeps about you, as JSON."),
            f"escape-data-{user.platform}.json",
        )
        reply = Reply(told, kind="info", picture=picture, to=user)
        return Plan([reply], asker=user, quiet=True)

    async def forget(self, chat: ChatRef, user: UserRef, confirm: str | None) -> Plan:
        """`/escape forget-me`: says what it erases; `/escape forget-me confirm` erases."""
        if (confirm or "").strip().lower() != CONFIRM:
            if confirm and confirm.strip():
                raise UserError(
                    msg(
                        "To erase everything about you, type {forget_me_confirm}.",
                        forget_me_confirm=command("forget-me", "confirm"),
                    )
                )
            said = msg(
                "This erases everything Escape keeps about you on this platform: your name and id in every game, log, rating, tournament and preference, your lessons and your blocks. Finished games of the others stay, with you shown as a former player; your ratings are gone. It cannot be undone. To go ahead, type {forget_me_confirm} ({export} first gives you a copy).",
                forget_me_confirm=command("forget-me", "confirm"),
                export=command("export"),
            )
            return Plan([Reply(said, kind="info", to=user)], asker=user, quiet=True)
        done = await self.store.erase_person(user.platform, user.id)
        log.info("a person's data was erased on request (%d rows)", sum(done.values()))
        said = msg(
            "Done: everything Escape kept about you on this platform is erased. If you play again, you start afresh."
        )
        return Plan([Reply(said, kind="info", to=user)], asker=user, quiet=True)

    async def retire(self) -> int:
        """Finished games older than the operator's retention, deleted (at most hourly)."""
        if not self.keep_games_days:
            return 0
        now = self.now()
        if now - self._retired_at < RETIRE_EVERY:
            return 0
        self._retired_at = now
        return await self.store.delete_finished_before(now - self.keep_games_days * DAY)
