"""The platform-neutral service: front ends call it and deliver the plans it returns."""

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
from bot.service.base.requests import ChatRef, Contact, UserError, UserRef
from bot.service.commands import COMMANDS, Call, Command
from bot.service.game_service import FrontEnd, GameService, Link, WebDoor
from bot.service.tables.access import MemberUnknown, Visitor
from bot.service.tables.lobby import parse_options
from bot.service.tables.play import TableSummary
from bot.service.tables.table import chat_of

__all__ = [
    "COMMANDS",
    "MOVE",
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
    "Reply",
    "TableFacts",
    "TableSummary",
    "UserError",
    "UserRef",
    "Visitor",
    "WebDoor",
    "chat_of",
    "parse_options",
]
