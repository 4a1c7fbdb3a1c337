"""Dark Castle: the chapter card (scene, dice row, attack) beside the party, with progress.

Traits are told apart by shape and letter as well as colour: Might is a red square (M),
Cunning an orange triangle (C), Wisdom a blue circle (W). A double is drawn as two
symbols with a shield band ("BLOCK"). A death die's own faces sit on a black die in the
enemy's row: a shield is a grey shield marked S, a split face its two traits side by side.

Every word is said in the language the picture is drawn in (`languages.say`); the view's
words are messages already. What has a fixed place (a heading, a tag, a badge) is fitted to
it (`lettering.fit`); what runs on wraps, so a longer language never clips or overlaps.
"""

from __future__ import annotations

import marshal
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.text import Msg, in_context, joined, msg, plural
from languages import DEFAULT, say
from render import captions, lettering, palette, tokens
from render.dark_castle_alt import describe as describe  # the alt text, as every renderer offers
from render.dark_castle_party import HEADER, PARTY_X, WIDTH
from render.dark_castle_party import box_height as _box_height
from render.dark_castle_party import fitted as _fitted
from render.dark_castle_party import party as _party
from render.dark_castle_party import symbol as _symbol
from render.dark_castle_story import caption as caption  # what happened, then what is asked
from render.dark_castle_story import caption_after as caption_after  # the same after a move
from render.dark_castle_story import on_the_card
from render.dark_castle_words import DEATH_NAMES, STONE, TRAIT
from render.dark_castle_words import die_name as _die_name
from render.dark_castle_words import short_name as _short
from render.scene import Scene, painted, plain, restored

CARD_X, CARD_W = 24, 600


def _row_die(d: ImageDraw.ImageDraw, x: float, y: float, face: str, language: str) -> float:
    """One die of the enemy's row, its left edge at x and centre at y; return the next x."""
    if face in TRAIT:
        _symbol(d, x + 20, y, 20, face, language)
        return x + 46
    width = 44 if face == "s" else 78
    d.rounded_rectangle(
        (x - 2, y - 24, x + width, y + 24), 8, fill=palette.INK, outline=palette.WHITE, width=2
    )
    if face == "s":
        cx = x + width / 2
        d.polygon(
            [
                (cx - 16, y - 17),
                (cx + 16, y - 17),
                (cx + 16, y + 2),
                (cx, y + 19),
                (cx - 16, y + 2),
            ],
            fill=palette.GREY,
            outline=palette.WHITE,
            width=2,
        )
        lettering.text(
            d, (cx, y - 2), say(in_context("shield letter", "S"), language), 18, palette.INK, "mm"
        )
    else:
        for i, t in enumerate(face[:2]):
            _symbol(d, x + 19 + i * 38, y, 17, t, language)
    return x + width + 8


def _status(view: dict) -> Msg:
    left = view["chapters_left"]
    cb = view.get("combat")
    if view.get("outcome") == "won":
        return msg("Escaped! The castle is behind them")
    if view.get("outcome") == "lost":
        return msg("The escape has failed")
    if cb and cb.get("boss"):
        return msg("Boss phase {phase} of {phases}", phase=cb["phase"], phases=cb["phases"])
    if left:
        return plural(
            "{count} chapter left before the boss", "{count} chapters left before the boss", left
        )
    return msg("The boss awaits")


def _progress(out: Scene, view: dict, language: str) -> None:
    """The header band: it changes only when a chapter is turned, so it is drawn once for
    what it shows (a stamp)."""
    card = view["card"] or {}
    header = (
        view["chapters_turned"],
        card.get("kind") == "chapter",
        card.get("kind") == "boss",
        say(_status(view), language),
        any(char.get("companion") for char in view["chars"]),
    )
    out.stamp((0, 0), (WIDTH, HEADER), _header, *header, language, ground=palette.NIGHT)


def _header(
    d, turned: int, chapter: bool, boss_now: bool, status: str, ally: bool, language: str
) -> None:
    x0 = 300
    lettering.text(
        d,
        (CARD_X, 20),
        lettering.fit(say(msg("Dark Castle"), language), 36, x0 - CARD_X - 12),
        36,
        palette.WHITE,
    )
    for i in range(15):
        box = (x0 + i * 44, 22, x0 + i * 44 + 36, 58)
        done = i < turned
        current = i == turned - 1 and chapter
        d.rectangle(
            box,
            fill=palette.HIGHLIGHT if current else palette.GREY if done else palette.DARK,
            outline=palette.WHITE,
            width=2,
        )
        lettering.text(
            d,
            ((box[0] + box[2]) / 2, 40),
            str(i + 1),
            18,
            palette.INK if done else palette.WHITE,
            "mm",
        )
    bx = x0 + 15 * 44 + 8
    d.rectangle(
        (bx, 18, bx + 120, 62),
        fill=palette.VERMILION if boss_now else palette.DARK,
        outline=palette.WHITE,
        width=2,
    )
    boss = _fitted(say(in_context("board", "BOSS"), language), 24, 100)  # clear of the frame
    lettering.text(d, (bx + 60, 40), boss[0], boss[1], palette.WHITE, "mm")
    key_left = _trait_key(d, ally, language)
    lettering.text(
        d, (x0, 76), lettering.fit(status, 20, key_left - x0 - 16), 20, palette.WHITE, "lm"
    )


def _trait_key(d: ImageDraw.ImageDraw, ally: bool, language: str) -> int:
    """What the dice's shapes mean, at the header's right under the chapters: the party's
    counts and rolls are drawn with them. Returns the key's left edge."""
    keys = ["m", "c", "w"]
    if ally:
        keys.append("x")  # a companion's special face
    x = WIDTH - 20
    for trait in reversed(keys):
        name = TRAIT[trait][3] if trait in TRAIT else msg("special")
        word = lettering.fit(say(name, language), 18, 150)
        x -= lettering.text_width(word, 18)
        lettering.text(d, (x, 76), word, 18, palette.WHITE, "lm")
        x -= 26
        _symbol(d, x + 12, 76, 12, trait, language)
        x -= 22
    return x


def _card(
    d: ImageDraw.ImageDraw,
    view: dict,
    height: int,
    marks: dict | None = None,
    language: str = DEFAULT,
) -> int:
    """The card in play; `marks` (if given) learns where its parts were drawn. Returns the
    y below what it drew (the story's lines, bottom-aligned, aside)."""
    y = _card_top(d, view, height, language)
    if not view.get("card"):
        return y
    y = _card_rest(d, view, y, marks, language)
    if not view.get("pool"):
        _log(d, view, CARD_X + 24, y, height - 36, _ink(view), language)
    return _pool(d, view, y, language)


def _frame(d: ImageDraw.ImageDraw, card: dict | None, height: int) -> bool:
    """The card's frame (dark for the boss): whether it is the boss's."""
    boss = bool(card and card["kind"] == "boss")
    box = (CARD_X, HEADER + 16, CARD_X + CARD_W, height - 16)
    d.rounded_rectangle(box, 18, fill=CARD_FILL[boss], outline=palette.INK, width=4)
    return boss


CARD_FILL = {False: palette.PANEL, True: (60, 50, 48)}  # a card's, and the boss's


def _ink(view: dict) -> tuple:
    card = view.get("card")
    return palette.WHITE if card and card["kind"] == "boss" else palette.INK


def _card_top(d: ImageDraw.ImageDraw, view: dict, height: int, language: str) -> int:
    """The card's frame, and before the first card the prisoners gathering (all it shows
    then), else its label, title, who turned it and its scene: the y below them."""

    def S(value) -> str:
        return say(value, language)

    top = HEADER + 16
    card = view.get("card")
    boss = _frame(d, card, height)
    ink = palette.WHITE if boss else palette.INK
    x = CARD_X + 24
    y = top + 20
    wide = CARD_W - 48
    if not card:
        y = lettering.paragraph(
            d, (x, y), S(msg("The prisoners gather in the dark.")), 28, wide, ink, max_lines=2
        )
        y = lettering.paragraph(d, (x, y + 14), S(view.get("prompt", "")), 22, wide, ink) + 10
        if view.get("flaws"):
            lettering.text(
                d,
                (x, y),
                lettering.fit(S(msg("FLAWS DEALT ONTO THE PRISONERS")), 18, wide),
                18,
                palette.VERMILION,
            )
            y += 28
            for who, flaw in view["flaws"].items():
                line = S(
                    msg(
                        "{character}: {flaw} - {text}",
                        character=flaw.get("character") or Msg(who.title()),
                        flaw=flaw["name"],
                        text=flaw["text"],
                    )
                )
                y = lettering.paragraph(d, (x, y), line, 18, wide, ink, max_lines=2) + 4
        return y
    if card["kind"] == "chapter":
        label = S(msg("CHAPTER {n} OF 15", n=view["chapters_turned"]))
    else:
        label = S(
            in_context("card", "START") if card["kind"] == "start" else in_context("board", "BOSS")
        )
    if card.get("pack"):
        label += "  -  " + S(card["pack"]).upper()
    lettering.text(
        d,
        (x, y),
        lettering.fit(label, 18, wide),
        18,
        palette.ORANGE if not boss else palette.HIGHLIGHT,
    )
    y += 28
    for line in lettering.wrap(S(card["title"]), 34, wide)[:2]:
        lettering.text(d, (x, y), line, 34, ink)
        y += 42
    if view.get("turner"):
        you = S(msg("YOU: the {character}", character=_short(view, view["turner"])))
        lettering.text(d, (x, y), lettering.fit(you, 20, wide), 20, ink)
        y += 30
    y = lettering.paragraph(d, (x, y + 4), S(card["text"]), 22, wide, ink, max_lines=6)
    return y + 12


def _card_rest(
    d: ImageDraw.ImageDraw, view: dict, y: int, marks: dict | None, language: str
) -> int:
    """What the card in play asks or holds, from `y` (under its scene): the end of the
    story, a fight, the options, a ritual, what is asked, the spells. The y below it."""

    def S(value) -> str:
        return say(value, language)

    x, ink, card, wide = CARD_X + 24, _ink(view), view["card"], CARD_W - 48
    cb = view.get("combat")
    if view.get("ending"):
        y = _ending(d, view, x, y, ink, language)
    elif cb:
        y = _combat_block(d, view, x, y, ink, marks if marks is not None else {}, language)
    elif view.get("options"):
        for opt in view["options"]:
            colour = ink if opt["open"] else palette.GREY
            said = msg("{n}. {option}", n=opt["n"], option=opt["label"])
            if not opt["open"]:
                said = msg("{n}. {option}  (not possible now)", n=opt["n"], option=opt["label"])
            y = lettering.paragraph(d, (x, y), S(said), 22, wide, colour, max_lines=2)
            y = (
                lettering.paragraph(
                    d, (x + 24, y), S(opt.get("cost", "")), 18, CARD_W - 72, colour, max_lines=3
                )
                + 6
            )
    elif (view.get("relics") or {}).get("ritual"):
        lines = _ritual_lines(view, view["relics"]["ritual"])
        y = _asks(d, [S(line) for line in lines], x, y, S(msg("THE BLOOD RITUAL")), ink)
    elif view.get("asking"):
        y = _asks(d, [S(view["asking"])], x, y, S(in_context("board", "NOW")), ink)
    elif card.get("asks"):
        if marks is not None:
            marks["asks"] = (x, y + 9)
        y = _asks(d, [S(a) for a in card["asks"]], x, y, S(msg("THIS CHAPTER ASKS")), ink)
    cast = (view.get("relics") or {}).get("casting") or {}
    if cast.get("spells"):  # the Spell Book's holder is about to roll: the spells open now
        head = S(
            msg("THE {character} MAY CAST INSTEAD OF ROLLING", character=_short(view, cast["by"]))
        ).upper()
        y = _asks(d, [S(spell) for spell in cast["spells"]], x, y, head, ink)
    return y


def _pool(d: ImageDraw.ImageDraw, view: dict, y: int, language: str) -> int:
    """What lies on the table (the collector's pool), from `y`: the y below it."""
    x, ink, wide = CARD_X + 24, _ink(view), CARD_W - 48
    if view.get("pool"):
        lettering.text(
            d, (x, y + 6), lettering.fit(say(msg("On the table:"), language), 22, wide), 22, ink
        )
        y += 36
        for item in view["pool"][:4]:
            said = say(msg("{item}: {text}", item=item["name"], text=item["text"]), language)
            y = lettering.paragraph(d, (x + 10, y), said, 18, CARD_W - 60, ink, max_lines=2)
    return y


def _ritual_lines(view: dict, ritual: dict) -> list[Msg]:
    """The blood ritual under way: who drinks, what is pledged, what may still be given."""
    given = sum(ritual["gifts"].values())
    gifts = [
        msg("the {character} {n} HP", character=_short(view, who), n=n)
        for who, n in ritual["gifts"].items()
    ]
    pledged = joined(gifts) if gifts else msg("nothing yet")
    return [
        msg(
            "The {character} drinks, lacking {n} HP.",
            character=_short(view, ritual["to"]),
            n=ritual["lacks"],
        ),
        msg("Pledged: {gifts}; up to {n} HP more.", gifts=pledged, n=ritual["lacks"] - given),
        msg("Each donor keeps at least 1 HP. Drink to pay the pledges, or stop."),
    ]


def _asks(d: ImageDraw.ImageDraw, lines: list[str], x: int, y: int, head: str, ink) -> int:
    """What the chapter asks (trait, attempts, double, who rolls, cost of failing), boxed."""
    lettering.text(d, (x, y), lettering.fit(head, 18, CARD_W - 48), 18, palette.VERMILION)
    y += 26
    for line in lines[:4]:
        y = lettering.paragraph(d, (x + 10, y), line, 20, CARD_W - 68, ink, max_lines=4) + 6
    return y + 4


def _ending(d: ImageDraw.ImageDraw, view: dict, x: int, y: int, ink, language: str) -> int:
    """The end of the story: escaped or fallen, in a banner where the enemy stood."""
    won = view.get("outcome") == "won"
    colour = palette.GREEN if won else palette.VERMILION
    right = CARD_X + CARD_W - 24
    d.rounded_rectangle((x, y, right, y + 70), 12, fill=colour, outline=palette.INK, width=3)
    banner = say(msg("ESCAPED") if won else msg("DEFEATED"), language)
    banner, size = _fitted(banner, 40, right - x - 24, smallest=20)
    lettering.text(d, ((x + right) / 2, y + 35), banner, size, palette.WHITE, "mm")
    y += 84
    y = (
        lettering.paragraph(
            d, (x, y), say(view["ending"], language), 22, CARD_W - 48, ink, max_lines=4
        )
        + 8
    )
    if view.get("epilogue"):
        lettering.text(
            d,
            (x, y),
            lettering.fit(say(msg("EPILOGUE"), language), 18, CARD_W - 48),
            18,
            palette.VERMILION,
        )
        y = (
            lettering.paragraph(
                d, (x, y + 26), say(view["epilogue"], language), 20, CARD_W - 48, ink, max_lines=6
            )
            + 8
        )
    return y


def _log_lines(
    log: list, room: int, language: str = DEFAULT, card: dict | None = None
) -> list[str]:
    """The wrapped lines of the latest log entries that fit in `room` lines: whole entries
    only (the latest one's end if even it does not fit), never one cut at its start; the
    scene of the card in play (`card`) is left to the card."""
    lines: list[str] = []
    for entry in reversed([e for e in log[-5:] if not on_the_card(e, card)]):
        wrapped = lettering.wrap(say(entry, language), 17, CARD_W - 60)
        if len(lines) + len(wrapped) > room:
            if not lines and room:
                lines = wrapped[-room:]
            break
        lines = wrapped + lines
    return lines


def _log(
    d: ImageDraw.ImageDraw, view: dict, x: int, y_min: int, y_max: int, ink, language: str
) -> None:
    """The latest lines of the story, bottom-aligned in the card's free space."""
    room = max(0, (y_max - y_min - 40) // 22)
    lines = _log_lines(view.get("log", []), room, language, view.get("card"))
    if not lines or view.get("pool"):
        return
    y = y_max - len(lines) * 22
    _rule(d, x, y - 10)
    for line in lines:
        lettering.text(d, (x, y), line, 17, palette.GREY if ink == palette.WHITE else palette.DARK)
        y += 22


def _rule(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The line above the story's lines."""
    d.line((x, y, CARD_X + CARD_W - 24, y), fill=palette.GREY, width=1)


def _combat_block(
    d: ImageDraw.ImageDraw, view: dict, x: int, y: int, ink, marks: dict, language: str
) -> int:
    def S(value) -> str:
        return say(value, language)

    cb = view["combat"]
    wide = CARD_W - 48
    d.line((x, y, CARD_X + CARD_W - 24, y), fill=ink, width=2)
    y += 12
    enemy = S(msg("{enemy}  (round {round})", enemy=cb["name"], round=cb["round"]))
    for line in lettering.wrap(enemy, 26, CARD_W - 150)[:2]:
        lettering.text(d, (x, y), line, 26, ink)
        y += 34
    # The attack value: a dark badge at the right.
    ax = CARD_X + CARD_W - 90
    top = y - 34 * min(2, len(lettering.wrap(enemy, 26, CARD_W - 150)))
    d.rounded_rectangle(
        (ax, top - 4, ax + 66, top + 62), 10, fill=palette.VERMILION, outline=palette.INK, width=3
    )
    atk, size = _fitted(S(in_context("attack value", "ATK")), 16, 58, smallest=10)
    lettering.text(d, (ax + 33, top + 14), atk, size, palette.WHITE, "mm")
    lettering.text(d, (ax + 33, top + 40), str(cb["attack"]), 30, palette.WHITE, "mm")
    y = max(y, top + 44) + 0
    if cb.get("text"):
        y = lettering.paragraph(d, (x, y), S(cb["text"]), 20, CARD_W - 140, ink, max_lines=2)
    row = cb["row"]
    marks["row"] = (x + 6, y + 26)
    if row:
        rx = x + 6
        for face in row[:11]:
            rx = _row_die(d, rx, y + 26, face, language)
        y += 60
    else:
        lettering.text(
            d, (x, y + 10), lettering.fit(S(msg("(the row is empty)")), 22, wide), 22, ink
        )
        y += 44
    counts = [msg("{n} {die}", n=row.count(t), die=_die_name(t)) for t in dict.fromkeys(row)]
    if counts:
        y = (
            lettering.paragraph(
                d, (x, y), S(msg("Row: {dice}", dice=joined(counts))), 20, wide, ink, max_lines=2
            )
            + 6
        )
    if any(t in DEATH_NAMES for t in row):
        y = lettering.paragraph(
            d,
            (x, y),
            S(
                msg(
                    "Death dice: a shield falls to one double or two prisoners' matching singles; a split die to two prisoners, one trait each."
                )
            ),
            20,
            wide,
            ink,
            max_lines=3,
        )
    if cb.get("carrier"):
        y = lettering.paragraph(
            d,
            (x, y),
            S(msg("Carrier: each hit taken (not blocked) adds 1 plague.")),
            20,
            wide,
            palette.GREEN,
            max_lines=2,
        )
    if cb.get("cultist"):
        y = lettering.paragraph(
            d,
            (x, y),
            S(msg("Cultists: a prisoner Marked for Death loses 1 HP more.")),
            20,
            wide,
            palette.VERMILION,
            max_lines=2,
        )
    for who in cb.get("turned", []):
        said = S(msg("The {character} has joined the enemy's row.", character=_short(view, who)))
        y = lettering.paragraph(d, (x, y), said, 20, wide, palette.VERMILION, max_lines=2)
    if cb.get("stone"):  # the Living Stone's die, last rolled this combat
        tokens.token(d, (x + 14, y + 14), 14, "hexagon", palette.GREEN, "LS")
        said = S(msg("The Living Stone: {face}", face=STONE[cb["stone"]]))
        y = lettering.paragraph(d, (x + 38, y + 2), said, 20, wide - 38, ink, max_lines=2) + 8
    for special in cb["specials"]:
        said = S(msg("Special: {special}", special=special))
        y = lettering.paragraph(d, (x, y), said, 20, wide, ink, max_lines=3)
    return y + 8


def draw(view: dict, language: str = DEFAULT) -> Image.Image:
    return captions.caption_bar(board(view, language), caption(view, language))


def board(view: dict, language: str = DEFAULT) -> Image.Image:
    """The picture without its caption (a replay writes its own under each board)."""
    return painted(scene(view, language))


# What the card shows, each part drawn once for it and kept (`_top`, `_rest`): its head
# (before the first card, the prompt and the flaws dealt instead) and what it asks or holds.
TOP = ("card", "chapters_turned", "turner")
BEFORE = ("prompt", "flaws")
REST = ("card", "combat", "options", "relics", "asking", "pool", "ending", "outcome", "epilogue")


def scene(view: dict, language: str = DEFAULT) -> Scene:
    """The board as parts (render/scene.py): the header, the card's head and what it asks
    (each a layer of its own, drawn once for what it shows: the head changes when a card
    turns, the rest as a fight goes on), the story's latest lines under them, and each
    prisoner's box. A card whose words run longer than the board (a long language) makes
    it taller."""
    chars = view["chars"]
    height = max(700, HEADER + 40 + _box_height(view, language) * len(chars))
    names = [{"who": c.get("who"), "short": c.get("short")} for c in chars]
    card = view.get("card")
    head = plain(_subset(view, TOP if card else TOP + BEFORE, names))  # messages whole
    top = y = bottom = _top(marshal.dumps(head, 2), height, language)[1]  # at any height
    if card:
        rest = plain(_subset(view, REST, names))
        y, bottom = _rest(marshal.dumps(rest, 2), top, height, language)[1:]
    height = max(height, bottom + 40)
    out = Scene(WIDTH, height)
    out.fill((0, 0, WIDTH, HEADER + 1), palette.NIGHT)
    _progress(out, view, language)
    out.layer((CARD_X, HEADER + 16), _top_image, head, height, language)
    if card:
        out.layer((CARD_X + INSIDE, top), _rest_image, rest, top, height, language)
        if not view.get("pool"):
            _story(out, view, y, height, language)
    _party(out, view, language)
    return out


def _subset(view: dict, keys: tuple, names: list) -> dict:
    found = {key: view[key] for key in keys if key in view}
    found["chars"] = names  # the characters' short names, which the card's lines use
    return found


def _scratch(height: int) -> ImageDraw.ImageDraw:
    """A board as wide as the card reaches, to draw a part of the card where it stands."""
    return palette.canvas(height, CARD_X + CARD_W + 1)[1]


@lru_cache(maxsize=8)  # a card, 601 pixels wide and the board's height less the header: ~0.4 MB
def _top(head: bytes, height: int, language: str) -> tuple[Image.Image, int]:
    """The card's frame and head drawn where they stand, cut out; the y below the head."""
    d = _scratch(height)
    y = _card_top(d, restored(marshal.loads(head)), height, language)
    return d._image.crop((CARD_X, HEADER + 16, CARD_X + CARD_W + 1, height - 15)), y


# What the card asks lies this far in from its frame's sides (its words from 24 pixels in):
# the frame's rounded corners never reach it.
INSIDE = 20


@lru_cache(maxsize=16)  # what a card asks: ~0.1-0.3 MB
def _rest(rest: bytes, top: int, height: int, language: str) -> tuple[Image.Image, int, int]:
    """What the card asks or holds, drawn from `top` on the card's plain fill (no frame:
    it is cut `INSIDE` the frame's sides), cut out: with the y below it, and below what lies
    on the table too."""
    view = restored(marshal.loads(rest))
    boss = view["card"]["kind"] == "boss"
    # Drawn from 0 on a picture of the rows under `top` alone, which is where it is cut:
    # the same pixels (every y in it is `top` plus whole pixels), and a fight's every
    # round no longer fills and frees a board-high picture (0.2 ms a board).
    img, d = palette.canvas(height - top, CARD_X + CARD_W + 1, CARD_FILL[boss])
    y = _card_rest(d, view, 0, None, language)
    bottom = _pool(d, view, y, language)
    cut = (CARD_X + INSIDE, 0, CARD_X + CARD_W - INSIDE, min(bottom + 8, height - 15 - top))
    return img.crop(cut), y + top, bottom + top


def _top_image(head: dict, height: int, language: str) -> Image.Image:
    return _top(marshal.dumps(head, 2), height, language)[0]


def _rest_image(rest: dict, top: int, height: int, language: str) -> Image.Image:
    return _rest(marshal.dumps(rest, 2), top, height, language)[0]


def _story(out: Scene, view: dict, y_min: int, height: int, language: str) -> None:
    """`_log` as parts: the rule and each of the story's latest lines."""
    y_max = height - 36
    room = max(0, (y_max - y_min - 40) // 22)
    lines = _log_lines(view.get("log", []), room, language, view.get("card"))
    if not lines:
        return
    x = CARD_X + 24
    y = y_max - len(lines) * 22
    out.add((x, y - 10, CARD_X + CARD_W - 23, y - 9), _rule, x, y - 10)
    card = view.get("card")
    ink = palette.GREY if card and card["kind"] == "boss" else palette.DARK
    for line in lines:
        lettering.text_part(out, (x, y), line, 17, ink)
        y += 22


def illustration(language: str = DEFAULT) -> tuple[dict, list, str]:
    """A fight under way (or a chapter, if the seeded game has none), with notes on the
    chapters, the card, the enemy's row, hit points, traits and items."""
    from render.rules import best_view

    def shows(view: dict) -> float:
        if view.get("outcome") or not view.get("card"):
            return -1
        cb = view.get("combat") or {}
        return (
            (len(cb.get("row", [])) >= 2) * 100
            + (not cb.get("boss")) * 10
            + min(3, view["chapters_turned"])
        )

    view = best_view("dark_castle", 2, 11, ["Ann", "Bob"], shows)
    marks: dict = {}
    height = max(700, HEADER + 40 + _box_height(view, language) * len(view["chars"]))
    _, scratch = palette.canvas(height, WIDTH)
    _card(scratch, view, height, marks, language)  # only to learn where the card's parts fall
    party_y = HEADER + 16
    notes = [
        (  # under the title's end, which a longer title in another language reaches
            (278, 78),
            msg(
                '15 chapters, then the boss. Between chapters anyone may decide who turns the next one (`turn cook`); "YOU" on a card is whoever turned it.'
            ),
        ),
        (
            (CARD_X + CARD_W - 30, HEADER + 40),
            msg(
                "The card: its scene, and what it asks: a choice, a trait test (roll your die: it must show the trait), HP or items, or a fight."
            ),
        ),
    ]
    if "row" in marks:
        rx, ry = marks["row"]
        notes.append(
            (
                (rx - 12, ry - 30),
                msg(
                    "A fight: the enemy's row of dice. Each fighter's die is rolled; a matching symbol removes a die of the row (a double removes two and blocks). An empty row beats the enemy; otherwise it strikes every fighter for its ATK."
                ),
            )
        )
    notes += [
        (
            (PARTY_X + 2, party_y + 62),
            msg(
                "Hit points: the moment any prisoner reaches 0, everyone loses. Escape together or not at all."
            ),
        ),
        (
            (PARTY_X + 190, 76),
            msg(
                "M, C, W (the key at the top right): how many faces of a prisoner's die show Might, Cunning and Wisdom; a face with two symbols is a double."
            ),
        ),
        (
            (PARTY_X - 6, party_y + 98),
            msg(
                "Items: used on a roll or in a fight, at any moment you choose (`use rabbitfoot`)."
            ),
        ),
    ]
    said = [(at, say(note, language)) for at, note in notes]
    return view, said, say(msg("Dark Castle: how to read the board"), language)
