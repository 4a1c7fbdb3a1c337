"""Log lines an operator can search: the table a line concerns, bound once per request.

`bound(platform=..., chat=...)` opens a request's scope (the service's entry guard does it
for every entry point, delivery for every plan); `bind(table=..., game=..., version=...)`
adds to it once the session is loaded. The fields live in a context variable, so each
asyncio task (an interaction, an update, the timer loop's scan of one session) carries its
own, and leaving the scope restores what was there before: nothing leaks from one table's
request to the next.

`ESCAPE_LOG_FORMAT=json` writes one JSON object a line (`JsonFormatter`); the default stays
the readable text line. Neither adds anything that was not logged: the fields are ids, a
game's name and a version, never a message's text, a hand or a token.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from types import MappingProxyType

from bot.telemetry import metrics

FIELDS = ("platform", "chat", "thread", "table", "game", "version")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
FORMATS = ("text", "json")
# The chat and database libraries' DEBUG lines carry whole payloads (a hand sent privately,
# a secret move typed, a webhook's registration, a stored state as a query's parameter), and
# httpx's INFO lines repeat each request's URL, which for Telegram holds the bot token:
# whatever LOG_LEVEL says, they log no lower than this.
LIBRARY_FLOORS = {
    "discord": logging.INFO,
    "telegram": logging.INFO,
    "aiohttp": logging.INFO,
    "aiosqlite": logging.INFO,
    "asyncpg": logging.INFO,
    "httpx": logging.WARNING,
    "httpcore": logging.WARNING,
}

_NONE: Mapping[str, object] = MappingProxyType({})
_fields: contextvars.ContextVar[Mapping[str, object]] = contextvars.ContextVar(
    "escape_log_fields", default=_NONE
)


def current() -> Mapping[str, object]:
    """The fields bound in this task now."""
    return _fields.get()


def _clean(fields: Mapping[str, object]) -> dict[str, object]:
    return {k: v for k, v in fields.items() if k in FIELDS and v not in (None, "")}


@contextlib.contextmanager
def bound(**fields: object) -> Iterator[None]:
    """A request's scope: `fields` (and what `bind` adds inside) are on every line logged
    in it; on leaving, the fields from before are back."""
    token = _fields.set({**_fields.get(), **_clean(fields)})
    try:
        yield
    finally:
        _fields.reset(token)


def bind(**fields: object) -> None:
    """Add fields to the current scope (the session once loaded: table, game, version)."""
    _fields.set({**_fields.get(), **_clean(fields)})


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, the bound
    table fields, and the exception's traceback as one string."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(getattr(record, "escape", None) or {})
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exc"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class ContextFields(logging.Filter):
    """Puts the bound fields on each record (as `record.escape`) where it is made, in the
    task that logged it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "escape"):
            record.escape = dict(_fields.get())
        return True


class CountWarnings(logging.Handler):
    """Counts WARNING and worse in `escape_log_messages`: which process is failing, and how."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)

    def emit(self, record: logging.LogRecord) -> None:
        metrics.LOG_MESSAGES.labels(record.levelname, _top(record.name)).inc()


def _top(logger: str) -> str:
    """`bot.service.timer_loop` -> `bot.service`; `discord.gateway` -> `discord`: few series."""
    parts = logger.split(".")
    return ".".join(parts[:2]) if parts[0] == "bot" else parts[0]


def configure(log_format: str, root: logging.Logger | None = None) -> None:
    """Switch the root logger's handlers (as logging.basicConfig made them) to `log_format`,
    bind the table fields onto every record, count warnings, and hold the chat libraries
    at their LIBRARY_FLOORS (LOG_LEVEL=DEBUG is for Escape's own lines)."""
    root = root or logging.getLogger()
    for handler in root.handlers:
        if not any(isinstance(f, ContextFields) for f in handler.filters):
            handler.addFilter(ContextFields())
        if log_format == "json":
            handler.setFormatter(JsonFormatter())
    if not any(isinstance(h, CountWarnings) for h in root.handlers):
        root.addHandler(CountWarnings())
    for name, floor in LIBRARY_FLOORS.items():
        logging.getLogger(name).setLevel(max(floor, root.level))
