"""Dark Castle's pack mechanics in the picture: curses, plague tallies, the knapsack, flaws
and the epilogue are in the view, drawn in the party's column or on the card, and told in the
alt text; a prisoner's box grows until every line of theirs fits."""

from __future__ import annotations

import io

from PIL import Image

import render
from render import dark_castle as dark_castle_render
from render import dark_castle_party, lettering, palette
from render.dark_castle_words import tail
from tests.engines.dark_castle.test_dark_castle_helpers import G, edit, set_char, started

EVERY_PACK = {"cult": "on", "plague": "on", "collector": "on"}
PARTY_COLUMN = (
    dark_castle_render.PARTY_X,
    dark_castle_render.HEADER,
    dark_castle_render.WIDTH,
    None,
)  # the prisoners' boxes, to the bottom
CARD_COLUMN = (
    dark_castle_render.CARD_X,
    dark_castle_render.HEADER,
    dark_castle_render.CARD_X + dark_castle_render.CARD_W,
    None,
)


def party(n: int = 2):
    picks = ("smith", "tailor", "ratcatcher", "herbalist")[:n]
    return started(picks, options=EVERY_PACK)


def picture(state) -> Image.Image:
    return Image.open(io.BytesIO(render.board_png("dark_castle", G.view(state, None))))


def inked(image: Image.Image, region: tuple, colour: tuple) -> int:
    """How many pixels of exactly `colour` the region holds (the picture is palette-mode: the
    palette's colours are drawn exactly)."""
    left, top, right, bottom = region
    crop = image.convert("RGB").crop((left, top, right, bottom or image.height))
    return sum(n for n, rgb in crop.getcolors(1 << 20) if rgb == colour)


def test_a_curse_is_drawn_beside_its_prisoner_and_told():
    """Cult of the Death Knight: "curses sit beside the character"; Marked for Death shown."""
    clean = party()
    cursed = set_char(clean, "smith", curses=["marked", "leech"])
    view = G.view(cursed, None)
    smith = view["chars"][0]
    assert [c["name"] for c in smith["curses"]] == ["Marked for Death", "The Leech Sigil"]
    assert smith["marked"]
    assert inked(picture(cursed), PARTY_COLUMN, palette.VERMILION) > inked(
        picture(clean), PARTY_COLUMN, palette.VERMILION
    ), "the curses' line (and the MARKED tag) are drawn in the party's column"
    assert "cursed: Marked for Death, The Leech Sigil" in render.describe("dark_castle", view)


def test_plague_tallies_grow_with_the_plague():
    """Blight of the Plague Lord: plague counted per prisoner, with the next threshold."""
    counts = []
    for plague in (0, 2, 7, 13):
        state = set_char(party(), "tailor", plague=plague)
        view = G.view(state, None)
        assert view["chars"][1]["plague"] == plague
        counts.append(inked(picture(state), PARTY_COLUMN, palette.GREEN))
        if plague:
            assert f"plague {plague}" in render.describe("dark_castle", view)
    assert counts == sorted(counts) and len(set(counts)) == 4, "more plague, more tally marks"
    assert G.view(set_char(party(), "tailor", plague=7), None)["chars"][1]["next_threshold"] == [
        9,
        3,
    ]


def test_the_knapsack_and_what_is_in_it_are_drawn():
    """Blight of the Plague Lord: the knapsack stores two more items, shown apart."""
    carrying = set_char(party(), "smith", items=["knapsack"])
    packed = set_char(carrying, "smith", stored=["vinegar", "theriac"])
    view = G.view(packed, None)
    assert [i["name"] for i in view["chars"][0]["stored"]] == ["Vinegar Sponge", "Theriac"]
    assert inked(picture(packed), PARTY_COLUMN, palette.DARK) > inked(
        picture(carrying), PARTY_COLUMN, palette.DARK
    )
    assert "in the knapsack: Vinegar Sponge, Theriac" in render.describe("dark_castle", view)


def test_a_flaw_is_drawn_and_marked_once_used():
    """Collector's Box: flaws dealt onto the characters, one use each."""
    state = party()
    flaw = G.view(state, None)["chars"][0]["flaw"]
    assert flaw and not flaw["used"]
    used = set_char(state, "smith", flaw_used=True)
    assert G.view(used, None)["chars"][0]["flaw"]["used"]
    assert picture(used).tobytes() != picture(state).tobytes()
    assert f"flaw {flaw['name']} (used)" in render.describe("dark_castle", G.view(used, None))


def test_the_epilogue_is_drawn_on_the_final_card():
    """Collector's Box: "victory and defeat epilogues read at the end"."""
    for outcome in ("won", "lost"):
        with_box = edit(party(), outcome=outcome)
        without = edit(started(), outcome=outcome)
        view = G.view(with_box, None)
        assert view["epilogue"] and not G.view(without, None)["epilogue"]
        assert inked(picture(with_box), CARD_COLUMN, palette.VERMILION) > inked(
            picture(without), CARD_COLUMN, palette.VERMILION
        ), "the EPILOGUE heading is drawn on the card"
        assert "Epilogue: " + view["epilogue"] in render.describe("dark_castle", view)


def test_a_full_box_grows_rather_than_cut_its_lines():
    """Items, a packed knapsack, a flaw and two curses in a party of four: the boxes grow so
    that no line is cut short or runs over the next prisoner's box."""
    plain = party(4)
    loaded = set_char(
        plain,
        "smith",
        items=["knapsack"],
        stored=["vinegar", "theriac"],
        curses=["marked", "leech"],
    )
    view = G.view(loaded, None)
    lines = dark_castle_party.char_lines(view["chars"][0], few=False)
    rows = sum(min(len(lettering.wrap(text, 18, 330)), most) for text, _, most in lines)
    assert rows >= 5 and dark_castle_party.box_height(view) >= 88 + rows * dark_castle_party.LINE
    assert picture(loaded).height > picture(plain).height
    assert not any(text.endswith("…") for text, _, _ in lines)


def test_the_caption_starts_at_a_whole_sentence():
    """A long move's story is cut to its end for the caption, never mid-word."""
    story = "The Last Chain is defeated! " * 3 + "The boss falls. " + "x" * 280
    assert tail(story, 300).startswith("The boss falls.")
    assert tail("word " * 100, 300).startswith("… word")
    assert tail("short", 300) == "short"


def test_the_ending_alt_text_tells_the_ending_not_the_fight():
    """Issue 16: "the end picture shows the ending"; its alt text likewise drops the combat
    the party died in (the picture draws the banner where the enemy stood)."""
    from tests.render.test_dark_castle_render import _combat_view

    view = _combat_view()
    assert "Combat with" in render.describe("dark_castle", view)
    ended = dict(view, outcome="lost", ending="The prisoners did not escape.")
    text = render.describe("dark_castle", ended)
    assert "The prisoners did not escape." in text and "Combat with" not in text


def test_the_flaws_dealt_are_drawn_and_told_while_choosing():
    """Collector's Box: flaws "dealt onto the characters before choosing": whoever cannot see
    the picture learns them from the alt text too, each with what it does."""
    from engines import CHANCE

    s = G.setup(["Ann", "Bob"], EVERY_PACK)
    while G.to_act(s) == [CHANCE]:
        s, _ = G.apply(s, CHANCE, G.chance_outcomes(s)[0][0])
    view = G.view(s, None)
    assert len(view["flaws"]) == 9
    text = render.describe("dark_castle", view)
    for who, flaw in view["flaws"].items():
        assert f"{who.title()}: {flaw['name']} ({flaw['text'].rstrip('.')})" in text
    chosen = dict(view, flaws={})
    assert inked(picture_of(view), CARD_COLUMN, palette.VERMILION) > inked(
        picture_of(chosen), CARD_COLUMN, palette.VERMILION
    ), "the FLAWS DEALT heading is drawn on the card"


def picture_of(view: dict) -> Image.Image:
    return Image.open(io.BytesIO(render.board_png("dark_castle", view)))


def test_death_dice_shields_and_split_faces_are_drawn_and_told():
    """Collector's Box: death dice "rolled instead of chapter dice", their shields and split
    faces stay in the enemy's row until removed: drawn as dark dice, explained, named."""
    from tests.render.test_dark_castle_render import _combat_view

    plain = _combat_view()
    row = list(plain["combat"]["row"])
    death = dict(plain, combat=dict(plain["combat"], row=[*row, "s", "mc"], death=["s", "mc"]))
    text = render.describe("dark_castle", death)
    assert "Shield" in text and "Might+Cunning" in text
    assert inked(picture_of(death), CARD_COLUMN, palette.INK) > inked(
        picture_of(plain), CARD_COLUMN, palette.INK
    ), "the death dice are drawn in the enemy's row (dark dice) with their explanation"


def test_the_living_stone_face_is_drawn_and_told():
    """Collector's Box: the Living Stone relic "with its die": its last face in the combat."""
    from tests.render.test_dark_castle_render import _combat_view

    plain = _combat_view()
    woken = dict(plain, combat=dict(plain["combat"], stone="mend"))
    assert "The Living Stone last showed: mend" in render.describe("dark_castle", woken)
    assert inked(picture_of(woken), CARD_COLUMN, palette.GREEN) > inked(
        picture_of(plain), CARD_COLUMN, palette.GREEN
    ), "the stone's token and face are drawn under the row"


def test_a_companion_gets_a_box_of_its_own_in_the_party():
    """Scourge of the Undead Queen: a companion with "their own dice, HP, characteristic and
    combat special" joins the party's column (a fifth box beside four prisoners), told once
    in the alt text, each sentence ending once."""
    from tests.engines.dark_castle.test_dark_castle_undead import with_companion

    plain = started(("smith", "tailor", "abbot", "miller"), options={"undead": "on"})
    joined = with_companion(plain, "novice")
    view = G.view(joined, None)
    (novice,) = [c for c in view["chars"] if c.get("companion")]
    assert novice["hp"] == 5 and novice["companion"]["special"].startswith("Grave Chill")
    assert picture(joined).height > picture(plain).height
    assert inked(picture(joined), PARTY_COLUMN, palette.PURPLE) > inked(
        picture(plain), PARTY_COLUMN, palette.PURPLE
    ), "the companion's box, badge and special are drawn in purple"
    text = render.describe("dark_castle", view)
    assert "The Grey Novice (any player): 5 of 5 HP" in text and ".." not in text


def test_the_card_log_shows_whole_entries_only():
    """The story under a card starts at an entry's start, never in the middle of one (a long
    companion's arrival used to show from "the party (6 HP; ...")."""
    log = ["The Kennel Hound joins the party. " * 4, "Combat!", "The dice roll."]
    long_lines = len(lettering.wrap(log[0], 17, dark_castle_render.CARD_W - 60))
    assert long_lines > 1
    assert dark_castle_render._log_lines(log, 2) == ["Combat!", "The dice roll."]
    assert dark_castle_render._log_lines(log, 2 + long_lines) == [
        *lettering.wrap(log[0], 17, dark_castle_render.CARD_W - 60),
        "Combat!",
        "The dice roll.",
    ]
    assert (
        dark_castle_render._log_lines(["A very long line of the story. " * 8], 1)
        == lettering.wrap(
            "A very long line of the story. " * 8, 17, dark_castle_render.CARD_W - 60
        )[-1:]
    )
    assert dark_castle_render._log_lines(log, 0) == []
