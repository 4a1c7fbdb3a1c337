"""Dark Castle: the chapter card (scene, dice row, attack) beside the party, with progress.

Traits are told apart by shape and letter as well as colour: Might is a red square (M),
Cunning an orange triangle (C), Wisdom a blue circle (W). A double is drawn as two
symbols with a shield band ("BLOCK"). A death die's own faces sit on a black die in the
enemy's row: a shield is a grey shield marked S, a split face its two traits side by side.
"""

from __future__ import annotations

import re

from PIL import Image, ImageDraw

from render import toolkit as T

WIDTH = 1200
CARD_X, CARD_W = 24, 600
PARTY_X = 648
TRAIT = {
    "m": ("square", T.VERMILION, "M", "Might"),
    "c": ("triangle", T.ORANGE, "C", "Cunning"),
    "w": ("circle", T.SKY, "W", "Wisdom"),
}
HEADER = 96
STONE = {"crush": "crush a die", "shelter": "shelter (block)", "mend": "mend (+2 HP)",
         "sleep": "sleeps", "bite": "bites (-1 HP)"}  # fmt: skip
DEATH_NAMES = {"s": "Shield", "mc": "Might+Cunning", "mw": "Might+Wisdom", "cw": "Cunning+Wisdom"}


def _die_name(face: str) -> str:
    """A die of the enemy's row in words: a trait, or a death die's shield or split face."""
    return DEATH_NAMES.get(face) or TRAIT[face][3]


def _row_die(d: ImageDraw.ImageDraw, x: float, y: float, face: str) -> float:
    """One die of the enemy's row, its left edge at x and centre at y; return the next x."""
    if face in TRAIT:
        _symbol(d, x + 20, y, 20, face)
        return x + 46
    width = 44 if face == "s" else 78
    d.rounded_rectangle((x - 2, y - 24, x + width, y + 24), 8, fill=T.INK, outline=T.WHITE,
                        width=2)  # fmt: skip
    if face == "s":
        cx = x + width / 2
        d.polygon([(cx - 16, y - 17), (cx + 16, y - 17), (cx + 16, y + 2), (cx, y + 19),
                   (cx - 16, y + 2)], fill=T.GREY, outline=T.WHITE, width=2)  # fmt: skip
        T.text(d, (cx, y - 2), "S", 18, T.INK, "mm")
    else:
        for i, t in enumerate(face[:2]):
            _symbol(d, x + 19 + i * 38, y, 17, t)
    return x + width + 8


LINE = int(18 * 1.3)  # a line of the 18-pixel text in a prisoner's box


# A companion's special face (Scourge of the Undead Queen): a purple star.
SPECIAL = ("star", T.PURPLE, "S", "the special face")


def _symbol(d: ImageDraw.ImageDraw, x: float, y: float, r: float, trait: str) -> None:
    shape, colour, letter, _ = TRAIT.get(trait, SPECIAL)
    cy = y + (r * 0.15 if shape == "triangle" else 0)
    T.token(d, (x, cy), r, shape, colour, letter)


def _face(d: ImageDraw.ImageDraw, x: float, y: float, r: float, face: str) -> float:
    """Draw a rolled face at (x, y) centre-left; return the x after it."""
    if not face:
        return x
    if len(face) == 2:
        d.rounded_rectangle(
            (x - 4, y - r - 6, x + 4 * r + 12, y + r + 6), 8, outline=T.INK, width=3, fill=T.WHITE
        )
    for i, t in enumerate(face):
        _symbol(d, x + r + 2 + i * (2 * r + 4), y, r, t)
    return x + len(face) * (2 * r + 4) + 10


def _progress(d: ImageDraw.ImageDraw, view: dict) -> None:
    T.text(d, (CARD_X, 20), "Dark Castle", 36, T.WHITE)
    turned = view["chapters_turned"]
    x0 = 300
    for i in range(15):
        box = (x0 + i * 44, 22, x0 + i * 44 + 36, 58)
        done = i < turned
        current = i == turned - 1 and view["card"] and view["card"]["kind"] == "chapter"
        d.rectangle(box, fill=T.HIGHLIGHT if current else T.GREY if done else T.DARK,
                    outline=T.WHITE, width=2)  # fmt: skip
        T.text(d, ((box[0] + box[2]) / 2, 40), str(i + 1), 18, T.INK if done else T.WHITE, "mm")
    bx = x0 + 15 * 44 + 8
    boss_now = bool(view["card"] and view["card"]["kind"] == "boss")
    d.rectangle((bx, 18, bx + 120, 62), fill=T.VERMILION if boss_now else T.DARK,
                outline=T.WHITE, width=2)  # fmt: skip
    T.text(d, (bx + 60, 40), "BOSS", 24, T.WHITE, "mm")
    left = view["chapters_left"]
    cb = view.get("combat")
    status = f"{_chapters(left)} left before the boss" if left else "The boss awaits"
    if cb and cb.get("boss"):
        status = f"Boss phase {cb['phase']} of {cb['phases']}"
    if view.get("outcome") == "won":
        status = "Escaped! The castle is behind them"
    elif view.get("outcome") == "lost":
        status = "The escape has failed"
    T.text(d, (x0, 76), status, 20, T.WHITE, "lm")
    _trait_key(d, view)


def _trait_key(d: ImageDraw.ImageDraw, view: dict) -> None:
    """What the dice's shapes mean, at the header's right under the chapters: the party's
    counts and rolls are drawn with them."""
    keys = ["m", "c", "w"]
    if any(char.get("companion") for char in view["chars"]):
        keys.append("x")  # a companion's special face
    x = WIDTH - 20
    for trait in reversed(keys):
        word = TRAIT.get(trait, SPECIAL)[3].replace("the special face", "special")
        x -= T.text_width(word, 18)
        T.text(d, (x, 76), word, 18, T.WHITE, "lm")
        x -= 26
        _symbol(d, x + 12, 76, 12, trait)
        x -= 22


def _card(d: ImageDraw.ImageDraw, view: dict, height: int, marks: dict | None = None) -> None:
    """The card in play; `marks` (if given) learns where its parts were drawn."""
    top = HEADER + 16
    box = (CARD_X, top, CARD_X + CARD_W, height - 16)
    card = view.get("card")
    cb = view.get("combat")
    boss = bool(card and card["kind"] == "boss")
    d.rounded_rectangle(box, 18, fill=(60, 50, 48) if boss else T.PANEL, outline=T.INK, width=4)
    ink = T.WHITE if boss else T.INK
    x = CARD_X + 24
    y = top + 20
    if not card:
        T.text(d, (x, y), "The prisoners gather in the dark.", 28, ink)
        y = T.paragraph(d, (x, y + 50), view.get("prompt", ""), 22, CARD_W - 48, ink) + 10
        if view.get("flaws"):
            T.text(d, (x, y), "FLAWS DEALT ONTO THE PRISONERS", 18, T.VERMILION)
            y += 28
            for who, flaw in view["flaws"].items():
                line = f"{who.title()}: {flaw['name']} - {flaw['text']}"
                y = T.paragraph(d, (x, y), line, 18, CARD_W - 48, ink, max_lines=2) + 4
        return
    label = {"start": "START", "chapter": f"CHAPTER {view['chapters_turned']} OF 15",
             "boss": "BOSS"}[card["kind"]]  # fmt: skip
    if card.get("pack"):
        label += f"  -  {card['pack'].upper()}"
    T.text(d, (x, y), label, 18, T.ORANGE if not boss else T.HIGHLIGHT)
    y += 28
    for line in T.wrap(card["title"], 34, CARD_W - 48)[:2]:
        T.text(d, (x, y), line, 34, ink)
        y += 42
    if view.get("turner"):
        T.text(d, (x, y), f"YOU: the {view['turner'].title()}", 20, ink)
        y += 30
    y = T.paragraph(d, (x, y + 4), card["text"], 22, CARD_W - 48, ink, max_lines=6) + 12
    if view.get("ending"):
        y = _ending(d, view, x, y, ink)
    elif cb:
        y = _combat_block(d, cb, x, y, ink, marks if marks is not None else {})
    elif view.get("options"):
        for opt in view["options"]:
            colour = ink if opt["open"] else T.GREY
            mark = "" if opt["open"] else "  (not possible now)"
            y = T.paragraph(d, (x, y), f"{opt['n']}. {opt['label']}{mark}", 22, CARD_W - 48,
                            colour, max_lines=2)  # fmt: skip
            y = T.paragraph(d, (x + 24, y), opt.get("cost", ""), 18, CARD_W - 72,
                            colour, max_lines=3) + 6  # fmt: skip
    elif (view.get("relics") or {}).get("ritual"):
        y = _asks(d, _ritual_lines(view["relics"]["ritual"]), x, y, "THE BLOOD RITUAL", ink)
    elif view.get("asking"):
        y = _asks(d, [view["asking"]], x, y, "NOW", ink)
    elif card.get("asks"):
        if marks is not None:
            marks["asks"] = (x, y + 9)
        y = _asks(d, card["asks"], x, y, "THIS CHAPTER ASKS", ink)
    cast = (view.get("relics") or {}).get("casting") or {}
    if cast.get("spells"):  # the Spell Book's holder is about to roll: the spells open now
        head = f"THE {cast['by'].upper()} MAY CAST INSTEAD OF ROLLING"
        y = _asks(d, cast["spells"], x, y, head, ink)
    _log(d, view, x, y, height - 36, ink)
    if view.get("pool"):
        T.text(d, (x, y + 6), "On the table:", 22, ink)
        y += 36
        for item in view["pool"][:4]:
            y = T.paragraph(d, (x + 10, y), f"{item['name']}: {item['text']}", 18, CARD_W - 60,
                            ink, max_lines=2)  # fmt: skip


def _ritual_lines(ritual: dict) -> list[str]:
    """The blood ritual under way: who drinks, what is pledged, what may still be given."""
    gifts = ", ".join(f"the {who.title()} {n} HP" for who, n in ritual["gifts"].items())
    given = sum(ritual["gifts"].values())
    return [
        f"The {ritual['to'].title()} drinks, lacking {ritual['lacks']} HP.",
        f"Pledged: {gifts or 'nothing yet'}; up to {ritual['lacks'] - given} HP more.",
        "Each donor keeps at least 1 HP. Drink to pay the pledges, or stop.",
    ]


def _chapters(n: int) -> str:
    return "1 chapter" if n == 1 else f"{n} chapters"


def _asks(d: ImageDraw.ImageDraw, lines: list[str], x: int, y: int, head: str, ink) -> int:
    """What the chapter asks (trait, attempts, double, who rolls, cost of failing), boxed."""
    T.text(d, (x, y), head, 18, T.VERMILION)
    y += 26
    for line in lines[:4]:
        y = T.paragraph(d, (x + 10, y), line, 20, CARD_W - 68, ink, max_lines=4) + 6
    return y + 4


def _ending(d: ImageDraw.ImageDraw, view: dict, x: int, y: int, ink) -> int:
    """The end of the story: escaped or fallen, in a banner where the enemy stood."""
    won = view.get("outcome") == "won"
    colour = T.GREEN if won else T.VERMILION
    d.rounded_rectangle((x, y, CARD_X + CARD_W - 24, y + 70), 12, fill=colour, outline=T.INK,
                        width=3)  # fmt: skip
    T.text(d, ((x + CARD_X + CARD_W - 24) / 2, y + 35), "ESCAPED" if won else "DEFEATED", 40,
           T.WHITE, "mm")  # fmt: skip
    y += 84
    y = T.paragraph(d, (x, y), view["ending"], 22, CARD_W - 48, ink, max_lines=4) + 8
    if view.get("epilogue"):
        T.text(d, (x, y), "EPILOGUE", 18, T.VERMILION)
        y = T.paragraph(d, (x, y + 26), view["epilogue"], 20, CARD_W - 48, ink, max_lines=6) + 8
    return y


def _log_lines(log: list[str], room: int) -> list[str]:
    """The wrapped lines of the latest log entries that fit in `room` lines: whole entries
    only (the latest one's end if even it does not fit), never one cut at its start."""
    lines: list[str] = []
    for entry in reversed(log[-5:]):
        wrapped = T.wrap(entry, 17, CARD_W - 60)
        if len(lines) + len(wrapped) > room:
            if not lines and room:
                lines = wrapped[-room:]
            break
        lines = wrapped + lines
    return lines


def _log(d: ImageDraw.ImageDraw, view: dict, x: int, y_min: int, y_max: int, ink) -> None:
    """The latest lines of the story, bottom-aligned in the card's free space."""
    lines = _log_lines(view.get("log", []), max(0, (y_max - y_min - 40) // 22))
    if not lines or view.get("pool"):
        return
    y = y_max - len(lines) * 22
    d.line((x, y - 10, CARD_X + CARD_W - 24, y - 10), fill=T.GREY, width=1)
    for line in lines:
        T.text(d, (x, y), line, 17, T.GREY if ink == T.WHITE else T.DARK)
        y += 22


def _combat_block(d: ImageDraw.ImageDraw, cb: dict, x: int, y: int, ink, marks: dict) -> int:
    d.line((x, y, CARD_X + CARD_W - 24, y), fill=ink, width=2)
    y += 12
    T.text(d, (x, y), f"{cb['name']}  (round {cb['round']})", 26, ink)
    # The attack value: a dark badge at the right.
    ax = CARD_X + CARD_W - 90
    d.rounded_rectangle((ax, y - 4, ax + 66, y + 62), 10, fill=T.VERMILION, outline=T.INK, width=3)
    T.text(d, (ax + 33, y + 14), "ATK", 16, T.WHITE, "mm")
    T.text(d, (ax + 33, y + 40), str(cb["attack"]), 30, T.WHITE, "mm")
    y += 44
    if cb.get("text"):
        y = T.paragraph(d, (x, y), cb["text"], 20, CARD_W - 140, ink, max_lines=2)
    row = cb["row"]
    marks["row"] = (x + 6, y + 26)
    if row:
        rx = x + 6
        for face in row[:11]:
            rx = _row_die(d, rx, y + 26, face)
        y += 60
    else:
        T.text(d, (x, y + 10), "(the row is empty)", 22, ink)
        y += 44
    counts = ", ".join(f"{row.count(t)} {_die_name(t)}" for t in dict.fromkeys(row))
    if counts:
        T.text(d, (x, y), f"Row: {counts}", 20, ink)
        y += 30
    if any(t in DEATH_NAMES for t in row):
        y = T.paragraph(d, (x, y), "Death dice: a shield falls to one double or two prisoners' "
                        "matching singles; a split die to two prisoners, one trait each.", 20,
                        CARD_W - 48, ink, max_lines=3)  # fmt: skip
    if cb.get("carrier"):
        y = T.paragraph(d, (x, y), "Carrier: each hit taken (not blocked) adds 1 plague.", 20,
                        CARD_W - 48, T.GREEN, max_lines=2)  # fmt: skip
    if cb.get("cultist"):
        y = T.paragraph(d, (x, y), "Cultists: a prisoner Marked for Death loses 1 HP more.", 20,
                        CARD_W - 48, T.VERMILION, max_lines=2)  # fmt: skip
    for who in cb.get("turned", []):
        y = T.paragraph(d, (x, y), f"The {who.title()} has joined the enemy's row.", 20,
                        CARD_W - 48, T.VERMILION, max_lines=2)  # fmt: skip
    if cb.get("stone"):  # the Living Stone's die, last rolled this combat
        T.token(d, (x + 14, y + 14), 14, "hexagon", T.GREEN, "LS")
        T.text(d, (x + 38, y + 2), f"The Living Stone: {STONE[cb['stone']]}", 20, ink)
        y += 34
    for special in cb["specials"]:
        y = T.paragraph(d, (x, y), f"Special: {special}", 20, CARD_W - 48, ink, max_lines=3)
    return y + 8


def _char_lines(char: dict, few: bool) -> list[tuple[str, tuple, int]]:
    """The lines under a prisoner's hit points: (text, colour, most lines it may take)."""
    items = ", ".join(i["name"] + (" (2H)" if i["hands"] == 2 else "") for i in char["items"])
    lines = [(f"Items: {items or 'none'}", T.INK, 3 if few else 2)]
    if char.get("stored"):
        packed = ", ".join(i["name"] for i in char["stored"])
        lines.append((f"In the knapsack: {packed}", T.DARK, 2))
    if char.get("flaw"):
        used = " (used)" if char["flaw"]["used"] else ""
        lines.append((f"Flaw: {char['flaw']['name']}{used}", T.DARK, 1))
    if char.get("companion"):
        lines.append((f"Special (S): {char['companion']['special']}", T.PURPLE, 2))
    if char.get("curses"):
        cursed = ", ".join(c["name"] for c in char["curses"])
        lines.append((f"Curses: {cursed}", T.VERMILION, 2))
    return lines


def _box_height(view: dict) -> int:
    """A prisoner's box: taller when someone's items, knapsack, flaw and curses need it, so
    no line is cut off or runs over the box below."""
    chars = view["chars"]
    few = len(chars) <= 2
    need = 0
    for char in chars:
        rows = sum(
            min(len(T.wrap(text, 18, 330)), most) for text, _, most in _char_lines(char, few)
        )
        need = max(need, 88 + rows * LINE + 24)
    return max(200 if few else 176, need)


def _party(d: ImageDraw.ImageDraw, view: dict) -> None:
    chars = view["chars"]
    hp0 = view["hp_start"]
    cb = view.get("combat") or {}
    box_h = _box_height(view)
    y = HEADER + 16
    acting = set(view["to_act"])
    relics = view.get("relics") or {}
    ritual = relics.get("ritual") or {}
    for char in chars:
        x = PARTY_X
        comp = char.get("companion")
        hl = char["seat"] in acting and not comp  # a companion: anyone acts for it
        d.rounded_rectangle((x, y, WIDTH - 20, y + box_h - 10), 14,
                            fill=T.HIGHLIGHT if hl else T.PANEL,
                            outline=T.PURPLE if comp else T.INK, width=5 if comp else 2)  # fmt: skip
        d.rounded_rectangle((x + 8, y + 12, x + 44, y + 40), 6, fill=T.PURPLE if comp else T.NIGHT)
        badge = "ALLY" if comp else f"P{char['seat'] + 1}"
        T.text(d, (x + 26, y + 26), badge, 12 if comp else 18, T.WHITE, "mm")
        title = char["title"] or "(choosing)"
        tags = []
        if view.get("turner") == char["who"] and char["who"]:
            tags.append("YOU")
        if cb.get("rester") == char["who"] and char["who"]:
            tags.append("RESTING")
        if char["who"] in cb.get("blocked", []):
            tags.append("BLOCK")
        if char["who"] in cb.get("turned", []):
            tags.append("WITH THE CULT")
        if char.get("marked"):
            tags.append("MARKED")
        if char.get("cult_die"):
            tags.append("CULT DIE")
        if comp:
            tags.append("SPIRIT" if comp["immune"] else "COMPANION")
        if ritual.get("to") == char["who"]:
            tags.append("DRINKS")
        if char["who"] in ritual.get("gifts", {}):
            tags.append(f"GIVES {ritual['gifts'][char['who']]}")
        if (relics.get("casting") or {}).get("by") == char["who"]:
            tags.append("CASTING")
        tagged = " / ".join(tags)
        if tags:
            T.text(d, (WIDTH - 34, y + 26), tagged, 20, T.VERMILION, "rm")
        # The title and player's name take what the tags leave of the line; a long name is
        # cut, never the title (it says which prisoner this is).
        room = WIDTH - 34 - (T.text_width(tagged, 20) + 14 if tags else 0) - (x + 54)
        head = f"{title} - "
        name = T.fit(char["player"], 24, room - T.text_width(head, 24))
        T.text(d, (x + 54, y + 26), T.fit(head + name, 24, room), 24, T.INK, "lm")
        # Hit points: a bar and the number.
        bar = (x + 14, y + 50, x + (196 if comp else 250), y + 74)  # a companion: room for S
        d.rectangle(bar, fill=T.WHITE, outline=T.INK, width=2)
        top = char.get("hp_max") or hp0  # a companion has its own start
        if top:
            fill = bar[0] + (bar[2] - bar[0]) * max(0, char["hp"]) / top
            colour = T.GREEN if char["hp"] * 3 > top else T.VERMILION
            d.rectangle(
                (bar[0] + 2, bar[1] + 2, max(bar[0] + 2, fill - 2), bar[3] - 2), fill=colour
            )
        T.text(d, (bar[2] + 12, y + 62), f"{char['hp']}/{top} HP", 22, T.INK, "lm")
        # Die traits as shapes with counts.
        tx, step = (x + 318, 54) if comp else (x + 376, 58)
        for t in ("m", "c", "w"):
            _symbol(d, tx, y + 62, 15, t)
            T.text(d, (tx + 20, y + 62), str(char["traits"].get(t, 0)), 22, T.INK, "lm")
            tx += step
        if comp:  # and its special face
            _symbol(d, tx, y + 62, 15, "x")
            T.text(d, (tx + 20, y + 62), "1", 22, T.INK, "lm")
        # Items, the knapsack, the flaw, a companion's special and the curses; the last roll.
        iy = y + 88
        for text, colour, most in _char_lines(char, len(chars) <= 2):
            iy = T.paragraph(d, (x + 14, iy), text, 18, 330, colour, max_lines=most)
        if char.get("plague"):
            _plague_tally(d, x + 376, y + 122, char)
        if char["roll"]:
            T.text(d, (x + 370, y + 98), "Roll:", 18, T.INK, "lm")
            _face(d, x + 420, y + 98, 16, char["roll"])
        y += box_h


def _plague_tally(d: ImageDraw.ImageDraw, x: int, y: int, char: dict) -> None:
    """Plague as tally marks (groups of five), with the next threshold and its HP cost."""
    n = char["plague"]
    for i in range(min(n, 15)):
        group, mark = divmod(i, 5)
        gx = x + group * 44
        if mark < 4:
            d.line((gx + mark * 8, y, gx + mark * 8, y + 18), fill=T.GREEN, width=3)
        else:
            d.line((gx - 4, y + 14, gx + 28, y + 4), fill=T.GREEN, width=3)
    nxt = char.get("next_threshold")
    label = f"plague {n}" + (f", at {nxt[0]}: -{nxt[1]} HP" if nxt else "")
    T.text(d, (x, y + 30), label, 16, T.DARK, "lm")


def draw(view: dict) -> Image.Image:
    return T.caption_bar(board(view), caption(view))


def caption(view: dict) -> list[str]:
    """What just happened (its end, if long), then what is asked now."""
    lines = [_tail(view["last"], 300)] if view.get("last") else []
    lines.append(view.get("prompt") or "")
    return [line for line in lines if line]


def board(view: dict) -> Image.Image:
    """The picture without its caption (a replay writes its own under each board)."""
    chars = view["chars"]
    height = max(700, HEADER + 40 + _box_height(view) * len(chars))
    img, d = T.canvas(height, WIDTH)
    d.rectangle((0, 0, WIDTH, HEADER), fill=T.NIGHT)
    _progress(d, view)
    _card(d, view, height)
    _party(d, view)
    return img


def _tail(text: str, limit: int) -> str:
    """The end of a long text, from its first whole sentence (else its first whole word, after
    an ellipsis), never from the middle of a word."""
    if len(text) <= limit:
        return text
    tail = text[-limit:]
    sentence = re.search(r"[.!?] (?=[A-Z])", tail)
    if sentence:
        return tail[sentence.end() :]
    return "… " + tail.split(" ", 1)[-1]


def describe(view: dict) -> str:
    """Alt text: the chapter, the enemy's row, the party and what is asked now."""
    parts = [f"Dark Castle: {view['castle']}." if view.get("castle") else "Dark Castle."]
    card = view.get("card")
    left = view["chapters_left"]
    parts.append(
        f"{_chapters(view['chapters_turned'])} turned, {_chapters(left)} left before the boss."
    )
    if card:
        parts.append(f"{card['title']}: {card['text']}")
    if view.get("ending"):
        parts.append(view["ending"])
        if view.get("epilogue"):
            parts.append("Epilogue: " + view["epilogue"])
    elif view.get("asking"):
        parts.append(f"Now: {view['asking']}.")
    elif card and card.get("asks") and not view.get("options") and not view.get("combat"):
        parts.append("This chapter asks: " + " ".join(card["asks"]))
    cb = view.get("combat")
    if cb and not view.get("ending"):  # the picture shows the ending where the enemy stood
        row = ", ".join(_die_name(t) for t in cb["row"]) or "empty"
        phase = f" Boss phase {cb['phase']} of {cb['phases']}." if cb.get("boss") else ""
        parts.append(
            f"Combat with {cb['name']}, round {cb['round']}, attack {cb['attack']}; "
            f"row: {row}.{phase}"
        )
        parts += [f"Special: {s}" for s in cb["specials"]]
        if cb.get("stone"):
            parts.append(f"The Living Stone last showed: {STONE[cb['stone']]}.")
    for opt in view.get("options", []):
        locked = "" if opt["open"] else " (locked)"
        parts.append(f"Option {opt['n']}: {opt['label']}{locked}: {opt.get('cost', '')}.")
    for char in view["chars"]:
        items = ", ".join(i["name"] for i in char["items"]) or "no items"
        roll = ""
        if char["roll"]:
            roll = "; last roll " + " ".join(TRAIT.get(t, SPECIAL)[3] for t in char["roll"])
        curses = ", ".join(c["name"] for c in char.get("curses", []))
        curses = f"; cursed: {curses}" if curses else ""
        cult = "; rolls the cult die" if char.get("cult_die") else ""
        if char.get("plague"):
            cult += f"; plague {char['plague']}"
        if char.get("flaw"):
            cult += f"; flaw {char['flaw']['name']}" + (" (used)" if char["flaw"]["used"] else "")
        if char.get("stored"):
            cult += "; in the knapsack: " + ", ".join(i["name"] for i in char["stored"])
        comp = char.get("companion")
        if comp:
            faces = ", ".join(TRAIT.get(f, SPECIAL)[3] if len(f) == 1 else
                              f"{TRAIT[f[0]][3]} double" for f in char.get("faces", []))  # fmt: skip
            special = comp["special"].rstrip(".")
            cult += f"; a companion, die: {faces}; {comp['trait']} Special: {special}"
        top = char.get("hp_max") or view["hp_start"]
        parts.append(
            f"{char['title'] or 'An unchosen prisoner'} ({char['player']}): "
            f"{char['hp']} of {top} HP, {items}{curses}{cult}{roll}."
        )
    relics = view.get("relics") or {}
    ritual = relics.get("ritual")
    if ritual:
        gifts = ", ".join(f"{who.title()} {n} HP" for who, n in ritual["gifts"].items())
        parts.append(
            f"Blood ritual for the {ritual['to'].title()}: pledged {gifts or 'nothing yet'}."
        )
    cast = relics.get("casting") or {}
    if cast.get("spells"):
        spells = "; ".join(cast["spells"])
        parts.append(f"The {cast['by'].title()} may cast instead of rolling: {spells}.")
    if view.get("pool"):
        parts.append("On the table: " + ", ".join(i["name"] for i in view["pool"]) + ".")
    if view.get("prompt"):
        parts.append(view["prompt"])
    if view.get("flaws"):  # while choosing: which flaw comes with which prisoner
        dealt = "; ".join(
            f"{who.title()}: {f['name']} ({f['text'].rstrip('.')})"
            for who, f in view["flaws"].items()
        )
        parts.append(f"Flaws dealt onto the prisoners: {dealt}.")
    return " ".join(parts)


# ----- the rules picture ---------------------------------------------------------------
def illustration() -> tuple[dict, list, str]:
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
    height = max(700, HEADER + 40 + _box_height(view) * len(view["chars"]))
    _, scratch = T.canvas(height, WIDTH)
    _card(scratch, view, height, marks)  # only to learn where the card's parts fall
    party_y = HEADER + 16
    notes = [
        ((276, 40), "15 chapters, then the boss. Between "
         "chapters anyone may decide who turns the next one (`turn cook`); \"YOU\" on a card "
         "is whoever turned it."),
        ((CARD_X + CARD_W - 30, HEADER + 40), "The card: its scene, and what it asks: a "
         "choice, a trait test (roll your die: it must show the trait), HP or items, or "
         "a fight."),
    ]  # fmt: skip
    if "row" in marks:
        rx, ry = marks["row"]
        notes.append(((rx - 12, ry - 30), "A fight: the enemy's row of dice. Each fighter's "
                      "die is rolled; a matching symbol removes a die of the row (a double "
                      "removes two and blocks). An empty row beats the enemy; otherwise it "
                      "strikes every fighter for its ATK."))  # fmt: skip
    notes += [
        ((PARTY_X + 2, party_y + 62), "Hit points: the moment any prisoner reaches 0, "
         "everyone loses. Escape together or not at all."),
        ((PARTY_X + 190, 76), "M, C, W (the key at the top right): how many faces of a "
         "prisoner's die show Might, Cunning and Wisdom; a face with two symbols is a double."),
        ((PARTY_X - 6, party_y + 98), "Items: used on a roll or in a fight, at any moment "
         "you choose (`use rabbitfoot`)."),
    ]  # fmt: skip
    return view, notes, "Dark Castle: how to read the board"
