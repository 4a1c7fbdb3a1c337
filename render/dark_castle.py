"""Dark Castle: the chapter card (scene, dice row, attack) beside the party, with progress.

Traits are told apart by shape and letter as well as colour: Might is a red square (M),
Cunning an orange triangle (C), Wisdom a blue circle (W). A double is drawn as two
symbols with a shield band ("BLOCK"). A death die's own faces sit on a black die in the
enemy's row: a shield is a grey shield marked S, a split face its two traits side by side.

Every word is said in the language the picture is drawn in (`languages.say`); the view's
words are messages already. What has a fixed place (a heading, a tag, a badge) is fitted to
it (`toolkit.fit`); what runs on wraps, so a longer language never clips or overlaps.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engines.text import Msg, in_context, joined, msg, plural
from languages import DEFAULT, say
from render import toolkit as kit
from render.dark_castle_alt import describe as describe  # the alt text, as every renderer offers
from render.dark_castle_story import caption as caption  # what happened, then what is asked
from render.dark_castle_story import caption_after as caption_after  # the same after a move
from render.dark_castle_story import on_the_card
from render.dark_castle_words import DEATH_NAMES, SPECIAL, STONE, TRAIT
from render.dark_castle_words import die_name as _die_name
from render.dark_castle_words import short_name as _short

WIDTH = 1200
CARD_X, CARD_W = 24, 600
PARTY_X = 648
HEADER = 96


def _row_die(d: ImageDraw.ImageDraw, x: float, y: float, face: str, language: str) -> float:
    """One die of the enemy's row, its left edge at x and centre at y; return the next x."""
    if face in TRAIT:
        _symbol(d, x + 20, y, 20, face, language)
        return x + 46
    width = 44 if face == "s" else 78
    d.rounded_rectangle((x - 2, y - 24, x + width, y + 24), 8, fill=kit.INK, outline=kit.WHITE,
                        width=2)  # fmt: skip
    if face == "s":
        cx = x + width / 2
        d.polygon([(cx - 16, y - 17), (cx + 16, y - 17), (cx + 16, y + 2), (cx, y + 19),
                   (cx - 16, y + 2)], fill=kit.GREY, outline=kit.WHITE, width=2)  # fmt: skip
        kit.text(d, (cx, y - 2), say(in_context("shield letter", "S"), language), 18, kit.INK, "mm")
    else:
        for i, t in enumerate(face[:2]):
            _symbol(d, x + 19 + i * 38, y, 17, t, language)
    return x + width + 8


LINE = int(18 * 1.3)  # a line of the 18-pixel text in a prisoner's box


# A companion's special face (Scourge of the Undead Queen): a purple star.


def _symbol(
    d: ImageDraw.ImageDraw, x: float, y: float, r: float, trait: str, language: str
) -> None:
    shape, colour, letter, _ = TRAIT.get(trait, SPECIAL)
    kit.token(
        d, (x, y), r, shape, colour, say(letter, language)
    )  # a triangle sits centred by `token`


def _face(d: ImageDraw.ImageDraw, x: float, y: float, r: float, face: str, language: str) -> float:
    """Draw a rolled face at (x, y) centre-left; return the x after it."""
    if not face:
        return x
    if len(face) == 2:
        d.rounded_rectangle(
            (x - 4, y - r - 6, x + 4 * r + 12, y + r + 6),
            8,
            outline=kit.INK,
            width=3,
            fill=kit.WHITE,
        )
    for i, t in enumerate(face):
        _symbol(d, x + r + 2 + i * (2 * r + 4), y, r, t, language)
    return x + len(face) * (2 * r + 4) + 10


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
        return plural("{count} chapter left before the boss", "{count} chapters left before the boss", left)  # fmt: skip
    return msg("The boss awaits")


def _progress(img: Image.Image, view: dict, language: str) -> None:
    """The header band: it changes only when a chapter is turned, so it is drawn once for
    what it shows (`kit.stamp`)."""
    card = view["card"] or {}
    header = (
        view["chapters_turned"], card.get("kind") == "chapter", card.get("kind") == "boss",
        say(_status(view), language), any(char.get("companion") for char in view["chars"]),
    )  # fmt: skip
    kit.stamp(img, (0, 0), (WIDTH, HEADER), _header, *header, language, ground=kit.NIGHT)


def _header(d, turned: int, chapter: bool, boss_now: bool, status: str, ally: bool, language: str) -> None:  # fmt: skip
    x0 = 300
    kit.text(d, (CARD_X, 20), kit.fit(say(msg("Dark Castle"), language), 36, x0 - CARD_X - 12), 36, kit.WHITE)  # fmt: skip
    for i in range(15):
        box = (x0 + i * 44, 22, x0 + i * 44 + 36, 58)
        done = i < turned
        current = i == turned - 1 and chapter
        d.rectangle(box, fill=kit.HIGHLIGHT if current else kit.GREY if done else kit.DARK,
                    outline=kit.WHITE, width=2)  # fmt: skip
        kit.text(
            d, ((box[0] + box[2]) / 2, 40), str(i + 1), 18, kit.INK if done else kit.WHITE, "mm"
        )
    bx = x0 + 15 * 44 + 8
    d.rectangle((bx, 18, bx + 120, 62), fill=kit.VERMILION if boss_now else kit.DARK,
                outline=kit.WHITE, width=2)  # fmt: skip
    boss = _fitted(say(in_context("board", "BOSS"), language), 24, 100)  # clear of the frame
    kit.text(d, (bx + 60, 40), boss[0], boss[1], kit.WHITE, "mm")
    key_left = _trait_key(d, ally, language)
    kit.text(d, (x0, 76), kit.fit(status, 20, key_left - x0 - 16), 20, kit.WHITE, "lm")


def _fitted(content: str, size: int, width: float, smallest: int = 12) -> tuple[str, int]:
    """A short label for a fixed space: a smaller size first, then cut with an ellipsis."""
    while size > smallest and kit.text_width(content, size) > width:
        size -= 1
    return kit.fit(content, size, width), size


def _trait_key(d: ImageDraw.ImageDraw, ally: bool, language: str) -> int:
    """What the dice's shapes mean, at the header's right under the chapters: the party's
    counts and rolls are drawn with them. Returns the key's left edge."""
    keys = ["m", "c", "w"]
    if ally:
        keys.append("x")  # a companion's special face
    x = WIDTH - 20
    for trait in reversed(keys):
        name = TRAIT[trait][3] if trait in TRAIT else msg("special")
        word = kit.fit(say(name, language), 18, 150)
        x -= kit.text_width(word, 18)
        kit.text(d, (x, 76), word, 18, kit.WHITE, "lm")
        x -= 26
        _symbol(d, x + 12, 76, 12, trait, language)
        x -= 22
    return x


def _card(d: ImageDraw.ImageDraw, view: dict, height: int, marks: dict | None = None,
          language: str = DEFAULT) -> int:  # fmt: skip
    """The card in play; `marks` (if given) learns where its parts were drawn. Returns the
    y below what it drew (the story's lines, bottom-aligned, aside)."""

    def S(value) -> str:
        return say(value, language)

    top = HEADER + 16
    box = (CARD_X, top, CARD_X + CARD_W, height - 16)
    card = view.get("card")
    cb = view.get("combat")
    boss = bool(card and card["kind"] == "boss")
    d.rounded_rectangle(box, 18, fill=(60, 50, 48) if boss else kit.PANEL, outline=kit.INK, width=4)
    ink = kit.WHITE if boss else kit.INK
    x = CARD_X + 24
    y = top + 20
    wide = CARD_W - 48
    if not card:
        y = kit.paragraph(d, (x, y), S(msg("The prisoners gather in the dark.")), 28, wide, ink, max_lines=2)  # fmt: skip
        y = kit.paragraph(d, (x, y + 14), S(view.get("prompt", "")), 22, wide, ink) + 10
        if view.get("flaws"):
            kit.text(d, (x, y), kit.fit(S(msg("FLAWS DEALT ONTO THE PRISONERS")), 18, wide), 18, kit.VERMILION)  # fmt: skip
            y += 28
            for who, flaw in view["flaws"].items():
                line = S(msg("{character}: {flaw} - {text}", character=flaw.get("character") or Msg(who.title()),
                             flaw=flaw["name"], text=flaw["text"]))  # fmt: skip
                y = kit.paragraph(d, (x, y), line, 18, wide, ink, max_lines=2) + 4
        return y
    if card["kind"] == "chapter":
        label = S(msg("CHAPTER {n} OF 15", n=view["chapters_turned"]))
    else:
        label = S(in_context("card", "START") if card["kind"] == "start" else in_context("board", "BOSS"))  # fmt: skip
    if card.get("pack"):
        label += "  -  " + S(card["pack"]).upper()
    kit.text(d, (x, y), kit.fit(label, 18, wide), 18, kit.ORANGE if not boss else kit.HIGHLIGHT)
    y += 28
    for line in kit.wrap(S(card["title"]), 34, wide)[:2]:
        kit.text(d, (x, y), line, 34, ink)
        y += 42
    if view.get("turner"):
        you = S(msg("YOU: the {character}", character=_short(view, view["turner"])))
        kit.text(d, (x, y), kit.fit(you, 20, wide), 20, ink)
        y += 30
    y = kit.paragraph(d, (x, y + 4), S(card["text"]), 22, wide, ink, max_lines=6) + 12
    if view.get("ending"):
        y = _ending(d, view, x, y, ink, language)
    elif cb:
        y = _combat_block(d, view, x, y, ink, marks if marks is not None else {}, language)
    elif view.get("options"):
        for opt in view["options"]:
            colour = ink if opt["open"] else kit.GREY
            said = msg("{n}. {option}", n=opt["n"], option=opt["label"])
            if not opt["open"]:
                said = msg("{n}. {option}  (not possible now)", n=opt["n"], option=opt["label"])
            y = kit.paragraph(d, (x, y), S(said), 22, wide, colour, max_lines=2)
            y = kit.paragraph(d, (x + 24, y), S(opt.get("cost", "")), 18, CARD_W - 72,
                            colour, max_lines=3) + 6  # fmt: skip
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
        head = S(msg("THE {character} MAY CAST INSTEAD OF ROLLING", character=_short(view, cast["by"]))).upper()  # fmt: skip
        y = _asks(d, [S(spell) for spell in cast["spells"]], x, y, head, ink)
    _log(d, view, x, y, height - 36, ink, language)
    if view.get("pool"):
        kit.text(d, (x, y + 6), kit.fit(S(msg("On the table:")), 22, wide), 22, ink)
        y += 36
        for item in view["pool"][:4]:
            said = S(msg("{item}: {text}", item=item["name"], text=item["text"]))
            y = kit.paragraph(d, (x + 10, y), said, 18, CARD_W - 60, ink, max_lines=2)
    return y


def _ritual_lines(view: dict, ritual: dict) -> list[Msg]:
    """The blood ritual under way: who drinks, what is pledged, what may still be given."""
    given = sum(ritual["gifts"].values())
    gifts = [msg("the {character} {n} HP", character=_short(view, who), n=n)
             for who, n in ritual["gifts"].items()]  # fmt: skip
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
    kit.text(d, (x, y), kit.fit(head, 18, CARD_W - 48), 18, kit.VERMILION)
    y += 26
    for line in lines[:4]:
        y = kit.paragraph(d, (x + 10, y), line, 20, CARD_W - 68, ink, max_lines=4) + 6
    return y + 4


def _ending(d: ImageDraw.ImageDraw, view: dict, x: int, y: int, ink, language: str) -> int:
    """The end of the story: escaped or fallen, in a banner where the enemy stood."""
    won = view.get("outcome") == "won"
    colour = kit.GREEN if won else kit.VERMILION
    right = CARD_X + CARD_W - 24
    d.rounded_rectangle((x, y, right, y + 70), 12, fill=colour, outline=kit.INK, width=3)
    banner = say(msg("ESCAPED") if won else msg("DEFEATED"), language)
    banner, size = _fitted(banner, 40, right - x - 24, smallest=20)
    kit.text(d, ((x + right) / 2, y + 35), banner, size, kit.WHITE, "mm")
    y += 84
    y = kit.paragraph(d, (x, y), say(view["ending"], language), 22, CARD_W - 48, ink, max_lines=4) + 8  # fmt: skip
    if view.get("epilogue"):
        kit.text(d, (x, y), kit.fit(say(msg("EPILOGUE"), language), 18, CARD_W - 48), 18, kit.VERMILION)  # fmt: skip
        y = kit.paragraph(d, (x, y + 26), say(view["epilogue"], language), 20, CARD_W - 48, ink,
                        max_lines=6) + 8  # fmt: skip
    return y


def _log_lines(log: list, room: int, language: str = DEFAULT, card: dict | None = None) -> list[str]:  # fmt: skip
    """The wrapped lines of the latest log entries that fit in `room` lines: whole entries
    only (the latest one's end if even it does not fit), never one cut at its start; the
    scene of the card in play (`card`) is left to the card."""
    lines: list[str] = []
    for entry in reversed([e for e in log[-5:] if not on_the_card(e, card)]):
        wrapped = kit.wrap(say(entry, language), 17, CARD_W - 60)
        if len(lines) + len(wrapped) > room:
            if not lines and room:
                lines = wrapped[-room:]
            break
        lines = wrapped + lines
    return lines


def _log(d: ImageDraw.ImageDraw, view: dict, x: int, y_min: int, y_max: int, ink,
         language: str) -> None:  # fmt: skip
    """The latest lines of the story, bottom-aligned in the card's free space."""
    room = max(0, (y_max - y_min - 40) // 22)
    lines = _log_lines(view.get("log", []), room, language, view.get("card"))
    if not lines or view.get("pool"):
        return
    y = y_max - len(lines) * 22
    d.line((x, y - 10, CARD_X + CARD_W - 24, y - 10), fill=kit.GREY, width=1)
    for line in lines:
        kit.text(d, (x, y), line, 17, kit.GREY if ink == kit.WHITE else kit.DARK)
        y += 22


def _combat_block(d: ImageDraw.ImageDraw, view: dict, x: int, y: int, ink, marks: dict,
                  language: str) -> int:  # fmt: skip
    def S(value) -> str:
        return say(value, language)

    cb = view["combat"]
    wide = CARD_W - 48
    d.line((x, y, CARD_X + CARD_W - 24, y), fill=ink, width=2)
    y += 12
    enemy = S(msg("{enemy}  (round {round})", enemy=cb["name"], round=cb["round"]))
    for line in kit.wrap(enemy, 26, CARD_W - 150)[:2]:
        kit.text(d, (x, y), line, 26, ink)
        y += 34
    # The attack value: a dark badge at the right.
    ax = CARD_X + CARD_W - 90
    top = y - 34 * min(2, len(kit.wrap(enemy, 26, CARD_W - 150)))
    d.rounded_rectangle((ax, top - 4, ax + 66, top + 62), 10, fill=kit.VERMILION, outline=kit.INK, width=3)  # fmt: skip
    atk, size = _fitted(S(in_context("attack value", "ATK")), 16, 58, smallest=10)
    kit.text(d, (ax + 33, top + 14), atk, size, kit.WHITE, "mm")
    kit.text(d, (ax + 33, top + 40), str(cb["attack"]), 30, kit.WHITE, "mm")
    y = max(y, top + 44) + 0
    if cb.get("text"):
        y = kit.paragraph(d, (x, y), S(cb["text"]), 20, CARD_W - 140, ink, max_lines=2)
    row = cb["row"]
    marks["row"] = (x + 6, y + 26)
    if row:
        rx = x + 6
        for face in row[:11]:
            rx = _row_die(d, rx, y + 26, face, language)
        y += 60
    else:
        kit.text(d, (x, y + 10), kit.fit(S(msg("(the row is empty)")), 22, wide), 22, ink)
        y += 44
    counts = [msg("{n} {die}", n=row.count(t), die=_die_name(t)) for t in dict.fromkeys(row)]
    if counts:
        y = kit.paragraph(d, (x, y), S(msg("Row: {dice}", dice=joined(counts))), 20, wide, ink, max_lines=2) + 6  # fmt: skip
    if any(t in DEATH_NAMES for t in row):
        y = kit.paragraph(
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
        y = kit.paragraph(
            d,
            (x, y),
            S(msg("Carrier: each hit taken (not blocked) adds 1 plague.")),
            20,
            wide,
            kit.GREEN,
            max_lines=2,
        )
    if cb.get("cultist"):
        y = kit.paragraph(
            d,
            (x, y),
            S(msg("Cultists: a prisoner Marked for Death loses 1 HP more.")),
            20,
            wide,
            kit.VERMILION,
            max_lines=2,
        )
    for who in cb.get("turned", []):
        said = S(msg("The {character} has joined the enemy's row.", character=_short(view, who)))
        y = kit.paragraph(d, (x, y), said, 20, wide, kit.VERMILION, max_lines=2)
    if cb.get("stone"):  # the Living Stone's die, last rolled this combat
        kit.token(d, (x + 14, y + 14), 14, "hexagon", kit.GREEN, "LS")
        said = S(msg("The Living Stone: {face}", face=STONE[cb["stone"]]))
        y = kit.paragraph(d, (x + 38, y + 2), said, 20, wide - 38, ink, max_lines=2) + 8
    for special in cb["specials"]:
        said = S(msg("Special: {special}", special=special))
        y = kit.paragraph(d, (x, y), said, 20, wide, ink, max_lines=3)
    return y + 8


def _char_lines(char: dict, few: bool, language: str = DEFAULT) -> list[tuple[str, tuple, int]]:
    """The lines under a prisoner's hit points: (text, colour, most lines it may take)."""

    def S(value) -> str:
        return say(value, language)

    held = [msg("{item} (2H)", item=i["name"]) if i["hands"] == 2 else i["name"] for i in char["items"]]  # fmt: skip
    items = joined(held) if held else in_context("items", "none")
    lines = [(S(msg("Items: {items}", items=items)), kit.INK, 3 if few else 2)]
    if char.get("stored"):
        packed = joined([i["name"] for i in char["stored"]])
        lines.append((S(msg("In the knapsack: {items}", items=packed)), kit.DARK, 2))
    if char.get("flaw"):
        if char["flaw"]["used"]:
            lines.append((S(msg("Flaw: {flaw} (used)", flaw=char["flaw"]["name"])), kit.DARK, 1))
        else:
            lines.append((S(msg("Flaw: {flaw}", flaw=char["flaw"]["name"])), kit.DARK, 1))
    if char.get("companion"):
        said = msg("Special (S): {special}", special=char["companion"]["special"])
        lines.append((S(said), kit.PURPLE, 2))
    if char.get("curses"):
        cursed = joined([c["name"] for c in char["curses"]])
        lines.append((S(msg("Curses: {curses}", curses=cursed)), kit.VERMILION, 2))
    return lines


def _box_height(view: dict, language: str = DEFAULT) -> int:
    """A prisoner's box: taller when someone's items, knapsack, flaw and curses need it, so
    no line is cut off or runs over the box below."""
    chars = view["chars"]
    few = len(chars) <= 2
    need = 0
    for char in chars:
        rows = sum(
            min(len(kit.wrap(text, 18, 330)), most)
            for text, _, most in _char_lines(char, few, language)
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


def _tags(view: dict, char: dict) -> list[Msg]:
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


def _party(d: ImageDraw.ImageDraw, view: dict, language: str = DEFAULT) -> None:
    def S(value) -> str:
        return say(value, language)

    chars = view["chars"]
    hp0 = view["hp_start"]
    box_h = _box_height(view, language)
    y = HEADER + 16
    acting = set(view["to_act"])
    for char in chars:
        x = PARTY_X
        comp = char.get("companion")
        hl = char["seat"] in acting and not comp  # a companion: anyone acts for it
        d.rounded_rectangle((x, y, WIDTH - 20, y + box_h - 10), 14,
                            fill=kit.HIGHLIGHT if hl else kit.PANEL,
                            outline=kit.PURPLE if comp else kit.INK, width=5 if comp else 2)  # fmt: skip
        d.rounded_rectangle(
            (x + 8, y + 12, x + 44, y + 40), 6, fill=kit.PURPLE if comp else kit.NIGHT
        )
        if comp:
            badge, size = _fitted(S(msg("ALLY")), 12, 34, smallest=8)
        else:
            badge, size = f"P{char['seat'] + 1}", 18
        kit.text(d, (x + 26, y + 26), badge, size, kit.WHITE, "mm")
        title = S(char["title"] or msg("(choosing)"))
        tags = [S(tag) for tag in _tags(view, char)]
        # The tags take at most half the line; the title and player's name take what the
        # tags leave of it; a long name is cut, never the title (it says which prisoner).
        line = WIDTH - 34 - (x + 54)
        tagged = kit.fit(" / ".join(tags), 20, line // 2) if tags else ""
        if tags:
            kit.text(d, (WIDTH - 34, y + 26), tagged, 20, kit.VERMILION, "rm")
        room = line - (kit.text_width(tagged, 20) + 14 if tags else 0)
        head = f"{title} - "
        name = kit.isolate(kit.fit(S(char["player"]), 24, room - kit.text_width(head, 24)))
        kit.text(d, (x + 54, y + 26), kit.fit(head + name, 24, room), 24, kit.INK, "lm")
        # Hit points: a bar and the number.
        bar = (x + 14, y + 50, x + (196 if comp else 250), y + 74)  # a companion: room for S
        d.rectangle(bar, fill=kit.WHITE, outline=kit.INK, width=2)
        top = char.get("hp_max") or hp0  # a companion has its own start
        if top:
            fill = bar[0] + (bar[2] - bar[0]) * max(0, char["hp"]) / top
            colour = kit.GREEN if char["hp"] * 3 > top else kit.VERMILION
            d.rectangle(
                (bar[0] + 2, bar[1] + 2, max(bar[0] + 2, fill - 2), bar[3] - 2), fill=colour
            )
        tx, step = (x + 318, 54) if comp else (x + 376, 58)
        hp, size = _fitted(S(msg("{hp}/{top} HP", hp=char["hp"], top=top)), 22, tx - 20 - (bar[2] + 12), smallest=14)  # fmt: skip
        kit.text(d, (bar[2] + 12, y + 62), hp, size, kit.INK, "lm")
        # Die traits as shapes with counts.
        for t in ("m", "c", "w"):
            _symbol(d, tx, y + 62, 15, t, language)
            kit.text(d, (tx + 20, y + 62), str(char["traits"].get(t, 0)), 22, kit.INK, "lm")
            tx += step
        if comp:  # and its special face
            _symbol(d, tx, y + 62, 15, "x", language)
            kit.text(d, (tx + 20, y + 62), "1", 22, kit.INK, "lm")
        # Items, the knapsack, the flaw, a companion's special and the curses; the last roll.
        iy = y + 88
        for text, colour, most in _char_lines(char, len(chars) <= 2, language):
            iy = kit.paragraph(d, (x + 14, iy), text, 18, 330, colour, max_lines=most)
        if char.get("plague"):
            _plague_tally(d, x + 376, y + 122, char, language)
        if char["roll"]:
            roll, size = _fitted(S(msg("Roll:")), 18, 62, smallest=12)
            kit.text(d, (x + 414, y + 98), roll, size, kit.INK, "rm")
            _face(d, x + 420, y + 98, 16, char["roll"], language)
        y += box_h


def _plague_tally(d: ImageDraw.ImageDraw, x: int, y: int, char: dict, language: str) -> None:
    """Plague as tally marks (groups of five), with the next threshold and its HP cost."""
    n = char["plague"]
    for i in range(min(n, 15)):
        group, mark = divmod(i, 5)
        gx = x + group * 44
        if mark < 4:
            d.line((gx + mark * 8, y, gx + mark * 8, y + 18), fill=kit.GREEN, width=3)
        else:
            d.line((gx - 4, y + 14, gx + 28, y + 4), fill=kit.GREEN, width=3)
    nxt = char.get("next_threshold")
    if nxt:
        label = msg("plague {n}, at {at}: -{hp} HP", n=n, at=nxt[0], hp=nxt[1])
    else:
        label = msg("plague {n}", n=n)
    said, size = _fitted(say(label, language), 16, WIDTH - 30 - x, smallest=11)
    kit.text(d, (x, y + 30), said, size, kit.DARK, "lm")


def draw(view: dict, language: str = DEFAULT) -> Image.Image:
    return kit.caption_bar(board(view, language), caption(view, language))


def board(view: dict, language: str = DEFAULT) -> Image.Image:
    """The picture without its caption (a replay writes its own under each board). A card
    whose words run longer than the board (a long language) makes it taller: drawn again."""
    chars = view["chars"]
    height = max(700, HEADER + 40 + _box_height(view, language) * len(chars))
    img, bottom = _board(view, language, height)
    if bottom + 40 > height:
        img, _ = _board(view, language, bottom + 40)
    return img


def _board(view: dict, language: str, height: int) -> tuple[Image.Image, int]:
    img, d = kit.canvas(height, WIDTH)
    d.rectangle((0, 0, WIDTH, HEADER), fill=kit.NIGHT)
    _progress(img, view, language)
    bottom = _card(d, view, height, language=language)
    _party(d, view, language)
    return img, bottom


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
    _, scratch = kit.canvas(height, WIDTH)
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
        notes.append(((rx - 12, ry - 30), msg("A fight: the enemy's row of dice. Each fighter's die is rolled; a matching symbol removes a die of the row (a double removes two and blocks). An empty row beats the enemy; otherwise it strikes every fighter for its ATK.")))  # fmt: skip
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
