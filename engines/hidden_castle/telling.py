"""What Hidden Castle tells: the view every seat sees, why a move is refused, how a button
names a move, and who escapes at the end. The rules themselves stay in game.py; what both
read off a position is in position.py."""

from __future__ import annotations

from engines.contract import Game, Seat
from engines.hidden_castle import board
from engines.hidden_castle.board import CHAMBER, STAIRS
from engines.hidden_castle.position import (
    HiddenCastleState,
    chamber_refusal,
    empty_spaces,
    guests_at,
    in_gallery,
    is_midnight,
    movable,
    place_of,
    planned_moves,
    ranking,
    scores_text,
    speed,
    stands,
)
from engines.text import Msg, Text, from_json, joined, msg, plural


def explain_illegal(s: HiddenCastleState, seat: Seat, action: str) -> Msg | None:
    words = action.split()
    if s.phase == "place" and words[:1] == ["place"]:
        if (
            len(words) == 2
            and words[1].isdigit()
            and 1 <= int(words[1]) <= board.SPACES
            and int(words[1]) not in empty_spaces(s)
        ):
            return msg("Space {n} is taken; place your guest on an empty space.", n=int(words[1]))
        example = empty_spaces(s)[0]
        return msg(
            "Place your guest with `place N`, N an empty Gallery space from 1 to 28 "
            "(not the staircase): e.g. `place {example}`.",
            example=example,
        )
    if s.phase != "move" or len(words) < 2 or words[0] not in ("move", "hide"):
        if words == ["stay"] and s.phase == "move":
            if not is_midnight(s):
                return msg("You must move one of your guests every turn.")
            return msg("You may only stay put when you have a single guest left in the Gallery.")
        return None
    letter = words[1]
    if len(letter) != 1 or not "a" <= letter <= board.label(len(s.owner) - 1):
        return None
    g = ord(letter) - ord("a")
    mine = ", ".join(board.label(x).upper() for x in range(len(s.owner)) if s.owner[x] == seat)
    if s.owner[g] != seat:
        return msg(
            "Guest {letter} is not yours; your guests are {mine}.",
            letter=letter.upper(),
            mine=mine,
        )
    if g not in movable(s, seat):
        if s.where[g] == STAIRS and not is_midnight(s):
            return msg("Leave the dungeon with your guest on the highest step first.")
        place = place_of(s, g)
        if s.where[g] == STAIRS:
            return msg(
                "Guest {letter} cannot move now (it is on {place}).",
                letter=letter.upper(),
                place=place,
            )
        return msg(
            "Guest {letter} cannot move now (it is in {place}).",
            letter=letter.upper(),
            place=place,
        )
    if words[0] == "hide" and len(words) == 3 and words[2].isdigit():
        room = int(words[2])
        if room not in board.DOORWAYS:
            return msg(
                "There is no chamber at space {n}; doorways: {doorways}.",
                n=room,
                doorways=", ".join(map(str, board.DOORWAYS)),
            )
        if not in_gallery(s):
            return msg("Nobody may enter a chamber until the Phantom has left the dungeon.")
        if s.where[g] == CHAMBER and s.pos[g] == room:
            return msg("Guest {letter} is already in chamber {n}.", letter=letter.upper(), n=room)
        roll = int(s.roll)
        steps = [k + 1 for k, space in stands(s, g, roll) if space == room]
        if steps and steps[0] <= roll:
            reason = chamber_refusal(s, g, room, exact=steps[0] == roll)
            if reason:
                return reason
        return msg(
            "Guest {letter} cannot reach chamber {n} with a {roll}.",
            letter=letter.upper(),
            n=room,
            roll=s.roll,
        )
    return None


def label(s: HiddenCastleState, action: str) -> Text:
    words = action.split()
    if words[0] == "place" and s.queue:
        return msg(
            "Place guest {letter} on space {n}", letter=board.label(s.queue[0]).upper(), n=words[1]
        )
    if words[0] == "stay":
        return msg("Stay put (do not move)")
    plans = dict(planned_moves(s, s.turn))
    plan = plans.get(action)
    if plan is None:
        return action
    letter = board.label(plan.guest).upper()
    if plan.chamber:
        inside = guests_at(s, CHAMBER, plan.chamber)
        coat = board.COATS[s.variant].get(plan.chamber)
        said = dict(letter=letter, n=plan.chamber)
        if coat and inside:
            return msg(
                "{letter} into chamber {n} ({coat}), boot {other}",
                coat=board.coat_text(coat),
                other=board.label(inside[0]).upper(),
                **said,
            )
        if coat:
            return msg("{letter} into chamber {n} ({coat})", coat=board.coat_text(coat), **said)
        if inside:
            return msg(
                "{letter} into chamber {n}, boot {other}",
                other=board.label(inside[0]).upper(),
                **said,
            )
        return msg("{letter} into chamber {n}", **said)
    said = dict(letter=letter, start=place_of(s, plan.guest), n=plan.space)
    if plan.space == s.phantom:
        return msg("{letter}: {start} to space {n} - onto the Phantom!", **said)
    return msg("{letter}: {start} to space {n}", **said)


def standing(s: HiddenCastleState) -> Msg:
    best = ranking(s)[0]
    points, scores = s.scores[best[0]], scores_text(s)
    if len(best) == 1:
        return plural(
            "{who} escapes with {count} point ({scores}).",
            "{who} escapes with {count} points ({scores}).",
            points,
            who=s.names[best[0]],
            scores=scores,
        )
    who = joined([s.names[p] for p in best[:-1]], ", ")
    return plural(
        "{who} and {last} escape with {count} point ({scores}).",
        "{who} and {last} escape with {count} points ({scores}).",
        points,
        who=who,
        last=s.names[best[-1]],
        scores=scores,
    )


def view(game: Game, s: HiddenCastleState, seat: Seat | None) -> dict:
    """Everything in this game is public, so every seat sees the same."""
    steps = board.STEPS[s.variant]
    guests = [
        {"label": board.label(g), "owner": s.owner[g], "where": s.where[g], "pos": s.pos[g]}
        for g in range(len(s.owner))
    ]
    chambers = [
        {
            "door": room,
            "coat": board.COATS[s.variant].get(room, 0),
            "exact": room in board.EXACT[s.variant],
            "guest": next((board.label(g) for g in guests_at(s, CHAMBER, room)), None),
        }
        for room in board.DOORWAYS
    ]
    result = game.result(s)
    return {
        "game": game.id,
        "names": list(s.names),
        "variant": s.variant,
        "phase": s.phase,
        "to_act": game.to_act(s),
        "turn": s.turn,
        "roll": s.roll,
        "round": s.round,
        "rounds": board.ROUNDS,
        "clock": s.clock,
        "clocks": list(board.CLOCKS),
        "speeds": list(board.SPEEDS),
        "speed": speed(s),
        "scores": list(s.scores),
        "end_score": board.END_SCORE,
        "spaces": board.SPACES,
        "exit": board.EXIT,
        "chambers": chambers,
        "steps": list(steps),
        "climb": board.CLIMB,
        "phantom": {"climbed": s.climbed, "space": s.phantom},
        "guests": guests,
        "next_place": board.label(s.queue[0]) if s.phase == "place" else None,
        "trail": list(s.trail),
        "mover": s.mover,
        "last_roll": from_json(s.last_roll),
        "last_move": from_json(s.last_move),
        "last": from_json(s.last),
        "winners": result.ranking[0] if result else None,
        "viewer": seat,
    }
