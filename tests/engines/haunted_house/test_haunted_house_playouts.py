"""Haunted House over whole random games: the deck's 53 cards are always accounted for, every
reaction window offers `pass` (and a timer passes), and `specials=off` never deals a special.
Each test names the passage of the rulebook (docs/games.md) it checks."""

from __future__ import annotations

from collections import Counter

import pytest

from engines import CHANCE
from engines.haunted_house import cards as C
from engines.haunted_house.game import DEFEND, ESCAPE, HauntedState
from engines.playout import play
from engines.reactions import PASS
from tests.engines.haunted_house.test_haunted_house_helpers import G

RUNS = [
    (players, specials, seed)
    for players in (2, 3, 4)
    for specials in ("on", "off")
    for seed in range(2)
]


def every_card(s: HauntedState) -> Counter:
    """Hands, houses, deck and discard pile, plus the ghost in flight while its target is
    asked whether to answer with a cat."""
    cards: Counter = Counter()
    for hand in s.hands:
        cards.update(hand)
    for house in s.houses:
        for floor in house:
            cards.update(floor.rooms)
            cards["ghost"] += floor.ghosts
            cards["cat"] += floor.cats
    cards.update(s.deck)
    cards.update(s.discard)
    cards["ghost"] += sum(w.kind == DEFEND for w in s.windows)
    return +cards


@pytest.mark.parametrize(("players", "specials", "seed"), RUNS)
def test_every_card_stays_in_play_and_every_window_can_be_passed(players, specials, seed):
    """'There are 46 basic cards ... There are 7 special cards' (no card is lost or made up by
    refills, reshuffles, ghosts or cats) and 'a cat or ghost may be played out of turn': every
    such window offers `pass`, which is also what a timer plays."""
    run = play(G, players, {"specials": specials}, seed, max_steps=3000, keep_states=True)
    assert run.finished and G.result(run.states[-1]).ranking[0] == [run.states[-1].winner]
    full = C.full_deck(specials == "on")
    assert sum(full.values()) == (53 if specials == "on" else 46)
    windows = 0
    for s in run.states:
        assert every_card(s) == Counter(full)
        assert all(len(hand) <= 3 for hand in s.hands)
        if not s.windows or G.to_act(s) == [CHANCE]:
            continue
        windows += 1
        window = s.windows[-1]
        if window.kind == DEFEND:
            assert window.seats == [window.data["target"]]
        else:
            assert window.kind == ESCAPE
            escaper = window.data["escaper"]
            assert window.seats == [(escaper + k) % players for k in range(1, players)]
        for seat in G.to_act(s):
            legal = G.legal_actions(s, seat)
            assert legal[-1] == PASS
            assert G.default_action(s, seat) == PASS
            assert G.view(s, None)["window"]["kind"] == window.kind
    assert windows > 0


def test_specials_off_never_deals_a_special_card():
    """'There are 7 special cards' (left out by option specials=off for a first game)."""
    for seed in range(3):
        run = play(G, 3, {"specials": "off"}, seed, max_steps=3000, keep_states=True)
        for s in run.states:
            assert not set(every_card(s)) & set(C.SPECIALS)
            assert not {o for o, _ in G.chance_outcomes(s)} & set(C.SPECIALS)
        played = {action.split()[0] for seat, action in run.log if seat != CHANCE}
        assert not played & {"hole", "bulb", "food", "elevator", "lightning"}
        assert not any(action == "play wild" for _, action in run.log)
