"""Hidden Castle, Haunted House, Castle Doors and 18 Ghosts said in German and in the
pseudo-language, through the engine and the renderer (issue 26).

A whole game of each is played at a German table: every event (public and private), every
button, every refusal, the result, the rules, the options, the captions and alt text of the
boards and of the rules picture are read for English left (tests/german_words.py: a word
the English catalogue says and no German translation does), names and typed moves allowed.
Random games in the pseudo-language then show any text that escaped translation: said
from a message, every word of it is accented; a plain English string is not.
"""

from __future__ import annotations

import random
import re

import pytest

import render
from engines import CHANCE, REGISTRY, IllegalAction
from engines.playout import pick_chance
from engines.text import Msg
from languages import say
from tests.german_words import english_left

GAMES = ("hidden_castle", "haunted_house", "castle_doors", "ghosts18")
NAMES = ["Ann", "Bob", "Cy", "Dee"]
WRONG = (
    "move z",
    "hide a 5",
    "place 99",
    "play ghost",
    "ghost p9",
    "cat 3",
    "light 3",
    "release red",
    "jump a1 a2",
    "target z9",
    "enter a9",
    "play key blue",
    "stay",
)


def texts_of_a_game(game_id: str, players: int, seed: int, language: str, options=None):
    """Everything a table reads in one whole seeded game, said in `language`: (where, text),
    and the words of the moves typed in it (a refusal lists the moves allowed as typed)."""
    game = REGISTRY[game_id]
    rng = random.Random(seed)
    state = game.setup(NAMES[:players], options or {})
    said: list[tuple[str, str]] = []
    typed = {w for move in WRONG for w in move.split()}

    def board(where: str) -> None:
        for seat in (None, *range(players)):
            view = game.view(state, seat)
            said.append((f"{where} alt {seat}", render.describe(game_id, view, language)))
        view = game.view(state, None)
        for line in render.in_language(render.renderer(game_id).caption, view, language=language):
            said.append((f"{where} caption", line))

    board("start")
    for step in range(4000):
        acting = game.to_act(state)
        if not acting:
            break
        if acting == [CHANCE]:
            seat, action = CHANCE, pick_chance(game.chance_outcomes(state), rng.random())
        else:
            seat = acting[int(rng.random() * len(acting))]
            legal = game.legal_actions(state, seat)
            typed |= {w for a in legal for w in a.split()}
            for a in legal:
                said.append((f"button {a}", say(game.label(state, a), language)))
            for wrong in WRONG:
                if wrong not in legal:
                    try:
                        game.apply(state, seat, wrong)
                    except IllegalAction as refused:
                        said.append((f"refusal {wrong}", say(refused.msg, language)))
            action = legal[int(rng.random() * len(legal))]
        state, events = game.apply(state, seat, action)
        said += [(f"event {action}", say(e.text, language)) for e in events]
        if step % 7 == 0:
            board(f"step {step}")
    board("end")
    result = game.result(state)
    if result is not None:
        said.append(("result", say(result.summary, language)))
    return said, typed


def texts_of_the_rules(game_id: str, language: str) -> list[tuple[str, str]]:
    game = REGISTRY[game_id]
    said = [
        ("title", say(Msg(game.title), language)),
        ("summary", say(Msg(game.summary), language)),
    ]
    said += [("rules", say(Msg(p), language)) for p in game.rules_paragraphs()]
    for name, option in game.options.items():
        said.append((f"option {name}", say(Msg(option.description), language)))
        said += [(f"option {name}", say(Msg(label), language)) for label in option.labels.values()]
    said.append(("rules picture", render.describe_rules(game_id, language)))
    return said


CARD_IDS = {"skeleton", "padlock", "passage", "hacksaw", "green"}  # `play key green`
# Typed moves and option values stay as they are in every language (`move up`, `variant=short`).
TYPED = {
    "move",
    "place",
    "hide",
    "stay",
    "jump",
    "release",
    "play",
    "done",
    "cancel",
    "pass",
    "ghost",
    "cat",
    "light",
    "with",
    "discard",
    "bulb",
    "food",
    "elevator",
    "lightning",
    "hole",
    "wild",
    "target",
    "back",
    "enter",
    "exit",
    "key",
    "net",
    "red",
    "blue",
    "yellow",
    "left",
    "right",
    "variant",
    "short",
    "specials",
    "off",
    "standard",
    "midnight_party",
    "midnight",
    "party",
    "room1b2",
    "room3b3",
}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_in_german_leaves_no_english(game_id):
    game = REGISTRY[game_id]
    players = min(3, game.max_players)
    said, typed = texts_of_a_game(game_id, players, seed=2, language="de")
    assert said[-1][0] == "result", "the game did not end"
    if game_id == "hidden_castle":
        more, also = texts_of_a_game(game_id, 3, 4, "de", {"variant": "midnight_party"})
        said, typed = said + more, typed | also
    said += texts_of_the_rules(game_id, "de")
    allowed = {n.lower() for n in NAMES}
    found = []
    for where, text in said:
        if where.startswith("refusal"):  # the moves allowed, as typed
            words = english_left(text, allowed | TYPED | typed | CARD_IDS)
        elif where.startswith(("rules", "option")):
            words = english_left(text, allowed | TYPED)
        else:
            words = english_left(text, allowed)
        if words:
            found.append(f"{where}: {words} in {text[:120]!r}")
    assert len(said) > 200
    assert not found, "\n".join(list(dict.fromkeys(found))[:20])


SQUARE = re.compile(r"[a-h][0-9]+")  # a1, e8: squares are named alike in every language
UNACCENTED = re.compile(r"[A-Za-z0-9_]*[aeiouAEIOU][A-Za-z0-9_]*")


def strays(text: str, allowed: set[str]) -> list[str]:
    """Words of plain English in a pseudo-language text: the pseudo-language accents every
    vowel of a text it says, so a word with a plain vowel was never a message (names, the
    numbers and squares aside)."""
    return [
        w
        for w in UNACCENTED.findall(text)
        if len(w) > 1 and w not in allowed and not SQUARE.fullmatch(w)
    ]


@pytest.mark.parametrize("game_id", GAMES)
def test_random_games_in_the_pseudo_language_show_no_untranslated_text(game_id):
    game = REGISTRY[game_id]
    found = []
    for players in sorted({game.min_players, game.max_players}):
        for seed in (1, 2):
            said, typed = texts_of_a_game(game_id, players, seed, "qps")
            for where, text in said:
                if not text.startswith("["):
                    found.append(f"{where}: not a message: {text[:80]!r}")
                typing = typed | CARD_IDS if where.startswith("refusal") else set()
                left = strays(text, set(NAMES) | typing)
                if left:
                    found.append(f"{where}: {left} in {text[:120]!r}")
    for where, text in texts_of_the_rules(game_id, "qps"):
        left = strays(text, set(NAMES) | {"variant", "midnight_party", "specials", "off", "on"})
        if left:
            found.append(f"{where}: {left} in {text[:120]!r}")
    assert not found, "\n".join(list(dict.fromkeys(found))[:20])


@pytest.mark.parametrize("game_id", GAMES)
def test_a_saved_game_keeps_messages_and_an_old_one_still_reads(game_id):
    """The state stores what happened last as message ids and arguments (JSON), so a game
    saved in one language reads in another; a state saved before messages, with plain
    English, still loads and is shown as it was."""
    import json

    from engines.playout import play

    game = REGISTRY[game_id]
    run = play(game, 2, {}, seed=3, max_steps=60)
    state = game.setup(NAMES[:2], {})
    for seat, action in run.log:
        state, _ = game.apply(state, seat, action)
    stored = json.loads(json.dumps(game.dump(state)))
    assert "$msg" in json.dumps(stored)
    again = game.load(stored)
    english = render.describe(game_id, game.view(again, None), "en")
    german = render.describe(game_id, game.view(again, None), "de")
    assert english == render.describe(game_id, game.view(state, None), "en") and german != english
    old = dict(stored)
    for key in ("last", "last_move", "last_roll"):
        if key in old:
            old[key] = "Ann did something long ago."
    if "recent" in old:
        old["recent"] = ["Ann did something long ago."]
    view = game.view(game.load(old), None)
    assert "Ann did something long ago." in render.describe(game_id, view, "de")
    render.board_png(game_id, view, language="de")
