"""The platform-neutral service: adapters call it and turn its replies into messages."""

from bot.service.game_service import GameService, chat_of, parse_options
from bot.service.replies import ChatRef, Choice, Picture, Reply, UserError, UserRef

__all__ = [
    "ChatRef",
    "Choice",
    "GameService",
    "Picture",
    "Reply",
    "UserError",
    "UserRef",
    "chat_of",
    "parse_options",
]
