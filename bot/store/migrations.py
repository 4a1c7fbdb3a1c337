"""Numbered schema migrations, applied in order at start-up (PRAGMA user_version).

A migration is portable SQL, or SQL and then a step of Python over the rows (`DataStep`)
where data must move between columns: both run in the migration's one transaction.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from bot.store.dialects import Database

DataStep = Callable[[Database], Awaitable[None]]
Migration = str | tuple[str, DataStep]

# The table's facts that lived in its clock's JSON record until migration 9, each now a
# column of the session: (key in the clock, column, value when absent, how it is stored).
FACTS_OUT_OF_THE_CLOCK = (
    ("language", "language", "", str),
    ("ai_level", "bot_level", "", str),
    ("hints", "hints", "on", str),
    ("hinted", "hinted", "[]", json.dumps),
    ("daily", "daily", "", str),
    ("seeded_decks", "seeded_decks", 0, int),
)


async def _facts_out_of_the_clock(db: Database) -> None:
    """Each session's facts moved from its clock into their columns; a clock that held none
    of them is left as it was, byte for byte (one that did loses only those keys)."""
    async with db.execute("SELECT id, clock FROM sessions ORDER BY id", ()) as cur:
        rows = await cur.fetchall()
    for session_id, text in rows:
        clock = json.loads(text or "{}")
        if not any(key in clock for key, *_ in FACTS_OUT_OF_THE_CLOCK):
            continue
        values = [
            keep(clock.pop(key)) if key in clock else absent
            for key, _, absent, keep in FACTS_OUT_OF_THE_CLOCK
        ]
        columns = ", ".join(f"{column} = ?" for _, column, *_ in FACTS_OUT_OF_THE_CLOCK)
        await db.execute(
            f"UPDATE sessions SET {columns}, clock = ? WHERE id = ?",
            (*values, json.dumps(clock), session_id),
        )


async def _delivery_records_out_of_meta(db: Database) -> None:
    """Delivery's records, kept as meta keys until migration 10 (`delivery.<platform>.live.
    <session>`, `delivery.<platform>.litter.<session>`), moved into their tables; a board
    moved so is taken as not changed lately (its next board is posted anew, as after any
    restart before)."""
    async with db.execute(
        "SELECT key, value FROM meta WHERE key LIKE 'delivery.%' ORDER BY key", ()
    ) as cur:
        rows = await cur.fetchall()
    for key, value in rows:
        parts = key.split(".")
        if len(parts) != 4 or not parts[3].isdigit() or not value:
            continue
        _, platform, what, session = parts
        session_id = int(session)
        async with db.execute("SELECT chat, thread FROM sessions WHERE id = ?", (session_id,)) as c:
            place = await c.fetchone()
        if place is None:
            continue
        if what == "live":
            record = json.loads(value)
            await db.execute(
                "INSERT INTO live_boards (session_id, platform, chat, thread, kind, version, "
                "message, sent, touched, later) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, 0)",
                (
                    session_id,
                    platform,
                    place[0],
                    place[1],
                    record["kind"],
                    record.get("version"),
                    int(record["sent"]["message"]),
                    json.dumps(record["sent"]),
                ),
            )
        elif what == "litter":
            await db.executemany(
                "INSERT INTO delivery_notes (session_id, platform, kind, who, sent) "
                "VALUES (?, ?, 'litter', '', ?)",
                [(session_id, platform, json.dumps(sent)) for sent in json.loads(value)],
            )
    await db.execute("DELETE FROM meta WHERE key LIKE 'delivery.%'", ())


MIGRATIONS: list[Migration] = [
    # 1: the data that must not be lost (docs/how-it-is-built.md, Store).
    """
    CREATE TABLE sessions (
        id            INTEGER PRIMARY KEY,
        platform      TEXT NOT NULL,
        scope         TEXT NOT NULL DEFAULT '',
        chat          TEXT NOT NULL,
        thread        TEXT NOT NULL DEFAULT '',
        game          TEXT NOT NULL,
        options       TEXT NOT NULL,
        rules_version INTEGER NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
        creator       TEXT NOT NULL,
        version       INTEGER NOT NULL DEFAULT 0,
        state         TEXT,
        seed          INTEGER NOT NULL,
        chance_pos    INTEGER NOT NULL DEFAULT 0,
        deadline      REAL,
        result        TEXT,
        created_at    REAL NOT NULL,
        updated_at    REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_live_game_per_chat
        ON sessions (platform, chat, thread) WHERE status IN ('lobby', 'active');
    CREATE INDEX sessions_by_scope ON sessions (platform, scope, status);
    CREATE INDEX sessions_by_deadline ON sessions (deadline) WHERE status = 'active';

    CREATE TABLE seats (
        session_id INTEGER NOT NULL REFERENCES sessions (id),
        seat       INTEGER NOT NULL,
        user_id    TEXT NOT NULL,
        name       TEXT NOT NULL,
        kind       TEXT NOT NULL DEFAULT 'human' CHECK (kind IN ('human', 'ai', 'placeholder')),
        PRIMARY KEY (session_id, seat)
    );
    CREATE INDEX seats_by_user ON seats (user_id);

    CREATE TABLE actions (
        session_id INTEGER NOT NULL REFERENCES sessions (id),
        n          INTEGER NOT NULL,
        seat       INTEGER NOT NULL,
        action     TEXT NOT NULL,
        user_id    TEXT,
        events     TEXT NOT NULL DEFAULT '[]',
        at         REAL NOT NULL,
        PRIMARY KEY (session_id, n)
    );

    CREATE TABLE users (
        platform     TEXT NOT NULL,
        user_id      TEXT NOT NULL,
        name         TEXT NOT NULL,
        private_chat TEXT,
        prefs        TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (platform, user_id)
    );
    """,
    # 2: play over days. The turn clock (deadline, reminders, votes, pauses) is JSON beside
    # the snapshot; wake_at is when the timer loop must next look at the session; meta holds
    # the loop's heartbeat so time the bot was down is not counted against players.
    """
    ALTER TABLE sessions ADD COLUMN clock TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE sessions ADD COLUMN wake_at REAL;
    CREATE INDEX sessions_by_wake ON sessions (wake_at) WHERE status = 'active';
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 3: the table's memory. `undone` marks a move taken back by agreement (kept in the log,
    # skipped by replays and ratings); ratings per server or group and game, each finished
    # game rated once (rated_sessions); one pending undo request per game.
    """
    ALTER TABLE actions ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX sessions_by_chat ON sessions (platform, chat, status, updated_at);
    CREATE TABLE ratings (
        platform   TEXT NOT NULL,
        scope      TEXT NOT NULL,
        game       TEXT NOT NULL,
        user_id    TEXT NOT NULL,
        name       TEXT NOT NULL,
        mu         REAL NOT NULL,
        sigma      REAL NOT NULL,
        played     INTEGER NOT NULL DEFAULT 0,
        won        INTEGER NOT NULL DEFAULT 0,
        lost       INTEGER NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL,
        PRIMARY KEY (platform, scope, game, user_id)
    );
    CREATE TABLE rated_sessions (
        session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
        changes    TEXT NOT NULL,
        rated_at   REAL NOT NULL
    );
    CREATE TABLE undo_requests (
        session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
        version    INTEGER NOT NULL,
        n          INTEGER NOT NULL,
        seat       INTEGER NOT NULL,
        user_id    TEXT NOT NULL,
        accepted   TEXT NOT NULL DEFAULT '[]',
        asked_at   REAL NOT NULL
    );
    """,
    # 4: the language a chat (a channel, a thread, a group's topic) speaks, once someone set
    # it with /escape language; a table takes it when it opens.
    """
    CREATE TABLE chat_settings (
        platform TEXT NOT NULL,
        chat     TEXT NOT NULL,
        thread   TEXT NOT NULL DEFAULT '',
        language TEXT NOT NULL,
        PRIMARY KEY (platform, chat, thread)
    );
    """,
    # 5: tournaments in a server or group (bot/store/tournament_queries.py). A round's
    # tables are stored in the one transaction that pairs it (and moves `round` on, a
    # compare-and-set on `version`); each table's session is linked in the transaction that
    # creates it (`claimed_at`: the lease of the process opening it); `shown` and
    # `reported` are the last round whose tables and standings were posted, each claimed
    # once. A bye is a row of one player at board 0 or below.
    """
    CREATE TABLE tournaments (
        id         INTEGER PRIMARY KEY,
        platform   TEXT NOT NULL,
        scope      TEXT NOT NULL,
        chat       TEXT NOT NULL,
        thread     TEXT NOT NULL DEFAULT '',
        game       TEXT NOT NULL,
        options    TEXT NOT NULL,
        rounds     INTEGER NOT NULL,
        size       INTEGER NOT NULL,
        status     TEXT NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
        creator    TEXT NOT NULL,
        round      INTEGER NOT NULL DEFAULT 0,
        shown      INTEGER NOT NULL DEFAULT 0,
        reported   INTEGER NOT NULL DEFAULT 0,
        version    INTEGER NOT NULL DEFAULT 0,
        starts_at  REAL,
        wake_at    REAL,
        language   TEXT NOT NULL DEFAULT 'en',
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX tournaments_by_chat ON tournaments (platform, chat, status);
    CREATE INDEX tournaments_by_wake ON tournaments (wake_at) WHERE status IN ('signup', 'running');

    CREATE TABLE tournament_players (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        user_id   TEXT NOT NULL,
        name      TEXT NOT NULL,
        n         INTEGER NOT NULL,
        joined    INTEGER NOT NULL DEFAULT 1,
        withdrawn INTEGER,
        why       TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (tournament_id, user_id)
    );

    CREATE TABLE tournament_tables (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        round      INTEGER NOT NULL,
        board      INTEGER NOT NULL,
        players    TEXT NOT NULL,
        session_id INTEGER REFERENCES sessions (id),
        claimed_at REAL,
        PRIMARY KEY (tournament_id, round, board)
    );
    CREATE INDEX tournament_tables_by_session ON tournament_tables (session_id);
    """,
    # 6: seasons of a server's or group's ratings (bot/store/season_queries.py). One season
    # runs at a time in a scope (a partial unique index); a game rated while it runs is also
    # rated in `season_ratings`, in the transaction that rates it all time, which takes the
    # season's row lock (`games`), so a season ends (`status`, a compare-and-set) either
    # before or after a game counts in it, never during. `posted_at` is set once its final
    # standings are posted; `claimed_at` is the lease of the process posting them.
    """
    CREATE TABLE seasons (
        platform   TEXT NOT NULL,
        scope      TEXT NOT NULL,
        number     INTEGER NOT NULL,
        status     TEXT NOT NULL CHECK (status IN ('running', 'ended')),
        length     TEXT NOT NULL,
        repeats    INTEGER NOT NULL DEFAULT 1,
        starts_at  REAL NOT NULL,
        ends_at    REAL NOT NULL,
        chat       TEXT NOT NULL,
        thread     TEXT NOT NULL DEFAULT '',
        language   TEXT NOT NULL DEFAULT 'en',
        games      INTEGER NOT NULL DEFAULT 0,
        ended_at   REAL,
        claimed_at REAL,
        posted_at  REAL,
        PRIMARY KEY (platform, scope, number)
    );
    CREATE UNIQUE INDEX one_running_season ON seasons (platform, scope) WHERE status = 'running';
    CREATE INDEX seasons_by_end ON seasons (ends_at) WHERE status = 'running';

    CREATE TABLE season_ratings (
        platform   TEXT NOT NULL,
        scope      TEXT NOT NULL,
        season     INTEGER NOT NULL,
        game       TEXT NOT NULL,
        user_id    TEXT NOT NULL,
        name       TEXT NOT NULL,
        mu         REAL NOT NULL,
        sigma      REAL NOT NULL,
        played     INTEGER NOT NULL DEFAULT 0,
        won        INTEGER NOT NULL DEFAULT 0,
        lost       INTEGER NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL,
        PRIMARY KEY (platform, scope, season, game, user_id)
    );
    """,
    # 7: the daily castle (bot/store/daily_queries.py). `daily_players`: who has begun the
    # castle of a day (UTC), on a platform, at which table: a person plays each day's castle
    # once, claimed in one transaction for the whole party when its table begins.
    # `daily_results`: a finished daily table's result, one row per player (the daily board
    # reads seat 0's row, the month's board sums each player's).
    """
    CREATE TABLE daily_players (
        day        TEXT NOT NULL,
        platform   TEXT NOT NULL,
        user_id    TEXT NOT NULL,
        session_id INTEGER NOT NULL REFERENCES sessions (id),
        PRIMARY KEY (day, platform, user_id)
    );
    CREATE TABLE daily_results (
        session_id  INTEGER NOT NULL REFERENCES sessions (id),
        seat        INTEGER NOT NULL,
        user_id     TEXT NOT NULL,
        name        TEXT NOT NULL,
        day         TEXT NOT NULL,
        platform    TEXT NOT NULL,
        scope       TEXT NOT NULL,
        party       TEXT NOT NULL,
        escaped     INTEGER NOT NULL,
        chapters    INTEGER NOT NULL,
        steps       INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (session_id, seat)
    );
    CREATE INDEX daily_results_by_day ON daily_results (platform, scope, day);
    """,
    # 8: the timer loop's scans of one platform read only what is due (issue 34). With a
    # platform named, SQLite took (platform, chat, ...) and read every game ever stored on
    # that platform, finished ones too, twice a scan: 13 ms a query with 10,000 games.
    """
    CREATE INDEX sessions_by_platform_wake ON sessions (platform, wake_at) WHERE status = 'active';
    CREATE INDEX sessions_by_idle ON sessions (platform, updated_at)
        WHERE status IN ('lobby', 'active');
    """,
    # 9: a table's facts in their own columns, out of the clock's JSON record (issue 57):
    # the language its boards speak, whether hints may be asked (`hints=on|off`) and who took
    # one (a hinted game is not rated), its computer players' level, and the daily castle's
    # day and dealing. The clock keeps only time.
    (
        """
        ALTER TABLE sessions ADD COLUMN language TEXT NOT NULL DEFAULT '';
        ALTER TABLE sessions ADD COLUMN bot_level TEXT NOT NULL DEFAULT '';
        ALTER TABLE sessions ADD COLUMN hints TEXT NOT NULL DEFAULT 'on';
        ALTER TABLE sessions ADD COLUMN hinted TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE sessions ADD COLUMN daily TEXT NOT NULL DEFAULT '';
        ALTER TABLE sessions ADD COLUMN seeded_decks INTEGER NOT NULL DEFAULT 0;
        """,
        _facts_out_of_the_clock,
    ),
    # 10: delivery's records with the table (issue 58), out of the meta keys: which message
    # is a table's live board on a platform, when it last changed and how many messages its
    # chat or thread has had since (the same for every process), and the notes a game
    # leaves (notices to tidy at its end, each player's newest private moves, who was told
    # they cannot be reached).
    (
        """
        CREATE TABLE live_boards (
            session_id INTEGER NOT NULL,
            platform   TEXT NOT NULL,
            chat       TEXT NOT NULL,
            thread     TEXT NOT NULL,
            kind       TEXT NOT NULL,
            version    INTEGER,
            message    INTEGER NOT NULL,
            sent       TEXT NOT NULL,
            touched    REAL NOT NULL,
            later      INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (session_id, platform)
        );
        CREATE INDEX live_boards_by_place ON live_boards (platform, chat, thread);
        CREATE TABLE delivery_notes (
            id         INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL,
            platform   TEXT NOT NULL,
            kind       TEXT NOT NULL,
            who        TEXT NOT NULL,
            sent       TEXT NOT NULL
        );
        CREATE INDEX delivery_notes_by_session ON delivery_notes (session_id, platform, kind, who);
        """,
        _delivery_records_out_of_meta,
    ),
    # 11: a platform's updates, stored before they are acknowledged and handed out in chat
    # order under a lease (issue 58, bot/store/update_queries.py): Telegram's retries of an
    # update id are dropped, and a worker killed mid-update leaves it to another.
    """
    CREATE TABLE platform_updates (
        platform  TEXT NOT NULL,
        update_id INTEGER NOT NULL,
        chat      TEXT NOT NULL,
        payload   TEXT NOT NULL,
        received  REAL NOT NULL,
        state     TEXT NOT NULL CHECK (state IN ('waiting', 'working', 'done')),
        stage     TEXT NOT NULL DEFAULT '',
        holder    TEXT NOT NULL DEFAULT '',
        lease     REAL NOT NULL DEFAULT 0,
        tries     INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (platform, update_id)
    );
    CREATE INDEX platform_updates_unfinished ON platform_updates (platform, chat, update_id)
        WHERE state <> 'done';
    CREATE INDEX platform_updates_finished ON platform_updates (platform, lease)
        WHERE state = 'done';
    """,
    # 12: the rate windows every process of a bot shares (issue 58, bot/store/
    # rate_queries.py): the times of the calls counted in each window (per token, chat,
    # group, Discord route), and until when a 429 holds it; the bucket each Discord route
    # is in, as its answers announced it.
    """
    CREATE TABLE rate_windows (
        key   TEXT PRIMARY KEY,
        times TEXT NOT NULL,
        held  REAL NOT NULL DEFAULT 0,
        used  REAL NOT NULL DEFAULT 0
    );
    CREATE TABLE rate_routes (
        route  TEXT PRIMARY KEY,
        bucket TEXT NOT NULL,
        count  INTEGER NOT NULL,
        per    REAL NOT NULL
    );
    """,
    # 13: a public bot (issue 59). A seat remembers from which log row its person holds it
    # (`since`: 0 from the start; a seat handed over later starts where it was taken) and
    # whether its person lost it (`lost`: resigned or out of time; the stand-in plays on and
    # the person is ranked last, rated). A table's seats offered to a new player
    # (`offered`: comma-separated seat numbers). An admin's bar of a user from the bot's
    # tables in a server or group, and a person's block of another: the barred or blocked
    # person is kept as a one-way hash of platform and id (`who`), so erasing that person
    # (`/escape forget-me`) leaves no id behind and the bar or block still holds.
    """
    ALTER TABLE seats ADD COLUMN since INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN lost INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE sessions ADD COLUMN offered TEXT NOT NULL DEFAULT '';
    CREATE TABLE bars (
        platform  TEXT NOT NULL,
        scope     TEXT NOT NULL,
        who       TEXT NOT NULL,
        name      TEXT NOT NULL,
        barred_by TEXT NOT NULL,
        at        REAL NOT NULL,
        PRIMARY KEY (platform, scope, who)
    );
    CREATE TABLE blocks (
        platform TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        who      TEXT NOT NULL,
        name     TEXT NOT NULL,
        at       REAL NOT NULL,
        PRIMARY KEY (platform, user_id, who)
    );
    CREATE INDEX blocks_by_who ON blocks (platform, who);
    """,
    # 14: each log row says the version its change took the table to (issue 60), so a front
    # end that last showed a table at version V reads what happened since, whoever made it
    # and wherever (the terminal says each move made in the browser, by a bot or by another
    # process). Rows written before have none: nobody showed a version older than them.
    """
    ALTER TABLE actions ADD COLUMN version INTEGER;
    """,
]
