"""Typed settings from the environment (and a `.env` file beside the project, if present)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import dotenv


def load_dotenv(path: Path = Path(".env")) -> None:
    """Read a `.env` file with python-dotenv (inline `# comments`, `export KEY=`, quotes and
    escapes as every other tool reads them); the real environment always wins."""
    if path.is_file():
        dotenv.load_dotenv(path, override=False, encoding="utf-8")


def _ids(value: str) -> list[int]:
    return [int(v) for v in value.replace(",", " ").split() if v.strip().isdigit()]


def _pace(value: str) -> str:
    from bot.service.deadlines import PACES

    value = value.strip().lower() or "normal"
    if value not in PACES:
        raise ValueError(f"ESCAPE_PACE must be one of {', '.join(PACES)}, not {value!r}")
    return value


def _seconds(value: str) -> float:
    try:
        seconds = float(value.strip() or 30)
    except ValueError:
        seconds = float("nan")
    if not 1 <= seconds <= 3600:
        raise ValueError(f"ESCAPE_TIMER_INTERVAL is seconds from 1 to 3600, not {value!r}")
    return seconds


def _database(value: str) -> Path | str:
    """ESCAPE_DB: a path is an SQLite file; a postgresql:// URL stays a string."""
    from bot.store.database import is_url

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


def _address(value: str) -> tuple[str, int] | None:
    """ESCAPE_METRICS: `host:port` (or `:port`, every interface) of the HTTP server with
    /metrics, /healthz and /readyz; empty: no HTTP server."""
    value = value.strip()
    if not value:
        return None
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"ESCAPE_METRICS is host:port (e.g. 127.0.0.1:9100), not {value!r}")
    return host.strip("[]") or "0.0.0.0", int(port)


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
    log_format: str = "text"  # or json: one object a line (README: Operations)
    metrics_address: tuple[str, int] | None = None  # the HTTP server of /metrics and probes
    discord_token: str = ""
    discord_guild_ids: list[int] = field(default_factory=list)
    discord_api_base: str = ""
    discord_gateway: str = ""
    discord_shards: str = ""
    discord_shard_ids: list[int] = field(default_factory=list)
    telegram_token: str = ""
    telegram_base_url: str = ""
    telegram_base_file_url: str = ""
    telegram_webhook_url: str = ""
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = 8443
    telegram_webhook_secret: str = ""
    default_pace: str = "normal"
    timer_interval: float = 30.0

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
            default_pace=_pace(e.get("ESCAPE_PACE", "normal")),
            timer_interval=_seconds(e.get("ESCAPE_TIMER_INTERVAL", "30")),
        )

    @property
    def has_platform(self) -> bool:
        return bool(self.discord_token or self.telegram_token)
