"""Who may see a Discord channel, as the web board's access rule asks it: the member's
view permission in that channel (or thread), from the guild's roles and the channel's
overwrites, with the member fetched over the bot's REST API when not cached."""

from __future__ import annotations

import aiohttp
import discord

from bot.service import ChatRef, MemberUnknown, UserRef


def member_lookup(client: discord.Client):
    async def is_member(chat: ChatRef, user: UserRef) -> bool:
        where = chat.thread or chat.chat
        if not (user.id.isascii() and user.id.isdigit() and where.isascii() and where.isdigit()):
            return False
        try:
            channel = client.get_channel(int(where)) or await client.fetch_channel(int(where))
            guild = getattr(channel, "guild", None)
            if guild is None:
                return False
            member = guild.get_member(int(user.id)) or await guild.fetch_member(int(user.id))
        except (discord.NotFound, discord.Forbidden):  # not in the server, or we cannot see
            return False
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:
            raise MemberUnknown(str(exc)) from exc
        return channel.permissions_for(member).view_channel

    return is_member
