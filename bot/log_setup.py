"""The process's logging: the level from LOG_LEVEL, and no secret in any line.

Secrets reach log lines from libraries we do not control: the Telegram token is part of
every Bot API URL (`.../bot<TOKEN>/getMe`), which httpx logs at INFO and PTB logs at DEBUG
("Set Bot API URL"), PTB's refusal of a token repeats it, and PTB's DEBUG lines carry
`setWebhook`'s parameters with the webhook secret. So httpx and httpcore are held to
WARNING (their request lines say nothing an operator needs), and every handler on the
root logger, where every logger's records end up, gets a filter that replaces each
configured secret wherever it appears: in the message, its arguments, a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from urllib.parse import quote

from bot.settings import Settings

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
HIDDEN = "[secret]"
QUIET = ("httpx", "httpcore")  # one INFO line per request, the token in its URL


def _not_about_voice(record: logging.LogRecord) -> bool:
    """discord.py warns at every start that voice is unsupported; Escape never speaks."""
    return "voice will NOT be supported" not in str(record.msg)


def _a_retried_429_is_news(record: logging.LogRecord) -> bool:
    """discord.py warns at each 429 it waits out and retries: a retried 429 is counted
    (`escape_rate_limited_total`) and told at INFO, like Telegram's (issue 58)."""
    if (
        record.levelno == logging.WARNING
        and "limited" in str(record.msg)
        and "Retrying" in str(record.msg)
    ):
        record.levelno, record.levelname = logging.INFO, "INFO"
        return logging.getLogger(record.name).isEnabledFor(logging.INFO)
    return True


class RedactSecrets(logging.Filter):
    """Replaces each secret (and its URL-encoded form) in a record before it is written."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        forms = {form for s in secrets if s for form in (s, quote(s, safe=""), quote(s))}
        self.forms = sorted(forms, key=len, reverse=True)  # a longer form before its parts

    def redact(self, text: str) -> str:
        for secret in self.forms:
            text = text.replace(secret, HIDDEN)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.forms:
            return True
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: let the handler report it as usual
            return True
        record.msg, record.args = self.redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


def configure_logging(settings: Settings) -> RedactSecrets:
    """Set up the root logger for this process; returns the filter (to redact other text
    the same way, such as a one-line start-up error)."""
    logging.basicConfig(level=getattr(logging, settings.log_level, logging.INFO), format=FORMAT)
    for name in QUIET:
        logging.getLogger(name).setLevel(max(logging.WARNING, logging.getLogger().level))
    logging.getLogger("discord.client").addFilter(_not_about_voice)
    logging.getLogger("discord.http").addFilter(_a_retried_429_is_news)
    redactor = RedactSecrets(settings.secrets())
    for handler in logging.getLogger().handlers:
        for old in [f for f in handler.filters if isinstance(f, RedactSecrets)]:
            handler.removeFilter(old)  # configured again (a test's second run): new secrets
        handler.addFilter(redactor)
    return redactor
