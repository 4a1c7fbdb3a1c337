"""What the store keeps about one person, gathered (`person_data`, for `/escape export`) or
erased (`erase_person`, for `/escape forget-me`), in every table that holds a person.

Erasing keeps the games of the others: the person's id becomes a fresh token that names
nobody (`gone:` and random hex, the same everywhere in one erasure, so a game's seats,
moves and ratings still agree), and their name becomes `FORMER` wherever it is stored,
in the engine's state, the log's words (a logged message's arguments, its English said
again from them) and a result's summary. What is theirs alone goes: their preferences,
their lessons, their ratings and season ratings, their blocks of others, delivery records
that name them. A bar or a block set against them keeps only a one-way hash
(moderation_queries.py), with the name blanked. Everything happens in one transaction.
"""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

from bot.store.moderation_queries import who
from bot.store.query_base import QueryBase
from engines.text import KEY, from_json

FORMER = "a former player"  # a name erased (said as it is stored: in English)


def _token() -> str:
    return f"gone:{secrets.token_hex(8)}"


class _Replacer:
    """The person's id and names, and what each becomes."""

    def __init__(self, user_id: str, names: set[str], token: str) -> None:
        self.user_id, self.token = user_id, token
        self.names = {n for n in names if n and n != FORMER}
        words = sorted((re.escape(n) for n in self.names), key=len, reverse=True)
        self.word = re.compile(rf"(?<!\w)(?:{'|'.join(words)})(?!\w)") if words else None
        self.id_word = re.compile(rf"(?<![\w:]){re.escape(user_id)}(?!\w)")

    def text(self, value: str) -> str:
        if value == self.user_id:
            return self.token
        if value in self.names:
            return FORMER
        if self.word is not None:
            value = self.word.sub(FORMER, value)
        return self.id_word.sub(self.token, value)

    def tree(self, value: Any) -> Any:
        """A JSON value with the person's id and names replaced in every string (and key);
        a logged message's English is said again from its arguments."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.tree(v) for v in value]
        if isinstance(value, dict):
            out = {self.text(k): self.tree(v) for k, v in value.items()}
            if "msg" in out and isinstance(out["msg"], dict) and KEY in out["msg"]:
                out["text"] = str.__str__(from_json(out["msg"]))
            return out
        return value

    def json(self, text: str | None) -> str | None:
        if text is None or text == "":
            return text
        try:
            value = json.loads(text)
        except ValueError:
            return self.text(text)
        return json.dumps(self.tree(value))

    def holds(self, text: str | None) -> bool:
        if not text:
            return False
        return bool(self.id_word.search(text)) or (
            self.word is not None and bool(self.word.search(text))
        )


class PersonalQueries(QueryBase):
    # ----- what is kept -----------------------------------------------------------------
    async def person_data(self, platform: str, user_id: str) -> dict:
        """Everything kept about a person on one platform, as plain JSON."""
        users = await self.rows(
            "SELECT name, private_chat, prefs FROM users WHERE platform = ? AND user_id = ?",
            (platform, user_id),
        )
        sessions = await self.rows(
            "SELECT DISTINCT s.id FROM sessions s JOIN seats t ON t.session_id = s.id "
            "WHERE s.platform = ? AND t.user_id = ? ORDER BY s.id",
            (platform, user_id),
        )
        games = []
        for (session_id,) in sessions:
            row = await self.session(session_id)  # type: ignore[attr-defined]
            log = await self.log(session_id)  # type: ignore[attr-defined]
            mine = [s.seat for s in row.seats if s.user_id == user_id]
            games.append(
                {
                    "number": row.id,
                    "game": row.game,
                    "status": row.status,
                    "options": row.options,
                    "started": row.created_at,
                    "last_change": row.updated_at,
                    "chat": row.chat,
                    "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind} for s in row.seats],
                    "your_seats": mine,
                    "result": row.result,
                    "your_moves": [
                        {"n": e.n, "seat": e.seat, "move": e.action, "at": e.at, "undone": e.undone}
                        for e in log
                        if e.user_id == user_id and e.seat >= 0
                    ],
                }
            )
        ratings = [
            dict(
                zip(
                    ("scope", "game", "name", "mu", "sigma", "played", "won", "lost"),
                    r,
                    strict=True,
                )
            )
            for r in await self.rows(
                "SELECT scope, game, name, mu, sigma, played, won, lost FROM ratings "
                "WHERE platform = ? AND user_id = ? ORDER BY scope, game",
                (platform, user_id),
            )
        ]
        seasons = [
            dict(
                zip(
                    ("scope", "season", "game", "name", "mu", "sigma", "played", "won", "lost"),
                    r,
                    strict=True,
                )
            )
            for r in await self.rows(
                "SELECT scope, season, game, name, mu, sigma, played, won, lost FROM season_ratings "
                "WHERE platform = ? AND user_id = ? ORDER BY scope, season, game",
                (platform, user_id),
            )
        ]
        tournaments = [
            dict(
                zip(
                    ("tournament", "game", "status", "name", "joined", "withdrawn", "why"),
                    r,
                    strict=True,
                )
            )
            for r in await self.rows(
                "SELECT t.id, t.game, t.status, p.name, p.joined, p.withdrawn, p.why "
                "FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id "
                "WHERE t.platform = ? AND p.user_id = ? ORDER BY t.id",
                (platform, user_id),
            )
        ]
        daily = [
            dict(zip(("day", "game_number", "escaped", "chapters", "steps"), r, strict=True))
            for r in await self.rows(
                "SELECT day, session_id, escaped, chapters, steps FROM daily_results "
                "WHERE platform = ? AND user_id = ? ORDER BY day",
                (platform, user_id),
            )
        ]
        lessons = await self.rows(
            "SELECT value FROM meta WHERE key = ?", (f"tutorial.{platform}.{user_id}",)
        )
        return {
            "platform": platform,
            "id": user_id,
            "name": users[0][0] if users else None,
            "private_chat": users[0][1] if users else None,
            "preferences": json.loads(users[0][2] or "{}") if users else {},
            "games": games,
            "ratings": ratings,
            "season_ratings": seasons,
            "tournaments": tournaments,
            "daily_castle": daily,
            "lessons": json.loads(lessons[0][0]) if lessons and lessons[0][0] else {},
            "you_block": await self.blocked_names(platform, user_id),  # type: ignore[attr-defined]
            "barred_in": [
                scope
                for (scope,) in await self.rows(
                    "SELECT scope FROM bars WHERE platform = ? AND who = ?",
                    (platform, who(platform, user_id)),
                )
            ],
        }

    # ----- forget-me ----------------------------------------------------------------------
    async def erase_person(self, platform: str, user_id: str) -> dict[str, int]:
        """Erase a person (see the module's docstring); the rows changed or removed, by
        table."""
        token = _token()
        names = {
            name
            for sql in (
                "SELECT name FROM users WHERE platform = ? AND user_id = ?",
                "SELECT t.name FROM seats t JOIN sessions s ON s.id = t.session_id "
                "WHERE s.platform = ? AND t.user_id = ?",
                "SELECT name FROM ratings WHERE platform = ? AND user_id = ?",
                "SELECT name FROM season_ratings WHERE platform = ? AND user_id = ?",
                "SELECT p.name FROM tournament_players p JOIN tournaments t "
                "ON t.id = p.tournament_id WHERE t.platform = ? AND p.user_id = ?",
                "SELECT name FROM daily_results WHERE platform = ? AND user_id = ?",
            )
            for (name,) in await self.rows(sql, (platform, user_id))
        }
        swap = _Replacer(user_id, names, token)
        done: dict[str, int] = {}

        def count(table: str, n: int) -> None:
            done[table] = done.get(table, 0) + max(0, n)

        async def work(conn) -> dict[str, int]:
            async def fetch(sql: str, params: tuple) -> list:
                async with conn.execute(sql, params) as cur:
                    return list(await cur.fetchall())

            lesson = f"lesson:{user_id}"
            for (sid,) in await fetch(
                "SELECT id FROM sessions WHERE platform = ? AND chat = ?", (platform, lesson)
            ):  # their lessons are theirs alone
                for table in ("actions", "seats", "undo_requests", "rated_sessions"):
                    cur = await conn.execute(f"DELETE FROM {table} WHERE session_id = ?", (sid,))
                    count(table, cur.rowcount)
                cur = await conn.execute("DELETE FROM sessions WHERE id = ?", (sid,))
                count("sessions", cur.rowcount)
            ids = {
                sid
                for sql in (
                    "SELECT t.session_id FROM seats t JOIN sessions s ON s.id = t.session_id "
                    "WHERE s.platform = ? AND t.user_id = ?",
                    "SELECT id FROM sessions WHERE platform = ? AND creator = ?",
                    "SELECT a.session_id FROM actions a JOIN sessions s ON s.id = a.session_id "
                    "WHERE s.platform = ? AND a.user_id = ?",
                )
                for (sid,) in await fetch(sql, (platform, user_id))
            }
            for sid in sorted(ids):
                (state, result, clock, hinted, creator, chat, thread) = (
                    await fetch(
                        "SELECT state, result, clock, hinted, creator, chat, thread FROM sessions "
                        "WHERE id = ?",
                        (sid,),
                    )
                )[0]
                await conn.execute(
                    "UPDATE sessions SET state = ?, result = ?, clock = ?, hinted = ?, creator = ?, "
                    "chat = ?, thread = ? WHERE id = ?",
                    (
                        swap.json(state),
                        swap.json(result),
                        swap.json(clock),
                        swap.json(hinted),
                        swap.text(creator),
                        swap.text(chat),
                        swap.text(thread),
                        sid,
                    ),
                )
                count("sessions", 1)
                cur = await conn.execute(
                    "UPDATE seats SET user_id = ?, name = ? WHERE session_id = ? AND user_id = ?",
                    (token, FORMER, sid, user_id),
                )
                count("seats", cur.rowcount)
                for n, uid, events in await fetch(
                    "SELECT n, user_id, events FROM actions WHERE session_id = ?", (sid,)
                ):
                    new_events = swap.json(events)
                    new_uid = swap.text(uid) if uid is not None else None
                    if new_events != events or new_uid != uid:
                        await conn.execute(
                            "UPDATE actions SET user_id = ?, events = ? WHERE session_id = ? AND n = ?",
                            (new_uid, new_events, sid, n),
                        )
                        count("actions", 1)
                cur = await conn.execute(
                    "UPDATE undo_requests SET user_id = ? WHERE session_id = ? AND user_id = ?",
                    (token, sid, user_id),
                )
                count("undo_requests", cur.rowcount)
                for (changes,) in await fetch(
                    "SELECT changes FROM rated_sessions WHERE session_id = ?", (sid,)
                ):
                    await conn.execute(
                        "UPDATE rated_sessions SET changes = ? WHERE session_id = ?",
                        (swap.json(changes), sid),
                    )
                    count("rated_sessions", 1)
            for table in ("ratings", "season_ratings"):  # their standings are theirs alone
                cur = await conn.execute(
                    f"DELETE FROM {table} WHERE platform = ? AND user_id = ?", (platform, user_id)
                )
                count(table, cur.rowcount)
            cur = await conn.execute(
                "DELETE FROM users WHERE platform = ? AND user_id = ?", (platform, user_id)
            )
            count("users", cur.rowcount)
            cur = await conn.execute(
                "DELETE FROM chat_settings WHERE platform = ? AND chat = ?", (platform, user_id)
            )
            count("chat_settings", cur.rowcount)
            cur = await conn.execute(
                "DELETE FROM meta WHERE key = ?", (f"tutorial.{platform}.{user_id}",)
            )
            count("meta", cur.rowcount)
            # delivery's records that name them (a note of their private moves, a warning
            # they could not be reached, a live board in their private chat: one stale
            # message), the updates the platform sent that hold them (those handled: the
            # one being handled, this command's, goes with the day's others, update_queries
            # KEPT_FOR), and the rate window of their private chat
            for table, where in (
                ("delivery_notes", "platform = ? AND who = ?"),
                ("live_boards", "platform = ? AND chat = ?"),
            ):
                cur = await conn.execute(f"DELETE FROM {table} WHERE {where}", (platform, user_id))
                count(table, cur.rowcount)
            for update_id, payload in await fetch(
                "SELECT update_id, payload FROM platform_updates "
                "WHERE platform = ? AND state = 'done'",
                (platform,),
            ):
                if swap.holds(payload):
                    await conn.execute(
                        "DELETE FROM platform_updates WHERE platform = ? AND update_id = ?",
                        (platform, update_id),
                    )
                    count("platform_updates", 1)
            cur = await conn.execute(
                "DELETE FROM rate_windows WHERE key = ?", (f"{platform}:chat:{user_id}",)
            )
            count("rate_windows", cur.rowcount)
            tournaments = [
                tid
                for (tid,) in await fetch(
                    "SELECT tournament_id FROM tournament_players p JOIN tournaments t "
                    "ON t.id = p.tournament_id WHERE t.platform = ? AND p.user_id = ?",
                    (platform, user_id),
                )
            ]
            cur = await conn.execute(
                "UPDATE tournaments SET creator = ? WHERE platform = ? AND creator = ?",
                (token, platform, user_id),
            )
            count("tournaments", cur.rowcount)
            for tid in tournaments:
                cur = await conn.execute(
                    "UPDATE tournament_players SET user_id = ?, name = ? "
                    "WHERE tournament_id = ? AND user_id = ?",
                    (token, FORMER, tid, user_id),
                )
                count("tournament_players", cur.rowcount)
                for round_, board, players in await fetch(
                    "SELECT round, board, players FROM tournament_tables WHERE tournament_id = ?",
                    (tid,),
                ):
                    changed = swap.json(players)
                    if changed != players:
                        await conn.execute(
                            "UPDATE tournament_tables SET players = ? "
                            "WHERE tournament_id = ? AND round = ? AND board = ?",
                            (changed, tid, round_, board),
                        )
                        count("tournament_tables", 1)
            cur = await conn.execute(
                "UPDATE daily_players SET user_id = ? WHERE platform = ? AND user_id = ?",
                (token, platform, user_id),
            )
            count("daily_players", cur.rowcount)
            for sid, seat, party in await fetch(
                "SELECT session_id, seat, party FROM daily_results WHERE platform = ?", (platform,)
            ):
                if swap.holds(party) or party in swap.names:
                    await conn.execute(
                        "UPDATE daily_results SET party = ? WHERE session_id = ? AND seat = ?",
                        (swap.text(party), sid, seat),
                    )
            cur = await conn.execute(
                "UPDATE daily_results SET user_id = ?, name = ? WHERE platform = ? AND user_id = ?",
                (token, FORMER, platform, user_id),
            )
            count("daily_results", cur.rowcount)
            cur = await conn.execute(
                "DELETE FROM blocks WHERE platform = ? AND user_id = ?", (platform, user_id)
            )
            count("blocks", cur.rowcount)
            person = who(platform, user_id)
            for table in ("blocks", "bars"):  # set against them: kept, their name blanked
                cur = await conn.execute(
                    f"UPDATE {table} SET name = '' WHERE platform = ? AND who = ?",
                    (platform, person),
                )
                count(table, cur.rowcount)
            cur = await conn.execute(
                "UPDATE bars SET barred_by = ? WHERE platform = ? AND barred_by = ?",
                (token, platform, user_id),
            )
            count("bars", cur.rowcount)
            return done

        return await self.write(work)

    # ----- retention ---------------------------------------------------------------------
    async def delete_finished_before(self, before: float, most: int = 500) -> int:
        """Delete up to `most` finished or aborted games whose last change is older than
        `before` (ESCAPE_KEEP_GAMES_DAYS): the game, its seats, log, undo requests and rating
        record. A game a tournament or the daily castle still counts is kept (its standings
        read it); the ratings it made stay, being totals. Returns how many went."""
        found = await self.rows(
            "SELECT id FROM sessions s WHERE status IN ('finished', 'aborted') "
            "AND updated_at < ? "
            "AND NOT EXISTS (SELECT 1 FROM tournament_tables t WHERE t.session_id = s.id) "
            "AND NOT EXISTS (SELECT 1 FROM daily_results d WHERE d.session_id = s.id) "
            "AND NOT EXISTS (SELECT 1 FROM daily_players p WHERE p.session_id = s.id) "
            "ORDER BY id LIMIT ?",
            (before, most),
        )
        ids = [sid for (sid,) in found]
        if not ids:
            return 0

        async def work(conn) -> None:
            marks = ", ".join("?" for _ in ids)
            for table in ("actions", "seats", "undo_requests", "rated_sessions"):
                await conn.execute(f"DELETE FROM {table} WHERE session_id IN ({marks})", ids)
            await conn.execute(f"DELETE FROM sessions WHERE id IN ({marks})", ids)

        await self.write(work)
        return len(ids)
