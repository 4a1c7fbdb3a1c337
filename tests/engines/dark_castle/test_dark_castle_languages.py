"""Dark Castle in every language (issue 26): whole seeded games said in German and in the
pseudo-language "qps", where a text that escaped translation stays plain English.

What a player reads is checked everywhere it appears: the events, the buttons (`label`), the
prompts, the refusals, the result, the rules text, the picture's alt text and caption."""

from __future__ import annotations

import random
import re

import pytest
from babel.messages.pofile import read_po

import render
from engines import CHANCE, REGISTRY
from engines.contract import IllegalAction
from engines.dark_castle import cards
from languages import say, watched
from languages.catalogues import Catalogues
from render import dark_castle as dark_castle_render

G = REGISTRY["dark_castle"]
NAMES = ["Ann", "Bob", "Cy"]
EVERY_PACK = {"cult": "on", "plague": "on", "undead": "on", "collector": "on"}
# Words a reader may meet untranslated: the players' names, and the ids typed in a command
# ("take salve cook", "cast bolt"), which are the same in every language.
IDS = {*NAMES, *cards.CHARACTERS, *cards.TOOLS, *cards.SPELLS, "HP", "fly", "away"}
# The commands' verbs, typed as they are ("take", "cast", "hit all"), and the dice's ids.
VERBS = {
    "pick",
    "turn",
    "take",
    "drop",
    "use",
    "done",
    "choose",
    "send",
    "pass",
    "discard",
    "fight",
    "rest",
    "hit",
    "all",
    "draw",
    "give",
    "drink",
    "stop",
    "rite",
    "cast",
    "roll",
    "stow",
    "unstow",
    "crush",
    "mc",
    "mw",
    "cw",
    "s",
    "m",
    "c",
    "w",
}
IDS |= VERBS
# What the pseudo-language never touches: a word without any of the letters it accents.
ACCENTABLE = re.compile(r"[aeiouycnszAEIOUYCNSZ]")


def playout(seed: int, players: int, options: dict, every: int = 1):
    """A seeded random game: yields (state, events of the last move) every `every` moves,
    and the final state."""
    rng = random.Random(seed)
    s = G.setup(NAMES[:players], options)
    events: list = []
    for n in range(4000):
        acting = G.to_act(s)
        if not acting:
            break
        if n % every == 0:
            yield s, events
        if acting == [CHANCE]:
            outcomes = G.chance_outcomes(s)
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            s, events = G.apply(s, CHANCE, action)
        else:
            seat = acting[0]
            s, events = G.apply(s, seat, rng.choice(G.legal_actions(s, seat)))
    yield s, events


def read(s, events, language: str) -> list[str]:
    """Everything a player reads at this moment, said in `language`."""
    out = [say(e.text, language) for e in events]
    view = G.view(s, None)
    out.append(render.describe("dark_castle", view, language))
    out += dark_castle_render.caption(view, language)
    acting = G.to_act(s)
    for seat in acting if acting != [CHANCE] else []:
        out += [say(G.label(s, a), language) for a in G.legal_actions(s, seat)]
        for wrong in (
            "take lantern abbot",
            "use salve",
            "rest smith",
            "give cook 1",
            "cast bolt",
            "rite cook",
            "fly away",
        ):
            # Dark Castle's own refusals; the contract's general one ("... is not allowed
            # now. You may: ...") is the shared catalogue's, checked in qps only.
            own = G.explain_illegal(s, seat, wrong)
            if own is not None:
                out.append(say(own, language))
            elif language == "qps":
                try:
                    G.check(s, seat, wrong)
                except IllegalAction as refused:
                    out.append(say(refused.msg, language))
    result = G.result(s)
    if result is not None:
        out.append(say(result.summary, language))
    return out


def escaped(text: str) -> list[str]:
    return [w for w in re.findall(r"[A-Za-z]+", text) if ACCENTABLE.search(w) and w not in IDS]


@pytest.mark.parametrize(
    ("seed", "players", "options"),
    [(1, 2, {}), (2, 1, {}), (3, 3, EVERY_PACK), (4, 2, {**EVERY_PACK, "castle": "pack"})],
)
def test_qps_marks_everything_a_player_reads(seed, players, options):
    """A string left plain English in "qps" escaped translation: none may, over whole games."""
    for s, events in playout(seed, players, options):
        for text in read(s, events, "qps"):
            assert not escaped(text), (escaped(text), text)


def test_every_text_said_is_in_the_catalogue_template():
    """A card text shown but never listed by `texts()` could never be translated."""
    with Catalogues().folder.joinpath("escape.pot").open("rb") as f:
        template = {
            (m.id if isinstance(m.id, str) else m.id[0], m.context) for m in read_po(f) if m.id
        }
    with watched() as seen:
        for seed, players, options in ((8, 2, {}), (9, 4, EVERY_PACK)):
            for s, events in playout(seed, players, options, every=3):
                read(s, events, "qps")
    unknown = [
        (text, context)
        for text, _plural, context in seen
        if (text, context) not in template
        and any(ch.isalpha() for ch in re.sub(r"\{[^}]*\}", "", text))
    ]
    assert len(seen) > 200 and not unknown, unknown[:10]


def _german() -> set:
    """The (id, context) pairs the German catalogue translates."""
    with Catalogues().folder.joinpath("de.po").open("rb") as f:
        catalogue = read_po(f, locale="de")
    done = set()
    for m in catalogue:
        if m.id and (all(m.string) if isinstance(m.string, tuple) else m.string):
            done.add((m.id if isinstance(m.id, str) else m.id[0], m.context))
    return done


# English words no German sentence of ours holds (names aside).
ENGLISH = {
    "the",
    "and",
    "you",
    "with",
    "of",
    "is",
    "are",
    "to",
    "from",
    "rolls",
    "loses",
    "gains",
    "chapter",
    "item",
    "items",
    "turns",
    "draws",
    "takes",
    "fails",
    "succeeds",
    "combat",
    "round",
    "attack",
    "row",
    "plague",
    "curse",
    "choose",
    "nothing",
    "left",
    "before",
    "boss",
    "each",
    "prisoner",
    "everyone",
    "double",
    "dice",
    "hits",
}


@pytest.mark.parametrize(("seed", "players", "options"), [(5, 2, {}), (6, 3, EVERY_PACK)])
def test_a_whole_game_in_german_leaves_no_english(seed, players, options):
    """Every message said over a whole seeded game has its German, and no English word is
    left in what a player reads (the ids typed in commands and the names aside)."""
    german = _german()
    with watched() as seen:
        for s, events in playout(seed, players, options):
            for text in read(s, events, "de"):
                words = {w.lower() for w in re.findall(r"[A-Za-z]+", text)} - {
                    i.lower() for i in IDS
                }
                assert not words & ENGLISH, (words & ENGLISH, text)
    missing = [
        text
        for text, _plural, context in seen
        if any(ch.isalpha() for ch in re.sub(r"\{[^}]*\}", "", text))
        and (text, context) not in german
    ]
    assert not missing, missing[:20]


def test_the_rules_text_and_every_card_are_in_german():
    german = _german()
    missing = [
        t
        for t in G.texts()
        if (t if isinstance(t, str) else t[0], None if isinstance(t, str) else t[1]) not in german
    ]
    assert not missing, missing[:10]


def test_done_comes_after_the_item_choices():
    """Issue 29, item 8: sharing items offers every take first and "Done" last."""
    for s, _ in playout(7, 2, {}):
        if s.pending and s.pending.kind == "share":
            legal = G.legal_actions(s, 0)
            assert legal[-1] == "done" and len(legal) > 1, legal
            return
    pytest.fail("no sharing in the seeded game")


def test_dice_added_to_the_row_read_as_a_list():
    """Issue 29, item 8: "add Might Wisdom" reads "add Might and Wisdom"."""
    from engines.dark_castle import explain

    assert str(explain.dice("mw")) == "Might and Wisdom"
    assert str(explain.dice("mcw")) == "Might, Cunning and Wisdom"
    assert str(explain.traits("mc")) == "Might or Cunning"
    assert say(explain.dice("mw"), "de") == "Kraft und Weisheit"


def _drawn_texts(view: dict, language: str, monkeypatch) -> tuple[list[tuple], int]:
    """Every text the board draws, with its box (left, top, right, bottom) in pixels; and
    the board's height."""
    from render import lettering, palette

    drawn: list[tuple] = []
    original = lettering.text

    def recording(draw, xy, content, size=22, fill=palette.INK, anchor="la", *args, **kw):
        if content:
            left, top, right, bottom = lettering.bbox(content, size, anchor)
            box = (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom)
            drawn.append((draw._image.height, content, box))
        return original(draw, xy, content, size, fill, anchor, *args, **kw)

    monkeypatch.setattr(lettering, "text", recording)
    palette.stamped.cache_clear()  # the header, drawn once and pasted at (0, 0): drawn here again
    dark_castle_render._top.cache_clear()  # the card, likewise
    dark_castle_render._rest.cache_clear()
    height = dark_castle_render.board(view, language).height
    # A board drawn again taller (a long card): only the drawing returned counts.
    return [
        (c, box) for tall, c, box in drawn if tall in (height, dark_castle_render.HEADER)
    ], height


def _views() -> list[dict]:
    """Boards worth measuring: the choosing, chapters with choices, fights, an ending."""
    views = []
    for seed, players, options in ((21, 4, EVERY_PACK), (22, 2, EVERY_PACK), (23, 3, {})):
        for n, (s, _) in enumerate(playout(seed, players, options)):
            if n % 15 == 0 or s.outcome:
                views.append(G.view(s, None))
    return views


@pytest.mark.parametrize("language", ["de", "es", "ru", "qps"])
def test_every_word_on_the_board_fits_its_space(language, monkeypatch):
    """Issues 26 and 37: German, Spanish, Russian and the 40%-longer pseudo-language fit:
    every text stays inside its column (the card, or the party) and no two texts overlap."""
    card = (dark_castle_render.CARD_X, dark_castle_render.CARD_X + dark_castle_render.CARD_W)
    party = (dark_castle_render.PARTY_X, dark_castle_render.WIDTH - 20)
    for view in _views():
        drawn, height = _drawn_texts(view, language, monkeypatch)
        assert len(drawn) > 30
        for content, (left, top, right, bottom) in drawn:
            assert left >= 0 and right <= dark_castle_render.WIDTH and bottom <= height, (
                content,
                left,
                right,
            )
            if top > dark_castle_render.HEADER:
                lo, hi = card if left < dark_castle_render.PARTY_X - 10 else party
                assert lo <= left and right <= hi, (content, left, right, lo, hi)
        for i, (a, box_a) in enumerate(drawn):
            for b, box_b in drawn[i + 1 :]:
                apart = (
                    box_a[2] <= box_b[0] + 1
                    or box_b[2] <= box_a[0] + 1
                    or box_a[3] <= box_b[1] + 1
                    or box_b[3] <= box_a[1] + 1
                )
                assert apart, (a, box_a, b, box_b)


def test_a_saved_game_replays_in_either_language_and_an_old_one_still_reads():
    """The state keeps its log as message ids and arguments (JSON), so a saved game's story
    reads in German as well as English; a game saved before keeps its plain English."""
    import json

    *_, (s, _) = playout(31, 2, {})
    saved = json.loads(json.dumps(G.dump(s)))
    assert all(isinstance(line, dict) and "$msg" in line for line in saved["log"])
    view = G.view(G.load(saved), None)
    english = [say(line, "en") for line in view["log"]]
    german = [say(line, "de") for line in view["log"]]
    assert english == [str(line) for line in view["log"]] and german != english
    old = dict(saved, log=["Ann (Smith) takes the Lantern."], last="Ann (Smith) takes the Lantern.")
    view = G.view(G.load(old), None)
    assert say(view["last"], "de") == "Ann (Smith) takes the Lantern."
    assert render.board_png("dark_castle", view, language="de").startswith(b"\x89PNG")
    assert dark_castle_render.caption(view, "de")[0] == "Ann (Smith) takes the Lantern."
