"""Dark Castle set-up, turning chapters, the co-operative contract, death and victory."""

from __future__ import annotations

import pytest

from engines import CHANCE, IllegalAction
from engines.dark_castle import cards
from engines.dark_castle.game import CASTLE_CHAPTERS
from tests.engines.dark_castle.test_dark_castle_helpers import (
    G,
    act,
    add_card,
    chance,
    char,
    edit,
    open_card,
    options_for,
    set_char,
    started,
)


@pytest.mark.parametrize(("players", "hp"), [(1, 18), (2, 18), (3, 14), (4, 12)])
def test_hit_points_by_party_size(players, hp):
    """Rulebook, Set Health Points: "1 or 2 players: 18HP each / 3 players: 14HP each /
    4 players: 12HP each"."""
    picks = ("smith", "tailor", "abbot", "miller")[: max(2, players)]
    s = started(picks, players=players)
    assert [c.hp for c in s.chars] == [hp] * len(picks)


def test_solo_player_picks_two_characters():
    """Rulebook, Solo Play: "To play a solo game, simply choose any two characters"."""
    s = G.setup(["Solo"], {})
    assert G.to_act(s) == [0]
    s = act(s, "pick cook", 0)
    assert "pick cook" not in G.legal_actions(s, 0)
    assert G.to_act(s) == [0]
    s = act(s, "pick abbot", 0)
    assert [c.who for c in s.chars] == ["cook", "abbot"]
    assert [c.seat for c in s.chars] == [0, 0]
    assert G.to_act(s) == [CHANCE]


def test_each_player_picks_one_character_and_no_two_alike():
    """Rulebook, Choose Characters: "Each player should choose which character they would
    like to play"."""
    s = G.setup(["A", "B", "C"], {})
    assert G.to_act(s) == [0, 1, 2]
    s = act(s, "pick smith", 1)
    assert G.to_act(s) == [0, 2]
    assert "pick smith" not in G.legal_actions(s, 0)
    with pytest.raises(IllegalAction):
        G.apply(s, 1, "pick cook")


def test_start_card_then_any_player_chooses_who_turns():
    """Rulebook, Turn Order: "There is no turn order. Instead, you must decide as a group
    which player will turn each chapter card"."""
    s = started(("smith", "tailor", "abbot"))
    assert s.card in cards.STARTS
    assert G.to_act(s) == [0, 1, 2]
    for seat in range(3):
        assert {"turn smith", "turn tailor", "turn abbot"} <= set(G.legal_actions(s, seat))
    s = act(s, "turn abbot", 2)
    assert G.to_act(s) == [CHANCE]
    with pytest.raises(IllegalAction):  # the first valid action counted; nothing to decide now
        G.apply(s, 0, "turn smith")


def test_you_effects_hit_the_player_who_turned(monkeypatch):
    """Rulebook: "chapters sometimes contain grisly consequences which only apply to the
    player that turned the card. Such consequences are indicated with a bolded YOU"."""
    add_card(monkeypatch, {"do": "damage", "who": "you", "n": 3})
    s = open_card(started(("smith", "tailor", "abbot")), "t_room", who="tailor")
    assert [c.hp for c in s.chars] == [14, 11, 14]
    assert G.view(s, None)["turner"] == "tailor"


def test_solo_you_applies_to_the_chosen_character(monkeypatch):
    """Rulebook, Solo Play: "You must decide which of your two characters is turning each
    chapter card before you turn it. Any you effects ... will apply only to that character"."""
    add_card(monkeypatch, {"do": "damage", "who": "you", "n": 5})
    s = open_card(started(("smith", "tailor"), players=1), "t_room", who="smith")
    assert (char(s, "smith").hp, char(s, "tailor").hp) == (13, 18)


def test_scene_text_is_shown_when_a_chapter_turns():
    """Rulebook: "Read the italic text aloud to the group to set the scene"."""
    s = act(started(), "turn smith")
    s, events = G.apply(s, CHANCE, "chapel")
    assert cards.CHAPTERS["chapel"]["text"] in " ".join(e.text for e in events)
    assert G.view(s, None)["card"]["text"] == cards.CHAPTERS["chapel"]["text"]


def test_chapters_are_drawn_from_the_pool_without_repeats():
    """Rulebook, Create the Castle: "deal 15 face-down to form the castle deck"."""
    s = open_card(started(), "chapel")
    s = act(s, "turn smith")
    outcomes = [o for o, _ in G.chance_outcomes(s)]
    assert "chapel" not in outcomes
    assert len(outcomes) == len(cards.in_sets(cards.CHAPTERS, ["core"])) - 1
    assert abs(sum(p for _, p in G.chance_outcomes(s)) - 1) < 1e-9


def test_after_fifteen_chapters_the_boss_comes():
    """Rulebook: "place 1 face-down underneath the castle deck" - the boss follows the
    15th chapter."""
    s = started()
    s = edit(s, used=sorted(cards.CHAPTERS)[:CASTLE_CHAPTERS])
    assert G.view(s, None)["chapters_left"] == 0
    s = act(s, "turn tailor")
    assert sorted(o for o, _ in G.chance_outcomes(s)) == cards.in_sets(cards.BOSSES, ["core"])


def test_death_ends_the_game_at_once(monkeypatch):
    """Rulebook: "if anyone dies along the way, the game ends immediately"."""
    add_card(
        monkeypatch, {"do": "damage", "who": "you", "n": 20}, {"do": "heal", "who": "all", "n": 5}
    )
    s = open_card(started(("smith", "tailor", "cook")), "t_room", who="cook")
    assert s.outcome == "lost"
    assert G.to_act(s) == []
    assert char(s, "cook").hp == 0 and char(s, "smith").hp == 14  # the heal never came
    result = G.result(s)
    assert result.ranking == [[0, 1, 2]]
    assert "did not escape" in result.summary
    with pytest.raises(IllegalAction):
        G.apply(s, 0, "turn smith")


def test_beating_the_boss_with_everyone_alive_wins():
    """Rulebook: "you all Escape the Dark Castle and win the game together"."""
    s = started()
    s = edit(s, used=sorted(cards.CHAPTERS)[:CASTLE_CHAPTERS])
    s = open_card(s, "b_warden", who="smith")
    while not s.outcome:
        s = _beat_forced(s)
    assert s.outcome == "won"
    result = G.result(s)
    assert result.ranking == [[0, 1]] and result.scores == {0: 1.0, 1: 1.0}
    assert "escaped" in result.summary


def _beat_forced(s):
    """Advance one decision or chance, forcing rolls that hit the row as hard as possible."""
    acting = G.to_act(s)
    if acting == [CHANCE]:
        kind = s.pending.kind
        if kind == "dice":
            return chance(s, "w" * s.pending.n)
        if kind == "roll":
            k = s.pending.char
            row = s.combat.row if s.combat else []
            faces = cards.CHARACTERS[s.chars[k].who]["faces"]
            return chance(s, max(faces, key=lambda f: (sum(row.count(t) for t in set(f)), len(f))))
        return chance(s, G.chance_outcomes(s)[0][0])
    legal = G.legal_actions(s, acting[0])
    for preferred in ("fight", "done", "pass"):
        if preferred in legal:
            return act(s, preferred)
    return act(s, next(a for a in legal if a.startswith("hit")) if s.combat else legal[0])


@pytest.mark.parametrize("boss", sorted(cards.BOSSES))
def test_each_boss_is_fought_phase_by_phase(boss):
    """Bosses (docs/games.md, Dark Castle): several phases, each a row of symbols plus dice per player;
    no item is drawn between phases, and the last phase won is the escape."""
    s = started(options=options_for(cards.BOSSES[boss]["set"]))
    s = edit(s, used=sorted(cards.CHAPTERS)[:CASTLE_CHAPTERS])
    s = open_card(s, boss, who="smith")
    seen = []
    for _ in range(400):
        if s.outcome:
            break
        if s.combat and (not seen or seen[-1] != s.combat.name):
            seen.append(s.combat.name)
        assert (s.pending.kind if s.pending else None) not in ("item", "share")
        s = _beat_forced(s)
    assert s.outcome == "won"
    assert seen == [p["name"] for p in cards.combat_steps(cards.BOSSES[boss])]
    view = G.view(s, None)
    assert view["card"]["kind"] == "boss"


def test_views_are_public_and_complete():
    """Co-operative: everyone sees the same; views name the game, the players, who acts."""
    s = started(("smith", "tailor", "abbot"))
    views = [G.view(s, seat) for seat in (None, 0, 1, 2)]
    for view in views:
        for key in ("game", "names", "to_act", "last", "chars", "chapters_left", "prompt"):
            assert key in view
        assert {k: v for k, v in view.items() if k != "viewer"} == {
            k: v for k, v in views[0].items() if k != "viewer"
        }


def test_timer_defaults_keep_the_game_moving():
    """Engine contract: "default_action ... what a timer applies (pass, or the safest move)"."""
    s = started(("smith", "tailor"))
    s = set_char(s, "smith", hp=5)
    assert G.default_action(s, 0) == "turn tailor"
    s = open_card(s, "turnkey", who="tailor")
    s = chance(s, "mm")
    assert G.default_action(s, 1) == "fight"


@pytest.mark.parametrize("boss", sorted(cards.BOSSES))
def test_each_boss_phase_brings_its_own_special(boss):
    """Rulebook, Combat Specials: "Some enemies have a special combat ability ... Keep combat
    specials in mind"; each of our bosses has three phases, each with its own special."""
    s = started(options=options_for(cards.BOSSES[boss]["set"]))
    s = edit(s, used=sorted(cards.CHAPTERS)[:CASTLE_CHAPTERS])
    s = open_card(s, boss, who="smith")
    phases = cards.combat_steps(cards.BOSSES[boss])
    seen: dict[int, set] = {}
    for _ in range(400):
        if s.outcome:
            break
        cb = G.view(s, None)["combat"]
        if cb and s.pending.kind != "dice":  # the row is complete
            spec = phases[cb["phase"] - 1]
            kinds = {sp["k"] for sp in spec.get("specials", [])}
            assert cb["phases"] == len(phases) and cb["name"] == spec["name"]
            assert cb["specials"] == [cards.describe_special(sp) for sp in spec["specials"]]
            if cb["phase"] not in seen and "ambush" in kinds:
                assert all(c.hp == 18 - spec["specials"][0]["n"] for c in s.chars)
            if s.pending.kind == "rest":
                seen.setdefault(cb["phase"], set()).add("rest")
                assert "no_rest" not in kinds
                assert ("rest smith" in G.legal_actions(s, 0)) == ("focus_you" not in kinds)
            seen.setdefault(cb["phase"], set())
            if s.pending.kind == "attack" and "no_items" in kinds:
                assert not any(a.startswith("use") for a in G.legal_actions(s, 0))
        s = _beat_forced(s)
    assert s.outcome == "won" and sorted(seen) == list(range(1, len(phases) + 1))
    for n, spec in enumerate(phases, 1):
        kinds = {sp["k"] for sp in spec["specials"]}
        assert ("rest" in seen[n]) == ("no_rest" not in kinds), (boss, n)
