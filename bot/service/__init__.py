"""The platform-neutral service: front ends call it and deliver the plans it returns.

This package's names are the service's door and its vocabulary: `GameService` (every
chat's, the terminal's and the timer's entry points; the web board's are its `web_board`),
the requests and plans they take and give, and the commands declared for every front end.
A front end imports only from here, never from a room of the service (a contract in
pyproject.toml holds it); each room's own package says what it owns.
"""

from bot.service.base.buttons import MAX_BYTES as BUTTON_BYTES
from bot.service.base.delivery_plan import (
    MOVE,
    SHARED,
    VIEW,
    Choice,
    Picture,
    Plan,
    Reply,
    TableFacts,
)
from bot.service.base.excerpt import excerpt, short_refusal
from bot.service.base.platform_input import MAX_NAME, number
from bot.service.base.requests import ChatRef, Contact, UserError, UserRef
from bot.service.base.web_links import LOCAL, WebSession, WebSigner
from bot.service.commands import ARG_NAMES, COMMANDS, Call, Command
from bot.service.game_service import FrontEnd, GameService, Link, WebDoor
from bot.service.shared.rates import Rate, SharedRates
from bot.service.shared.update_queue import UpdateQueue
from bot.service.tables.access import MemberUnknown, Visitor
from bot.service.tables.lobby import parse_options
from bot.service.tables.play import TableSummary
from bot.service.tables.questions import HAND, NEAR
from bot.service.tables.table import chat_of
from bot.service.web.web_tables import WebPass

__all__ = [
    "ARG_NAMES",
    "BUTTON_BYTES",
    "COMMANDS",
    "HAND",
    "LOCAL",
    "MAX_NAME",
    "MOVE",
    "NEAR",
    "SHARED",
    "VIEW",
    "Call",
    "ChatRef",
    "Choice",
    "Command",
    "Contact",
    "FrontEnd",
    "GameService",
    "Link",
    "MemberUnknown",
    "Picture",
    "Plan",
    "Rate",
    "Reply",
    "SharedRates",
    "TableFacts",
    "TableSummary",
    "UpdateQueue",
    "UserError",
    "UserRef",
    "Visitor",
    "WebDoor",
    "WebPass",
    "WebSession",
    "WebSigner",
    "chat_of",
    "excerpt",
    "number",
    "parse_options",
    "short_refusal",
]
