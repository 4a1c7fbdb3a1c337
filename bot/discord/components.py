"""Buttons and menus that survive restarts: the service's choice data rides in the custom id.

A `Choice.data` string is opaque here: it goes into the component verbatim behind a short
prefix and comes back to `GameService.press` from whoever clicks, which checks it like any
input (a stale version or a forged id is refused there, not here).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import discord

from bot.delivery.text import label_within
from bot.service import BUTTON_BYTES, Choice, Reply
from languages import DEFAULT, msg, say

log = logging.getLogger(__name__)

BUTTON_PREFIX = "escape:"
MENU_PREFIX = "escape-menu:"
MAX_ROWS = 5  # Discord: at most five action rows a message
PER_ROW = 5  # ... of five buttons each, or one select each
MAX_OPTIONS = 25  # options in one select
BUTTON_LABEL = 80
OPTION_LABEL = 100

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


clip = label_within  # (Discord counts characters)


async def _press(interaction: discord.Interaction, data: str) -> None:
    bridge = getattr(interaction.client, "bridge", None)
    if bridge is None:  # a client without the adapter (e.g. the one `escape-bot sync` uses)
        log.warning("a component click reached a client without the Escape bridge")
        return
    await bridge.press(interaction, data)


class ChoiceButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"escape:(?P<data>[!-~]{{1,{BUTTON_BYTES}}})",
):
    """One of the service's choices as a button; its custom id is `escape:<data>`."""

    def __init__(
        self,
        data: str,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label, BUTTON_LABEL), style=style, custom_id=BUTTON_PREFIX + data
            )
        )
        self.data = data

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match, /
    ) -> ChoiceButton:
        return cls(match["data"], item.label or "…", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _press(interaction, self.data)


class ChoiceMenu(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"escape-menu:(?P<key>[0-9:]{1,60})",
):
    """A select of choices for when they do not fit as buttons; each option's value is the
    choice data, handed back exactly like a button's."""

    def __init__(
        self,
        key: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=MENU_PREFIX + key,
                options=options or [],
                placeholder=placeholder,
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match, /
    ) -> ChoiceMenu:
        return cls(match["key"], list(item.options), item.placeholder)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        if values:
            await _press(interaction, str(values[0]))


@dataclass
class Layout:
    view: discord.ui.View | None
    left_out: int = 0  # choices that did not fit (still reachable with /escape move)


ACTIVITY_PREFIX = "escape-activity:"  # the Open board button: launches the Activity


def layout(reply: Reply, open_board: bool = False) -> Layout:
    """Buttons when every choice fits (five rows of five); otherwise one select a row for
    each player's moves, 25 options a select, and the shared buttons (my hand, join...) in
    the last row. `open_board`: a running game's board also gets Open board (the Activity),
    where a place is left."""
    built = _layout(reply)
    if not open_board or reply.kind != "board" or reply.final or reply.session_id is None:
        return built
    view = built.view or discord.ui.View(timeout=None)
    if (
        len(view.children) < MAX_ROWS * PER_ROW
        and sum(isinstance(i, ChoiceMenu) for i in view.children) < MAX_ROWS
    ):
        view.add_item(
            discord.ui.Button(
                label="Open board",
                style=discord.ButtonStyle.secondary,
                custom_id=f"{ACTIVITY_PREFIX}{reply.session_id}",
            )
        )
    return Layout(view, built.left_out)


def _layout(reply: Reply) -> Layout:
    choices = [c for c in reply.choices if len(c.data) <= BUTTON_BYTES]
    if not choices:
        return Layout(None)
    view = discord.ui.View(timeout=None)
    if len(choices) <= MAX_ROWS * PER_ROW:
        for choice in choices:
            view.add_item(ChoiceButton(choice.data, choice.label, _style(choice)))
        return Layout(view)
    shared = [c for c in choices if c.for_user is None][:PER_ROW]
    moves = [c for c in choices if c.for_user is not None]
    free_rows = MAX_ROWS - (1 if shared else 0)
    chunks: list[list[Choice]] = []
    owners: list[str] = []
    for choice in moves:
        if choice.for_user not in owners:
            owners.append(choice.for_user)
    for owner in owners:
        own = [c for c in moves if c.for_user == owner]
        chunks += [own[i : i + MAX_OPTIONS] for i in range(0, len(own), MAX_OPTIONS)]
    shown = chunks[:free_rows]
    left_out = sum(len(c) for c in chunks[free_rows:])
    key = f"{reply.session_id or 0}:{reply.version or 0}"
    for n, chunk in enumerate(shown):
        own = [c for c in moves if c.for_user == chunk[0].for_user]
        first = own.index(chunk[0]) + 1
        language = reply.language or DEFAULT
        placeholder = say(
            msg(
                "Choose a move ({first}-{last} of {count})",
                first=first,
                last=first + len(chunk) - 1,
                count=len(own),
            )
            if len(own) > len(chunk)
            else msg("Choose a move"),
            language,
        )
        options = [
            discord.SelectOption(label=clip(say(c.label, language), OPTION_LABEL), value=c.data)
            for c in chunk
        ]
        view.add_item(ChoiceMenu(f"{key}:{n}", options, placeholder))
    for choice in shared:
        view.add_item(ChoiceButton(choice.data, choice.label, _style(choice)))
    return Layout(view, left_out)


def _style(choice: Choice) -> discord.ButtonStyle:
    return STYLES.get(choice.style, discord.ButtonStyle.secondary)
