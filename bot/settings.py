"""Typed settings from the environment (and a `.env` file beside the project, if present)."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import re
from dataclasses import dataclass, field, fields
from pathlib import Path

import dotenv

# Boards of each game a CPU worker draws when it has nothing to do, once after it starts, so
# the first games after a restart find fonts, frames and cards drawn (render/practice.py):
# measured here, about 2.3 s of one core a worker, and its memory at 130-140 MB at once, which
# a worker reached anyway after its first few hundred boards
PRACTICE = 200


def webhook_secret(token: str) -> str:
    """The Telegram webhook secret when none is set: the same in every worker and at every
    start, and unguessable without the bot token (which could do anything anyway)."""
    return hmac.new(token.encode(), b"escape webhook secret", hashlib.sha256).hexdigest()


def derived_web_secret(*tokens: str) -> bytes | None:
    """The web board's signing key when ESCAPE_WEB_SECRET is unset: the same in every
    process of one bot (they share its tokens), unguessable without them; None without any."""
    material = "\n".join(t for t in tokens if t)
    if not material:
        return None
    return hmac.new(material.encode(), b"escape web secret", hashlib.sha256).digest()


def redact_url(target: Path | str) -> str:
    """A database name fit for a log line: a URL's password hidden."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", str(target))


def load_dotenv(path: Path = Path(".env")) -> None:
    """Read a `.env` file with python-dotenv (inline `# comments`, `export KEY=`, quotes and
    escapes as every other tool reads them); the real environment always wins."""
    if path.is_file():
        dotenv.load_dotenv(path, override=False, encoding="utf-8")


def _ids(value: str) -> list[int]:
    return [int(v) for v in value.replace(",", " ").split() if v.strip().isdigit()]


def _pace(value: str) -> str:
    from bot.service.base.deadlines import PACES

    value = value.strip().lower() or "normal"
    if value not in PACES:
        raise ValueError(f"ESCAPE_PACE must be one of {', '.join(PACES)}, not {value!r}")
    return value


def _seconds(value: str, name: str = "ESCAPE_TIMER_INTERVAL", most: float = 3600) -> float:
    """Seconds from 1 to `most` (empty: 30)."""
    try:
        seconds = float(value.strip() or 30)
    except ValueError:
        seconds = float("nan")
    if not 1 <= seconds <= most:
        raise ValueError(f"{name} is seconds from 1 to {most:g}, not {value!r}")
    return seconds


# The platforms' published limits, per bot token (docs/configuration.md): calls per seconds
RATE_DEFAULTS = {
    "TELEGRAM_RATE_GLOBAL": "30/1",  # 30 messages a second in all
    "TELEGRAM_RATE_GROUP": "20/60",  # 20 messages a minute in one group
    "TELEGRAM_RATE_CHAT": "1/1",  # about one message a second in one chat
    "DISCORD_RATE_GLOBAL": "50/1",  # 50 requests a second (interactions aside)
}


def _rate(e, name: str) -> tuple[int, float]:
    """A rate setting, `N/S` (N calls in S seconds), `N` (a second) or 0 (no limit), as
    (count, seconds)."""
    text = e.get(name, "")
    value = text.strip() or RATE_DEFAULTS[name]
    found = re.fullmatch(r"(\d+)(?:\s*/\s*(\d+(?:\.\d+)?))?", value)
    if found is None or (found.group(2) is not None and float(found.group(2)) <= 0):
        raise ValueError(
            f"{name} is calls per seconds, like {RATE_DEFAULTS[name]} (0: no limit), not {text!r}"
        )
    return int(found.group(1)), float(found.group(2) or 1)


def _practice(value: str) -> int:
    """ESCAPE_PRACTICE: boards of each game a CPU worker draws when idle (render/practice.py)."""
    value = value.strip() or str(PRACTICE)
    if not (value.isascii() and value.isdigit()) or int(value) > 5000:
        raise ValueError(f"ESCAPE_PRACTICE is a number of boards from 0 to 5000, not {value!r}")
    return int(value)


def _cpu_layout(value: str) -> str:
    """ESCAPE_CPU_LAYOUT: where the bot's threads and its CPU workers run
    (bot/service/pictures/cores.py)."""
    value = value.strip().lower() or "split"
    if value not in ("split", "shared"):
        raise ValueError(f"ESCAPE_CPU_LAYOUT is split or shared, not {value!r}")
    return value


def _tries(value: str) -> int:
    value = value.strip() or "4"
    if not value.isdigit() or not 1 <= int(value) <= 20:
        raise ValueError(f"ESCAPE_CONNECT_TRIES is a number from 1 to 20, not {value!r}")
    return int(value)


def _database(value: str) -> Path | str:
    """ESCAPE_DB: a path is an SQLite file; a postgresql:// URL stays a string."""
    from bot.store.dialects import is_url

    return value if is_url(value) else Path(value)


def _shards(value: str, ids: str) -> tuple[str, list[int]]:
    """ESCAPE_SHARDS (empty, `auto` or a count) and ESCAPE_SHARD_IDS, checked together."""
    value = value.strip().lower()
    served = _ids(ids)
    if value in ("", "auto"):
        if served:
            raise ValueError("ESCAPE_SHARD_IDS needs ESCAPE_SHARDS set to the number of shards")
        return value, []
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"ESCAPE_SHARDS is empty, auto or a number of shards, not {value!r}")
    if any(i >= int(value) for i in served):
        raise ValueError(f"ESCAPE_SHARD_IDS must be below ESCAPE_SHARDS ({value})")
    return value, served


def _address(value: str, name: str = "ESCAPE_METRICS") -> tuple[str, int] | None:
    """ESCAPE_METRICS (or ESCAPE_WEB): `host:port` (or `:port`, every interface) of the
    HTTP server; empty: none."""
    value = value.strip()
    if not value:
        return None
    host, sep, port = value.rpartition(":")
    if not sep or not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        raise ValueError(f"{name} is host:port (e.g. 127.0.0.1:9100), not {value!r}")
    return host.strip("[]") or "0.0.0.0", int(port)


def _public_url(value: str) -> str:
    """ESCAPE_PUBLIC_URL: the origin people open the web board at (https in production)."""
    value = value.strip().rstrip("/")
    if value and not re.fullmatch(r"https?://[^/\s?#]+(/[^\s?#]*)?", value):
        raise ValueError(
            f"ESCAPE_PUBLIC_URL is an http(s) URL such as https://escape.example.org, not {value!r}"
        )
    return value


def _proxies(value: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """ESCAPE_WEB_PROXIES: the reverse proxies in front of the web board (addresses or
    networks, comma-separated), the only peers whose X-Forwarded-For is believed."""
    found = []
    for part in value.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            found.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(
                "ESCAPE_WEB_PROXIES lists addresses or networks, comma-separated "
                f"(e.g. 127.0.0.1 or 172.16.0.0/12), not {part!r}"
            ) from None
    return tuple(found)


def _keep_days(value: str) -> float | None:
    """ESCAPE_KEEP_GAMES_DAYS: finished games are deleted this many days after their end
    (empty: kept for ever)."""
    value = value.strip()
    if not value:
        return None
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= 36_500:
        raise ValueError(
            f"ESCAPE_KEEP_GAMES_DAYS is a number of days from 1 to 36500 (empty: for ever), not {value!r}"
        )
    return float(value)


def _log_format(value: str) -> str:
    from bot.telemetry.logs import FORMATS

    value = value.strip().lower() or "text"
    if value not in FORMATS:
        raise ValueError(f"ESCAPE_LOG_FORMAT must be one of {', '.join(FORMATS)}, not {value!r}")
    return value


@dataclass(frozen=True)
class Settings:
    db_path: Path | str = Path("data/escape.sqlite3")
    db_pool: int = 10
    pictures_dir: Path = Path("pictures")
    log_level: str = "INFO"
    log_format: str = "text"  # or json: one object a line (docs/operations.md)
    metrics_address: tuple[str, int] | None = None  # the HTTP server of /metrics and probes
    web_address: tuple[str, int] | None = None  # the web board (and /healthz, /readyz) when set
    public_url: str = ""  # where people open the web board (its sockets' only origin)
    web_proxies: tuple = ()  # the reverse proxies whose X-Forwarded-For is believed
    web_secret: str = ""  # signs web links and sessions (empty: derived from the tokens)
    discord_token: str = ""
    discord_guild_ids: list[int] = field(default_factory=list)
    discord_api_base: str = ""
    discord_gateway: str = ""
    discord_shards: str = ""
    discord_shard_ids: list[int] = field(default_factory=list)
    discord_client_id: str = ""  # the Activity's OAuth2 client (the application id)
    discord_client_secret: str = ""
    telegram_token: str = ""
    telegram_webapp: str = ""  # the Mini App's short name set with BotFather's /newapp
    telegram_base_url: str = ""
    telegram_base_file_url: str = ""
    telegram_webhook_url: str = ""
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = 8443
    telegram_webhook_secret: str = ""
    telegram_update_lease: float = 30.0  # seconds a worker holds an update unrenewed
    # the platforms' limits as (calls, seconds), counted by every process of the bot
    telegram_rate_global: tuple[int, float] = (30, 1.0)
    telegram_rate_group: tuple[int, float] = (20, 60.0)
    telegram_rate_chat: tuple[int, float] = (1, 1.0)
    discord_rate_global: tuple[int, float] = (50, 1.0)
    default_pace: str = "normal"
    timer_interval: float = 30.0
    connect_tries: int = 4
    practice: int = PRACTICE  # boards of each game a CPU worker draws when idle; 0: none
    cpu_layout: str = "split"  # the bot's threads on one core, its workers on the others
    keep_games_days: float | None = None  # finished games deleted after this (None: kept)

    def __repr__(self) -> str:
        """Without the tokens and secrets: a settings object may end up in a log line."""
        hidden = {
            "discord_token",
            "telegram_token",
            "telegram_webhook_secret",
            "db_path",
            "web_secret",
            "discord_client_secret",
        }
        shown = [
            f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.name not in hidden
        ]
        return f"Settings(db_path={redact_url(self.db_path)!r}, {', '.join(shown)})"

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        e = os.environ if env is None else env
        shards, shard_ids = _shards(e.get("ESCAPE_SHARDS", ""), e.get("ESCAPE_SHARD_IDS", ""))
        return cls(
            db_path=_database(e.get("ESCAPE_DB", "data/escape.sqlite3")),
            db_pool=int(e.get("ESCAPE_DB_POOL", "10") or 10),
            pictures_dir=Path(e.get("ESCAPE_PICTURES", "pictures")),
            log_level=e.get("LOG_LEVEL", "INFO").upper(),
            log_format=_log_format(e.get("ESCAPE_LOG_FORMAT", "text")),
            metrics_address=_address(e.get("ESCAPE_METRICS", "")),
            web_address=_address(e.get("ESCAPE_WEB", ""), "ESCAPE_WEB"),
            public_url=_public_url(e.get("ESCAPE_PUBLIC_URL", "")),
            web_proxies=_proxies(e.get("ESCAPE_WEB_PROXIES", "")),
            web_secret=e.get("ESCAPE_WEB_SECRET", "").strip(),
            discord_client_id=e.get("DISCORD_CLIENT_ID", "").strip(),
            discord_client_secret=e.get("DISCORD_CLIENT_SECRET", "").strip(),
            telegram_webapp=e.get("TELEGRAM_WEBAPP", "").strip(),
            discord_token=e.get("DISCORD_TOKEN", "").strip(),
            discord_guild_ids=_ids(e.get("DISCORD_GUILD_IDS", "")),
            discord_api_base=e.get("DISCORD_API_BASE", "").strip(),
            discord_gateway=e.get("DISCORD_GATEWAY", "").strip(),
            discord_shards=shards,
            discord_shard_ids=shard_ids,
            telegram_token=e.get("TELEGRAM_TOKEN", "").strip(),
            telegram_base_url=e.get("TELEGRAM_BASE_URL", "").strip(),
            telegram_base_file_url=e.get("TELEGRAM_BASE_FILE_URL", "").strip(),
            telegram_webhook_url=e.get("TELEGRAM_WEBHOOK_URL", "").strip(),
            telegram_webhook_listen=e.get("TELEGRAM_WEBHOOK_LISTEN", "0.0.0.0"),
            telegram_webhook_port=int(e.get("TELEGRAM_WEBHOOK_PORT", "8443") or 8443),
            telegram_webhook_secret=e.get("TELEGRAM_WEBHOOK_SECRET", "").strip(),
            # seconds an update is held by a worker that stopped renewing it (it died)
            # before another takes it over
            telegram_update_lease=_seconds(
                e.get("TELEGRAM_UPDATE_LEASE", ""), "TELEGRAM_UPDATE_LEASE", 600
            ),
            telegram_rate_global=_rate(e, "TELEGRAM_RATE_GLOBAL"),
            telegram_rate_group=_rate(e, "TELEGRAM_RATE_GROUP"),
            telegram_rate_chat=_rate(e, "TELEGRAM_RATE_CHAT"),
            discord_rate_global=_rate(e, "DISCORD_RATE_GLOBAL"),
            default_pace=_pace(e.get("ESCAPE_PACE", "normal")),
            timer_interval=_seconds(e.get("ESCAPE_TIMER_INTERVAL", "30")),
            connect_tries=_tries(e.get("ESCAPE_CONNECT_TRIES", "4")),
            practice=_practice(e.get("ESCAPE_PRACTICE", "")),
            cpu_layout=_cpu_layout(e.get("ESCAPE_CPU_LAYOUT", "")),
            keep_games_days=_keep_days(e.get("ESCAPE_KEEP_GAMES_DAYS", "")),
        )

    @property
    def has_platform(self) -> bool:
        return bool(self.discord_token or self.telegram_token)

    def __post_init__(self) -> None:
        if self.web_address is not None and self.web_address == self.metrics_address:
            raise ValueError(
                "ESCAPE_METRICS must be an address of its own, not ESCAPE_WEB's: the web "
                "board is public, /metrics is for the operator (e.g. ESCAPE_METRICS=127.0.0.1:9100)"
            )

    def web_key(self) -> bytes | None:
        """The web board's signing key: ESCAPE_WEB_SECRET, else one derived from the
        tokens; None when there is neither (local play draws one for its run)."""
        if self.web_secret:
            return self.web_secret.encode()
        return derived_web_secret(
            self.discord_token, self.telegram_token, self.discord_client_secret
        )

    def secrets(self) -> list[str]:
        """What must never reach a log line or an error: the tokens, the webhook secret (set,
        or the one derived from the token), the web board's secret and the Discord client
        secret, and a database URL's password."""
        found = [
            self.discord_token,
            self.telegram_token,
            self.telegram_webhook_secret,
            self.web_secret,
            self.discord_client_secret,
        ]
        if self.telegram_token:
            found.append(webhook_secret(self.telegram_token))
        key = self.web_key()
        if key is not None and not self.web_secret:
            found.append(key.hex())
        password = re.search(r"://[^:/@]*:([^@]+)@", str(self.db_path))
        if password:
            found.append(password.group(1))
        return [s for s in found if s]
