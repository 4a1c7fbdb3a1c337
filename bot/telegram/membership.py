"""Who is in a Telegram group, as the web board's access rule asks it: the bot's
getChatMember (a bot may ask about any user of a group it is in)."""

from __future__ import annotations

from collections.abc import Callable

from telegram import Bot
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.service import ChatRef, MemberUnknown, UserRef

IN_CHAT = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.MEMBER)


def member_lookup(bot: Callable[[], Bot | None]):
    """`is_member(chat, user)` over the bot the adapter holds now (None: not connected)."""

    async def is_member(chat: ChatRef, user: UserRef) -> bool:
        connected = bot()
        if connected is None:
            raise MemberUnknown("telegram is not connected")
        if not (user.id.isascii() and user.id.isdigit() and chat.chat.lstrip("-").isdigit()):
            return False
        try:
            member = await connected.get_chat_member(int(chat.chat), int(user.id))
        except (BadRequest, Forbidden):  # not in the group ("user not found"), or we are not
            return False
        except TelegramError as exc:  # the network, a rate limit: not known now
            raise MemberUnknown(str(exc)) from exc
        if member.status == ChatMemberStatus.RESTRICTED:
            return bool(getattr(member, "is_member", False))
        return member.status in IN_CHAT

    return is_member
