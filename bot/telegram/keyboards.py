"""Inline keyboards: a reply's choices (paginated), the bare `/escape` menu, the game list."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.delivery.text import label_within
from bot.service import COMMANDS, VIEW, Choice
from bot.telegram import callback_data as callbacks
from languages import DEFAULT, msg, say

PAGE_SIZE = 24  # 12 rows of 2: usable on a phone, far below Telegram's 100 buttons
COLUMNS = 2
MAX_LABEL = 60


def is_hand_choice(choice: Choice) -> bool:
    """The shared "my private view" button. In a group it becomes a deep link into the
    private chat (the only place a secret may go)."""
    return choice.role == VIEW


def label(text: str) -> str:
    return label_within(text, MAX_LABEL)


def page_count(choices: Sequence[Choice]) -> int:
    playable = [c for c in choices if not is_hand_choice(c)]
    return max(1, -(-len(playable) // PAGE_SIZE))


def choices_keyboard(
    choices: Sequence[Choice],
    *,
    session_id: int | None,
    version: int | None,
    page: int = 0,
    hand_url: str | None = None,
    one_row: bool = False,
    language: str = DEFAULT,
) -> InlineKeyboardMarkup | None:
    """The buttons of one page. `hand_url`: a deep link replacing the service's view button."""
    playable = [c for c in choices if not is_hand_choice(c)]
    hand = [c for c in choices if is_hand_choice(c)]
    pages = max(1, -(-len(playable) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    shown = playable[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    buttons = [
        InlineKeyboardButton(label(say(c.label, language)), callback_data=callbacks.choice(c.data))
        for c in shown
    ]
    width = len(buttons) if one_row and len(buttons) <= 3 else COLUMNS
    rows = [buttons[i : i + width] for i in range(0, len(buttons), width)]
    if pages > 1 and session_id is not None and version is not None:
        nav = []
        if page > 0:
            nav.append(
                InlineKeyboardButton(
                    say(msg("‹ Prev"), language),
                    callback_data=callbacks.page(session_id, version, page - 1),
                )
            )
        nav.append(
            InlineKeyboardButton(
                f"{page + 1}/{pages}", callback_data=callbacks.page(session_id, version, page)
            )
        )
        if page < pages - 1:
            nav.append(
                InlineKeyboardButton(
                    say(msg("Next ›"), language),
                    callback_data=callbacks.page(session_id, version, page + 1),
                )
            )
        rows.append(nav)
    for c in hand:
        if hand_url:
            rows.append(
                [InlineKeyboardButton(say(msg("My hand (private)"), language), url=hand_url)]
            )
        else:
            rows.append(
                [
                    InlineKeyboardButton(
                        label(say(c.label, language)), callback_data=callbacks.choice(c.data)
                    )
                ]
            )
    return InlineKeyboardMarkup(rows) if rows else None


OPEN_BOARD = msg("Open board")


def board_button(
    session_id: int, *, group: bool, bot: str, webapp: str, public_url: str, language: str = DEFAULT
) -> InlineKeyboardButton | None:
    """The web board's button under a board: in a group a URL button, the Mini App's direct
    link (`t.me/<bot>/<app>?startapp=<table>`; Telegram refuses web_app buttons in groups);
    in a private chat a web_app button, which opens the Mini App signed in. None when the
    Mini App is not set up (no short name, or no HTTPS origin)."""
    if group:
        if not webapp or not bot:
            return None
        return InlineKeyboardButton(
            say(OPEN_BOARD, language), url=f"https://t.me/{bot}/{webapp}?startapp={session_id}"
        )
    if not public_url.startswith("https://"):
        return None
    return InlineKeyboardButton(
        say(OPEN_BOARD, language), web_app=WebAppInfo(f"{public_url}/tg?table={session_id}")
    )


def menu_keyboard(hand_url: str | None = None, language: str = DEFAULT) -> InlineKeyboardMarkup:
    """The bare `/escape` menu: the command table's menu commands, three a row."""
    buttons = []
    for command in COMMANDS:
        if not command.menu:
            continue
        text = say(command.label, language)
        if command.in_private is not None and hand_url:  # answered in the private chat
            buttons.append(InlineKeyboardButton(text, url=hand_url))
        else:
            buttons.append(InlineKeyboardButton(text, callback_data=callbacks.menu(command.name)))
    return InlineKeyboardMarkup([buttons[i : i + 3] for i in range(0, len(buttons), 3)])


def games_keyboard(games: Sequence[tuple[str, str]]) -> InlineKeyboardMarkup:
    buttons = [
        InlineKeyboardButton(label(title), callback_data=callbacks.start(gid))
        for gid, title in games
    ]
    return InlineKeyboardMarkup([buttons[i : i + COLUMNS] for i in range(0, len(buttons), COLUMNS)])
