"""The web board: the table in a browser, a Telegram Mini App and a Discord Activity, as a
fourth front end on the same plans (docs/web-board.md)."""

from bot.web.board_server import WebBoard, WebConfig

__all__ = ["WebBoard", "WebConfig"]
