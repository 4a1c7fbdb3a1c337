"""Dark Castle's party: a box a prisoner (hit points, traits, items, flaw, curses, the last
roll, and tags for what is special about them now), and the trait shapes the boxes share
with the card's dice rows (render/dark_castle.py draws the card and the header)."""

from __future__ import annotations

from PIL import ImageDraw

from engines.text import Msg, in_context, joined, msg
from languages import DEFAULT, say
from render import lettering, palette, tokens
from render.dark_castle_words import SPECIAL, TRAIT

WIDTH = 1200
PARTY_X = 648
HEADER = 96


LINE = int(18 * 1.3)  # a line of the 18-pixel text in a prisoner's box


# A companion's special face (Scourge of the Undead Queen): a purple star.


def symbol(d: ImageDraw.ImageDraw, x: float, y: float, r: float, trait: str, language: str) -> None:
    shape, colour, letter, _ = TRAIT.get(trait, SPECIAL)
    tokens.token(
        d, (x, y), r, shape, colour, say(letter, language)
    )  # a triangle sits centred by `token`


def rolled(d: ImageDraw.ImageDraw, x: float, y: float, r: float, face: str, language: str) -> float:
    """Draw a rolled face at (x, y) centre-left; return the x after it."""
    if not face:
        return x
    if len(face) == 2:
        d.rounded_rectangle(
            (x - 4, y - r - 6, x + 4 * r + 12, y + r + 6),
            8,
            outline=palette.INK,
            width=3,
            fill=palette.WHITE,
        )
    for i, t in enumerate(face):
        symbol(d, x + r + 2 + i * (2 * r + 4), y, r, t, language)
    return x + len(face) * (2 * r + 4) + 10


def fitted(content: str, size: int, width: float, smallest: int = 12) -> tuple[str, int]:
    """A short label for a fixed space: a smaller size first, then cut with an ellipsis."""
    while size > smallest and lettering.text_width(content, size) > width:
        size -= 1
    return lettering.fit(content, size, width), size


def char_lines(char: dict, few: bool, language: str = DEFAULT) -> list[tuple[str, tuple, int]]:
    """The lines under a prisoner's hit points: (text, colour, most lines it may take)."""

    def S(value) -> str:
        return say(value, language)

    held = [
        msg("{item} (2H)", item=i["name"]) if i["hands"] == 2 else i["name"] for i in char["items"]
    ]
    items = joined(held) if held else in_context("items", "none")
    lines = [(S(msg("Items: {items}", items=items)), palette.INK, 3 if few else 2)]
    if char.get("stored"):
        packed = joined([i["name"] for i in char["stored"]])
        lines.append((S(msg("In the knapsack: {items}", items=packed)), palette.DARK, 2))
    if char.get("flaw"):
        if char["flaw"]["used"]:
            lines.append(
                (S(msg("Flaw: {flaw} (used)", flaw=char["flaw"]["name"])), palette.DARK, 1)
            )
        else:
            lines.append((S(msg("Flaw: {flaw}", flaw=char["flaw"]["name"])), palette.DARK, 1))
    if char.get("companion"):
        said = msg("Special (S): {special}", special=char["companion"]["special"])
        lines.append((S(said), palette.PURPLE, 2))
    if char.get("curses"):
        cursed = joined([c["name"] for c in char["curses"]])
        lines.append((S(msg("Curses: {curses}", curses=cursed)), palette.VERMILION, 2))
    return lines


def box_height(view: dict, language: str = DEFAULT) -> int:
    """A prisoner's box: taller when someone's items, knapsack, flaw and curses need it, so
    no line is cut off or runs over the box below."""
    chars = view["chars"]
    few = len(chars) <= 2
    need = 0
    for char in chars:
        rows = sum(
            min(len(lettering.wrap(text, 18, 330)), most)
            for text, _, most in char_lines(char, few, language)
        )
        need = max(need, 88 + rows * LINE + 24)
    return max(200 if few else 176, need)


TAGS = {
    "you": msg("YOU"),
    "resting": msg("RESTING"),
    "block": msg("BLOCK"),
    "cult": msg("WITH THE CULT"),
    "marked": msg("MARKED"),
    "cult_die": msg("CULT DIE"),
    "spirit": msg("SPIRIT"),
    "companion": msg("COMPANION"),
    "drinks": msg("DRINKS"),
    "casting": msg("CASTING"),
}


def tags_of(view: dict, char: dict) -> list[Msg]:
    """What is special about a character now, as short tags beside its name."""
    cb = view.get("combat") or {}
    relics = view.get("relics") or {}
    ritual = relics.get("ritual") or {}
    who = char["who"]
    comp = char.get("companion")
    tags = []
    if view.get("turner") == who and who:
        tags.append(TAGS["you"])
    if cb.get("rester") == who and who:
        tags.append(TAGS["resting"])
    if who in cb.get("blocked", []):
        tags.append(TAGS["block"])
    if who in cb.get("turned", []):
        tags.append(TAGS["cult"])
    if char.get("marked"):
        tags.append(TAGS["marked"])
    if char.get("cult_die"):
        tags.append(TAGS["cult_die"])
    if comp:
        tags.append(TAGS["spirit"] if comp["immune"] else TAGS["companion"])
    if ritual.get("to") == who:
        tags.append(TAGS["drinks"])
    if who in ritual.get("gifts", {}):
        tags.append(msg("GIVES {n}", n=ritual["gifts"][who]))
    if (relics.get("casting") or {}).get("by") == who:
        tags.append(TAGS["casting"])
    return tags


def party(out, view: dict, language: str = DEFAULT) -> None:
    """Each prisoner's box as parts of a scene (render/scene.py): its frame, its head (who
    acts: the head lit), its hit points and traits, its lines, its plague and its last roll.
    A move changes one or two of them, and each spans at most three bands of 32 rows of the
    PNG (render/png_bands.py), so a roll or the turn passing no longer deflates the whole
    box again."""
    chars = view["chars"]
    box_h = box_height(view, language)
    few = len(chars) <= 2
    y = HEADER + 16
    acting = set(view["to_act"])
    x, right = PARTY_X, WIDTH - 22
    for char in chars:
        comp = bool(char.get("companion"))
        hl = char["seat"] in acting and not comp  # a companion: anyone acts for it
        tags = [say(tag, language) for tag in tags_of(view, char)]
        title = say(char["title"] or msg("(choosing)"), language)
        out.stamp((x, y), (WIDTH - 19 - x, box_h - 9), _frame, comp, box_h)
        badge = fitted(say(msg("ALLY"), language), 12, 34, smallest=8) if comp else None
        player = say(char["player"], language)
        out.add(
            (x + 4, y + HEAD[0], right - 2, y + HEAD[1]),
            _head,
            char["seat"],
            badge,
            title,
            player,
            tags,
            hl,
            y,
        )
        top = char.get("hp_max") or view["hp_start"]  # a companion has its own start
        hp = say(msg("{hp}/{top} HP", hp=char["hp"], top=top), language)
        traits = tuple(char["traits"].get(t, 0) for t in ("m", "c", "w"))
        out.add(
            # clear of the head (drawn again with it otherwise), but for a companion's star
            (x + 6, y + (44 if comp else HEAD[1]), right, y + 80),
            _hit_points,
            comp,
            char["hp"],
            top,
            hp,
            traits,
            y,
            language,
        )
        lines = char_lines(char, few, language)
        out.add((x + 6, y + 80, x + 350, y + box_h - 10), _lines, lines, y)
        if char.get("plague"):
            plague = (char["plague"], char.get("next_threshold"))
            out.add((x + 368, y + 124, right, y + 168), _plague, plague, y, language)
        if char["roll"]:
            roll = fitted(say(msg("Roll:"), language), 18, 62, smallest=12)
            out.add((x + 350, y + 80, right, y + 126), _roll, roll, char["roll"], y, language)
        y += box_h


HEAD = (8, 47)  # a box's head, down from its top: two bands of 32 rows (render/png_bands.py)


def _frame(d: ImageDraw.ImageDraw, comp: bool, box_h: int) -> None:
    """A prisoner's box (a companion's purple), from the stamp's corner: drawn once for all
    boxes alike (a stamp is pasted, cheaper than drawn again under a part that changed)."""
    d.rounded_rectangle(
        (0, 0, WIDTH - 20 - PARTY_X, box_h - 10),
        14,
        fill=palette.PANEL,
        outline=palette.PURPLE if comp else palette.INK,
        width=5 if comp else 2,
    )


def _head(
    d: ImageDraw.ImageDraw,
    seat: int,
    badge: tuple | None,
    title: str,
    player: str,
    tags: list[str],
    hl: bool,
    y: int,
) -> None:
    """A box's head: its badge (P1, or ALLY for a companion), title and player, and tags;
    lit while the prisoner acts (`hl`)."""
    x = PARTY_X
    if hl:
        d.rounded_rectangle(
            (x + 4, y + HEAD[0], WIDTH - 25, y + HEAD[1] - 1),
            10,
            fill=palette.HIGHLIGHT,
            outline=palette.INK,
            width=1,
        )
    d.rounded_rectangle(
        (x + 8, y + 14, x + 44, y + 40), 6, fill=palette.NIGHT if badge is None else palette.PURPLE
    )
    said, size = badge if badge is not None else (f"P{seat + 1}", 18)
    lettering.text(d, (x + 26, y + 27), said, size, palette.WHITE, "mm")
    # The tags take at most half the line; the title and player's name take what the
    # tags leave of it; a long name is cut, never the title (it says which prisoner).
    line = WIDTH - 34 - (x + 54)
    tagged = lettering.fit(" / ".join(tags), 20, line // 2) if tags else ""
    if tags:
        lettering.text(d, (WIDTH - 34, y + 27), tagged, 20, palette.VERMILION, "rm")
    room = line - (lettering.text_width(tagged, 20) + 14 if tags else 0)
    head = f"{title} - "
    name = lettering.isolate(lettering.fit(player, 24, room - lettering.text_width(head, 24)))
    lettering.text(d, (x + 54, y + 27), lettering.fit(head + name, 24, room), 24, palette.INK, "lm")


def _hit_points(
    d: ImageDraw.ImageDraw,
    comp: bool,
    hp: int,
    top: int,
    said: str,
    traits: tuple,
    y: int,
    language: str,
) -> None:
    """Hit points (a bar and the number), then the die's traits as shapes with counts."""
    x = PARTY_X
    bar = (x + 14, y + 50, x + (196 if comp else 250), y + 74)  # a companion: room for S
    d.rectangle(bar, fill=palette.WHITE, outline=palette.INK, width=2)
    if top:
        fill = bar[0] + (bar[2] - bar[0]) * max(0, hp) / top
        colour = palette.GREEN if hp * 3 > top else palette.VERMILION
        d.rectangle((bar[0] + 2, bar[1] + 2, max(bar[0] + 2, fill - 2), bar[3] - 2), fill=colour)
    tx, step = (x + 318, 54) if comp else (x + 376, 58)
    text, size = fitted(said, 22, tx - 20 - (bar[2] + 12), smallest=14)
    lettering.text(d, (bar[2] + 12, y + 62), text, size, palette.INK, "lm")
    for t, count in zip(("m", "c", "w"), traits, strict=True):
        symbol(d, tx, y + 62, 15, t, language)
        lettering.text(d, (tx + 20, y + 62), str(count), 22, palette.INK, "lm")
        tx += step
    if comp:  # and its special face
        symbol(d, tx, y + 62, 15, "x", language)
        lettering.text(d, (tx + 20, y + 62), "1", 22, palette.INK, "lm")


def _lines(d: ImageDraw.ImageDraw, lines: list, y: int) -> None:
    """Items, the knapsack, the flaw, a companion's special and the curses."""
    iy = y + 88
    for text, colour, most in lines:
        iy = lettering.paragraph(
            d, (PARTY_X + 14, iy), text, 18, 330, tuple(colour), max_lines=most
        )


def _plague(d: ImageDraw.ImageDraw, plague: tuple, y: int, language: str) -> None:
    n, threshold = plague
    _plague_tally(d, PARTY_X + 376, y + 126, {"plague": n, "next_threshold": threshold}, language)


def _roll(d: ImageDraw.ImageDraw, label: tuple, face: str, y: int, language: str) -> None:
    """The prisoner's last roll."""
    roll, size = label
    lettering.text(d, (PARTY_X + 414, y + 102), roll, size, palette.INK, "rm")
    rolled(d, PARTY_X + 420, y + 102, 16, face, language)


def _plague_tally(d: ImageDraw.ImageDraw, x: int, y: int, char: dict, language: str) -> None:
    """Plague as tally marks (groups of five), with the next threshold and its HP cost."""
    n = char["plague"]
    for i in range(min(n, 15)):
        group, mark = divmod(i, 5)
        gx = x + group * 44
        if mark < 4:
            d.line((gx + mark * 8, y, gx + mark * 8, y + 18), fill=palette.GREEN, width=3)
        else:
            d.line((gx - 4, y + 14, gx + 28, y + 4), fill=palette.GREEN, width=3)
    nxt = char.get("next_threshold")
    if nxt:
        label = msg("plague {n}, at {at}: -{hp} HP", n=n, at=nxt[0], hp=nxt[1])
    else:
        label = msg("plague {n}", n=n)
    said, size = fitted(say(label, language), 16, WIDTH - 30 - x, smallest=11)
    lettering.text(d, (x, y + 30), said, size, palette.DARK, "lm")
