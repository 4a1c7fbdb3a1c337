"""Dark Castle on a phone: the chapters and the traits' key in a band, the card in play
(its label and title, then what a move acts on: the options, the enemy and its row of dice,
what lies on the table), a box a prisoner, and last what runs long (what the card asks, the
fight's notes, its scene). Every word is at least `narrow.SMALLEST` pixels.

What a move acts on is laid out at heights that do not depend on the language (a line that
runs longer is cut), so `regions`, which is not told the language, is right in all of them;
what runs long comes after it. Tap regions: a choice on its option, the fight on the enemy,
a die crushed on that die, an item taken on it on the table; a prisoner's hit, rest, turn,
draw, rite, gift or sending on their box, an item used, dropped, stowed or discarded on its
holder's box (or the prisoner it is used on). Rolling, re-rolling, keeping, drinking,
stopping, casting, picking a prisoner, done and pass have no place: they stay buttons."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engines.text import in_context, joined, msg
from languages import DEFAULT, say
from render import lettering, palette
from render.dark_castle import CARD_FILL, _ritual_lines, _status
from render.dark_castle_party import SPECIAL, char_lines, rolled, symbol, tags_of
from render.dark_castle_words import DEATH_NAMES, STONE, TRAIT
from render.dark_castle_words import die_name as _die_name
from render.dark_castle_words import short_name as _short
from render.narrow import SMALLEST, WIDTH

PAD = 10
INNER = WIDTH - 2 * PAD
LINE = int(SMALLEST * 1.3)  # 20
HEADER = 96
HEAD_H = 64  # the card's label and title
OPTION_H = 2 * int(18 * 1.3) + LINE + 10  # two lines of the option, one of its cost
COMBAT_H = 140  # the enemy's name and attack, its row of dice, the row in words
DIE = 44  # a die of the row
POOL_HEAD = 30
POOL_ITEM = 2 * LINE + 6
CHAR_H = 196  # a prisoner's box
BANNER_H = 60


def _card_top() -> int:
    return HEADER + 8


def _block_top() -> int:
    return _card_top() + HEAD_H


def option_box(view: dict, i: int) -> tuple[int, int, int, int]:
    top = _block_top() + i * OPTION_H
    return PAD, top, WIDTH - PAD, top + OPTION_H - 4


def combat_box(view: dict) -> tuple[int, int, int, int]:
    top = _block_top()
    return PAD, top, WIDTH - PAD, top + COMBAT_H


def die_box(view: dict, i: int) -> tuple[int, int, int, int]:
    _, top, _, _ = combat_box(view)
    x = PAD + 10 + i * DIE
    return x, top + 42, x + DIE - 4, top + 90


def _pool_top(view: dict) -> int:
    return _block_top() + _block_h(view)


def pool_box(view: dict, i: int) -> tuple[int, int, int, int]:
    top = _pool_top(view) + POOL_HEAD + i * POOL_ITEM
    return PAD, top, WIDTH - PAD, top + POOL_ITEM - 2


def _block_h(view: dict) -> int:
    """What a move acts on in the card, above what lies on the table."""
    if not view.get("card"):
        return 0
    if view.get("ending"):
        return BANNER_H
    if view.get("combat"):
        return COMBAT_H + 8
    if view.get("options"):
        return len(view["options"]) * OPTION_H + 4
    return 0


def _chars_top(view: dict) -> int:
    pool = view.get("pool") or []
    return _pool_top(view) + (POOL_HEAD + len(pool) * POOL_ITEM + 8 if pool else 0)


def char_box(view: dict, i: int) -> tuple[int, int, int, int]:
    top = _chars_top(view) + i * CHAR_H
    return 4, top, WIDTH - 4, top + CHAR_H - 8


def _tail_top(view: dict) -> int:
    return _chars_top(view) + len(view["chars"]) * CHAR_H + 4


def draw(view: dict, language: str = DEFAULT) -> Image.Image:
    tail = _tail(view, language)
    height = _tail_top(view) + sum(_lines_h(lines) for lines in tail) + PAD
    img, d = palette.canvas(height, WIDTH)
    _header(d, view, language)
    _head(d, view, language)
    if view.get("card"):
        if view.get("ending"):
            _banner(d, view, language)
        elif view.get("combat"):
            _combat(d, view, language)
        elif view.get("options"):
            for i, opt in enumerate(view["options"]):
                _option(d, view, i, opt, language)
    if view.get("pool"):
        _pool(d, view, language)
    for i, char in enumerate(view["chars"]):
        _prisoner(d, view, i, char, language)
    y = _tail_top(view)
    for lines in tail:
        y = _draw_lines(d, lines, y)
    return img


# ----- the header ---------------------------------------------------------------------
def _header(d: ImageDraw.ImageDraw, view: dict, language: str) -> None:
    """The chapters turned (the one in play marked), the boss; how far it is; the key of the
    traits' shapes."""
    d.rectangle((0, 0, WIDTH, HEADER), fill=palette.NIGHT)
    card = view.get("card") or {}
    turned = view["chapters_turned"]
    step = 27
    for i in range(15):
        box = (PAD + i * step, 8, PAD + i * step + step - 3, 34)
        done = i < turned
        current = i == turned - 1 and card.get("kind") == "chapter"
        d.rectangle(
            box,
            fill=palette.HIGHLIGHT if current else palette.GREY if done else palette.DARK,
            outline=palette.WHITE,
            width=1,
        )
        ink = palette.INK if done else palette.WHITE
        lettering.text(d, ((box[0] + box[2]) / 2, 21), str(i + 1), SMALLEST, ink, "mm")
    bx = PAD + 15 * step + 2
    boss = card.get("kind") == "boss"
    d.rectangle(
        (bx, 6, WIDTH - PAD, 36),
        fill=palette.VERMILION if boss else palette.DARK,
        outline=palette.WHITE,
        width=2,
    )
    said = say(in_context("board", "BOSS"), language)
    lettering.label(
        d,
        ((bx + WIDTH - PAD) / 2, 21),
        said,
        18,
        WIDTH - PAD - bx - 6,
        palette.WHITE,
        "mm",
        smallest=SMALLEST,
    )
    status = say(_status(view), language)
    lettering.label(d, (PAD, 50), status, 18, INNER, palette.WHITE, "lm", smallest=SMALLEST)
    keys = ["m", "c", "w"] + (["x"] if any(c.get("companion") for c in view["chars"]) else [])
    x, room = PAD, INNER // len(keys)
    for trait in keys:
        name = TRAIT[trait][3] if trait in TRAIT else msg("special")
        symbol(d, x + 18, 76, 18, trait, language)
        lettering.label(
            d,
            (x + 42, 76),
            say(name, language),
            SMALLEST,
            room - 48,
            palette.WHITE,
            "lm",
            smallest=SMALLEST,
        )
        x += room


# ----- the card -----------------------------------------------------------------------
def _ink(view: dict) -> tuple:
    card = view.get("card")
    return palette.WHITE if card and card["kind"] == "boss" else palette.INK


def _head(d: ImageDraw.ImageDraw, view: dict, language: str) -> None:
    """The card's frame behind its head and what a move acts on; its label and title (or,
    before the first card, the prisoners gathering)."""
    card = view.get("card")
    boss = bool(card and card["kind"] == "boss")
    bottom = _pool_top(view) + 4
    d.rounded_rectangle(
        (4, _card_top(), WIDTH - 4, bottom), 12, fill=CARD_FILL[boss], outline=palette.INK, width=3
    )
    ink, x, y = _ink(view), PAD + 6, _card_top() + 8
    if not card:
        said = say(msg("The prisoners gather in the dark."), language)
        lettering.label(d, (x, y + 14), said, 20, INNER - 12, ink, smallest=SMALLEST)
        return
    if card["kind"] == "chapter":
        label = say(msg("CHAPTER {n} OF 15", n=view["chapters_turned"]), language)
    else:
        kind = (
            in_context("card", "START") if card["kind"] == "start" else in_context("board", "BOSS")
        )
        label = say(kind, language)
    if card.get("pack"):
        label += "  -  " + say(card["pack"], language).upper()
    if view.get("turner"):
        you = msg("YOU: the {character}", character=_short(view, view["turner"]))
        label += "  ·  " + say(you, language)
    colour = palette.HIGHLIGHT if boss else palette.VERMILION
    lettering.label(d, (x, y), label, SMALLEST, INNER - 12, colour, smallest=SMALLEST)
    lettering.label(
        d, (x, y + 24), say(card["title"], language), 24, INNER - 12, ink, smallest=SMALLEST
    )


def _option(d: ImageDraw.ImageDraw, view: dict, i: int, opt: dict, language: str) -> None:
    """An option: its number and words (two lines at most), then what it costs (one)."""
    x0, y0, x1, y1 = option_box(view, i)
    colour = _ink(view) if opt["open"] else palette.GREY
    d.rounded_rectangle((x0, y0, x1, y1), 8, outline=colour, width=2)
    said = msg("{n}. {option}", n=opt["n"], option=opt["label"])
    if not opt["open"]:
        said = msg("{n}. {option}  (not possible now)", n=opt["n"], option=opt["label"])
    y = _fixed(d, (x0 + 8, y0 + 4), say(said, language), 18, x1 - x0 - 16, colour, 2)
    if opt.get("cost"):  # in the lines the option's words leave (one or two)
        most = 2 if y - y0 < 2 * int(18 * 1.3) else 1
        _fixed(
            d, (x0 + 24, y + 2), say(opt["cost"], language), SMALLEST, x1 - x0 - 32, colour, most
        )


def _fixed(d, xy, content: str, size: int, width: int, fill, most: int) -> int:
    """Wrapped words in at most `most` lines (the last cut if need be): the y below."""
    x, y = xy
    for line in _cut(lettering.wrap(content, size, width), most, size, width):
        lettering.text(d, (x, y), line, size, fill)
        y += int(size * 1.3)
    return y


def _cut(lines: list[str], most: int, size: int, width: int) -> list[str]:
    """At most `most` lines, the last of them cut with an ellipsis if more ran on."""
    if len(lines) <= most:
        return lines
    return [*lines[: most - 1], lettering.fit(" ".join(lines[most - 1 :]), size, width)]


def _combat(d: ImageDraw.ImageDraw, view: dict, language: str) -> None:
    """The enemy (name, round, attack) and its row of dice, then the row in words."""
    cb, ink = view["combat"], _ink(view)
    x0, y0, x1, y1 = combat_box(view)
    d.rounded_rectangle((x0, y0, x1, y1), 8, outline=palette.VERMILION, width=3)
    attack = say(in_context("attack value", "ATK"), language) + f" {cb['attack']}"
    badge = lettering.text_width(attack, 20) + 16
    d.rounded_rectangle((x1 - badge - 6, y0 + 6, x1 - 6, y0 + 34), 6, fill=palette.VERMILION)
    lettering.text(d, (x1 - 6 - badge / 2, y0 + 20), attack, 20, palette.WHITE, "mm")
    enemy = say(msg("{enemy}  (round {round})", enemy=cb["name"], round=cb["round"]), language)
    lettering.label(
        d, (x0 + 10, y0 + 20), enemy, 20, x1 - x0 - badge - 26, ink, "lm", smallest=SMALLEST
    )
    row = cb["row"]
    if not row:
        said = say(msg("(the row is empty)"), language)
        lettering.label(d, (x0 + 10, y0 + 66), said, 18, INNER - 20, ink, "lm", smallest=SMALLEST)
    for i, face in enumerate(row[: _dice_room()]):
        _die(d, die_box(view, i), face, language)
    counts = [msg("{n} {die}", n=row.count(t), die=_die_name(t)) for t in dict.fromkeys(row)]
    if counts:
        said = say(msg("Row: {dice}", dice=joined(counts)), language)
        _fixed(d, (x0 + 10, y0 + 96), said, SMALLEST, INNER - 20, ink, 2)


def _dice_room() -> int:
    return (INNER - 20) // DIE


def _die(d: ImageDraw.ImageDraw, box, face: str, language: str) -> None:
    """A die of the enemy's row: a trait's shape, or a black death die (a shield, or two
    traits one above the other)."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if face in TRAIT:
        symbol(d, cx, cy, 19, face, language)
        return
    d.rounded_rectangle(box, 6, fill=palette.INK, outline=palette.WHITE, width=2)
    if face == "s":
        d.polygon(
            [
                (cx - 14, y0 + 6),
                (cx + 14, y0 + 6),
                (cx + 14, cy + 4),
                (cx, y1 - 4),
                (cx - 14, cy + 4),
            ],
            fill=palette.GREY,
            outline=palette.WHITE,
        )
        letter = say(in_context("shield letter", "S"), language)
        lettering.text(d, (cx, cy - 3), letter, SMALLEST, palette.INK, "mm")
    else:  # a split face: its two traits, letters on them at the smallest size
        for i, t in enumerate(face[:2]):
            _, colour, letter, _ = TRAIT.get(t, SPECIAL)
            r = 11
            ty = y0 + 12 + i * 24
            d.ellipse((cx - r, ty - r, cx + r, ty + r), fill=colour)
            lettering.text(d, (cx, ty), say(letter, language), SMALLEST, palette.WHITE, "mm")


def _banner(d: ImageDraw.ImageDraw, view: dict, language: str) -> None:
    won = view.get("outcome") == "won"
    x0, y0 = PAD, _block_top()
    box = (x0, y0, WIDTH - PAD, y0 + BANNER_H - 8)
    d.rounded_rectangle(
        box, 10, fill=palette.GREEN if won else palette.VERMILION, outline=palette.INK, width=3
    )
    said = say(msg("ESCAPED") if won else msg("DEFEATED"), language)
    lettering.label(
        d,
        (WIDTH / 2, (box[1] + box[3]) / 2),
        said,
        32,
        INNER - 20,
        palette.WHITE,
        "mm",
        smallest=SMALLEST,
    )


def _pool(d: ImageDraw.ImageDraw, view: dict, language: str) -> None:
    """What lies on the table, an item a box (tap one to take it)."""
    ink, top = _ink(view), _pool_top(view)
    said = say(msg("On the table:"), language)
    lettering.label(d, (PAD + 6, top + 4), said, 20, INNER - 12, ink, smallest=SMALLEST)
    for i, item in enumerate(view["pool"]):
        x0, y0, x1, y1 = pool_box(view, i)
        d.rounded_rectangle((x0, y0, x1, y1), 8, fill=palette.WHITE, outline=palette.INK, width=2)
        said = say(msg("{item}: {text}", item=item["name"], text=item["text"]), language)
        _fixed(d, (x0 + 8, y0 + 3), said, SMALLEST, x1 - x0 - 16, palette.INK, 2)


# ----- the party ----------------------------------------------------------------------
def _prisoner(d: ImageDraw.ImageDraw, view: dict, i: int, char: dict, language: str) -> None:
    """A prisoner's box: who they are and who plays them, their tags; hit points and the
    die's traits; items and the rest (two lines each at most); the last roll and plague."""
    x0, y0, x1, y1 = char_box(view, i)
    comp = char.get("companion")
    acting = char["seat"] in view["to_act"] and not comp
    d.rounded_rectangle(
        (x0, y0, x1, y1),
        12,
        fill=palette.HIGHLIGHT if acting else palette.PANEL,
        outline=palette.PURPLE if comp else palette.INK,
        width=4 if comp else 2,
    )
    badge = say(msg("ALLY"), language) if comp else f"P{char['seat'] + 1}"
    bw = max(36, lettering.text_width(badge, SMALLEST) + 10)
    d.rounded_rectangle(
        (x0 + 8, y0 + 8, x0 + 8 + bw, y0 + 34), 6, fill=palette.PURPLE if comp else palette.NIGHT
    )
    lettering.text(d, (x0 + 8 + bw / 2, y0 + 21), badge, SMALLEST, palette.WHITE, "mm")
    tags = [say(tag, language) for tag in tags_of(view, char)]
    line = x1 - 10 - (x0 + 16 + bw)
    tagged = ""
    if tags:
        tagged = lettering.fit(" / ".join(tags), SMALLEST, line // 2)
        lettering.text(d, (x1 - 10, y0 + 21), tagged, SMALLEST, palette.VERMILION, "rm")
    room = line - (lettering.text_width(tagged, SMALLEST) + 10 if tags else 0)
    title = say(char["title"] or msg("(choosing)"), language)
    head = f"{title} - "
    name = lettering.fit(say(char["player"], language), 18, room - lettering.text_width(head, 18))
    said = lettering.fit(head + lettering.isolate(name), 18, room)
    lettering.text(d, (x0 + 16 + bw, y0 + 21), said, 18, palette.INK, "lm")
    # hit points: a bar and the number; then the die's traits as shapes with counts
    top = char.get("hp_max") or view["hp_start"]
    bar = (x0 + 10, y0 + 46, x0 + 110, y0 + 68)
    d.rectangle(bar, fill=palette.WHITE, outline=palette.INK, width=2)
    if top:
        fill = bar[0] + (bar[2] - bar[0]) * max(0, char["hp"]) / top
        colour = palette.GREEN if char["hp"] * 3 > top else palette.VERMILION
        d.rectangle((bar[0] + 2, bar[1] + 2, max(bar[0] + 2, fill - 2), bar[3] - 2), fill=colour)
    hp = say(msg("{hp}/{top} HP", hp=char["hp"], top=top), language)
    lettering.label(d, (bar[2] + 8, y0 + 57), hp, 18, 90, palette.INK, "lm", smallest=SMALLEST)
    tx = x0 + 230
    traits = [(t, char["traits"].get(t, 0)) for t in ("m", "c", "w")] + ([("x", 1)] if comp else [])
    step = (x1 - 10 - tx) // len(traits)
    for t, n in traits:
        symbol(d, tx + 18, y0 + 57, 18, t, language)
        lettering.text(d, (tx + 40, y0 + 57), str(n), 20, palette.INK, "lm")
        tx += step
    # items, the knapsack, the flaw, a companion's special, the curses
    y, bottom = y0 + 78, y1 - 40
    for text, colour, most in char_lines(char, False, language):
        lines = lettering.wrap(text, SMALLEST, x1 - x0 - 24)
        most = min(most, 2, max(0, (bottom - y) // LINE))
        if not most:
            break
        for line in _cut(lines, most, SMALLEST, x1 - x0 - 24):
            lettering.text(d, (x0 + 12, y), line, SMALLEST, colour)
            y += LINE
    # the last roll, and plague
    ry = y1 - 20
    if char["roll"]:
        said = say(msg("Roll:"), language)
        lettering.text(d, (x0 + 12, ry), said, SMALLEST, palette.INK, "lm")
        rolled(d, x0 + 18 + lettering.text_width(said, SMALLEST), ry, 18, char["roll"], language)
    if char.get("plague"):
        nxt = char.get("next_threshold")
        n = char["plague"]
        label = (
            msg("plague {n}, at {at}: -{hp} HP", n=n, at=nxt[0], hp=nxt[1])
            if nxt
            else msg("plague {n}", n=n)
        )
        lettering.label(
            d,
            (x1 - 10, ry),
            say(label, language),
            SMALLEST,
            250,
            palette.GREEN,
            "rm",
            smallest=SMALLEST,
        )


# ----- what runs long, at the foot ----------------------------------------------------
Lines = list[tuple[str, int, tuple]]  # (a line, its size, its colour)


def _wrapped(content: str, size: int, colour) -> Lines:
    return [(line, size, colour) for line in lettering.wrap(content, size, INNER - 12)]


def _lines_h(lines: Lines) -> int:
    return sum(int(size * 1.3) for _, size, _ in lines) + 10


def _draw_lines(d: ImageDraw.ImageDraw, lines: Lines, y: int) -> int:
    for line, size, colour in lines:
        lettering.text(d, (PAD + 6, y), line, size, colour)
        y += int(size * 1.3)
    return y + 10


def _tail(view: dict, language: str) -> list[Lines]:
    """What runs long, each a block of lines: the prompt and flaws before the first card;
    the ending; what the card asks (a ritual, a question, its test, spells); a fight's notes;
    the card's scene."""

    def S(value) -> str:
        return say(value, language)

    out: list[Lines] = []
    card, ink, red = view.get("card"), palette.INK, palette.VERMILION
    if not card:
        if view.get("prompt"):
            out.append(_wrapped(S(view["prompt"]), 18, ink))
        if view.get("flaws"):
            block = _wrapped(S(msg("FLAWS DEALT ONTO THE PRISONERS")), SMALLEST, red)
            for who, flaw in view["flaws"].items():
                said = msg(
                    "{character}: {flaw} - {text}",
                    character=flaw.get("character") or who.title(),
                    flaw=flaw["name"],
                    text=flaw["text"],
                )
                block += _wrapped(S(said), SMALLEST, ink)
            out.append(block)
        return out
    if view.get("ending"):
        out.append(_wrapped(S(view["ending"]), 18, ink))
        if view.get("epilogue"):
            out.append(
                _wrapped(S(msg("EPILOGUE")), SMALLEST, red)
                + _wrapped(S(view["epilogue"]), SMALLEST, ink)
            )
    relics = view.get("relics") or {}
    if relics.get("ritual"):
        block = _wrapped(S(msg("THE BLOOD RITUAL")), SMALLEST, red)
        for line in _ritual_lines(view, relics["ritual"]):
            block += _wrapped(S(line), SMALLEST, ink)
        out.append(block)
    elif view.get("asking"):
        out.append(
            _wrapped(S(in_context("board", "NOW")), SMALLEST, red)
            + _wrapped(S(view["asking"]), 18, ink)
        )
    elif card.get("asks") and not view.get("ending"):
        block = _wrapped(S(msg("THIS CHAPTER ASKS")), SMALLEST, red)
        for ask in card["asks"]:
            block += _wrapped(S(ask), SMALLEST, ink)
        out.append(block)
    cast = relics.get("casting") or {}
    if cast.get("spells"):
        head = msg(
            "THE {character} MAY CAST INSTEAD OF ROLLING", character=_short(view, cast["by"])
        )
        block = _wrapped(S(head).upper(), SMALLEST, red)
        for spell in cast["spells"]:
            block += _wrapped(S(spell), SMALLEST, ink)
        out.append(block)
    cb = view.get("combat")
    if cb:
        notes = []
        if cb.get("text"):
            notes.append((cb["text"], ink))
        if any(t in DEATH_NAMES for t in cb["row"]):
            notes.append(
                (
                    msg(
                        "Death dice: a shield falls to one double or two prisoners' matching singles; a split die to two prisoners, one trait each."
                    ),
                    ink,
                )
            )
        if cb.get("carrier"):
            notes.append(
                (msg("Carrier: each hit taken (not blocked) adds 1 plague."), palette.GREEN)
            )
        if cb.get("cultist"):
            notes.append((msg("Cultists: a prisoner Marked for Death loses 1 HP more."), red))
        for who in cb.get("turned", []):
            notes.append(
                (
                    msg("The {character} has joined the enemy's row.", character=_short(view, who)),
                    red,
                )
            )
        if cb.get("stone"):
            notes.append((msg("The Living Stone: {face}", face=STONE[cb["stone"]]), ink))
        for special in cb["specials"]:
            notes.append((msg("Special: {special}", special=special), ink))
        if len(cb["row"]) > _dice_room():
            more = msg("Row: {dice}", dice=joined([_die_name(t) for t in cb["row"]]))
            notes.append((more, ink))
        block: Lines = []
        for said, colour in notes:
            block += _wrapped(S(said), SMALLEST, colour)
        if block:
            out.append(block)
    out.append(_wrapped(S(card["text"]), SMALLEST, palette.DARK))
    return out


# ----- tap regions --------------------------------------------------------------------
def _holder(view: dict, item: str) -> int | None:
    """The prisoner holding an item (in hand or knapsack), by their place in `chars`."""
    for i, char in enumerate(view["chars"]):
        if any(it.get("id") == item for it in char["items"] + (char.get("stored") or [])):
            return i
    return None


def regions(view: dict, actions: list[str]) -> dict[str, tuple[int, int, int, int]]:
    """Where each of these actions is tapped (see the module's words); with the geometry
    `draw` uses, which no language changes."""
    who = {char.get("who"): i for i, char in enumerate(view["chars"]) if char.get("who")}
    options = {str(opt["n"]): i for i, opt in enumerate(view.get("options") or [])}
    pool = [item.get("id") for item in view.get("pool") or []]
    cb = view.get("combat") or {}
    row = cb.get("row") or []
    out: dict[str, tuple[int, int, int, int]] = {}
    for action in actions:
        verb, *args = action.split()
        if verb in ("hit", "rest", "turn", "send", "rite", "give", "draw") and args:
            if args[0] in who:
                out[action] = char_box(view, who[args[0]])
        elif verb == "use" and args:
            at = who.get(args[1]) if len(args) > 1 else _holder(view, args[0])
            if at is not None:
                out[action] = char_box(view, at)
        elif verb in ("drop", "stow", "unstow", "discard") and len(args) == 1:
            at = _holder(view, args[0])
            if at is not None:
                out[action] = char_box(view, at)
        elif verb == "take" and args and args[0] in pool:
            out[action] = pool_box(view, pool.index(args[0]))
        elif verb == "choose" and args and args[0] in options and view.get("card"):
            if not view.get("combat") and not view.get("ending"):
                out[action] = option_box(view, options[args[0]])
        elif verb == "fight" and cb and not view.get("ending"):
            out[action] = combat_box(view)
        elif verb == "crush" and args and args[0] in row[: _dice_room()]:
            out[action] = die_box(view, row.index(args[0]))
    return out
