"""Tests of a trait (rulebook: a chapter asks a player to roll a trait "in one attempt", or in
several, or until it succeeds; a group test adds everyone's symbols together).

A test being attempted is an interpreter frame `test` (who, the attempts left); a group test
is a frame `gtest` (who is still to roll, the sum so far). Items may turn a failed roll into
a success within the same attempt (`react`). The die roll itself is `rolls.py`.
"""

from __future__ import annotations

from engines.contract import Seat
from engines.dark_castle import cards, chapters, effects, explain, items, party
from engines.dark_castle.rules import Position, Step
from engines.dark_castle.state import DarkCastleState, Pending
from engines.text import Msg, msg


# ----- the script verbs and their frames --------------------------------------------------
def trait_test(t: Position, step: dict, card: str, path: list, ctx: int) -> None:
    """YOU, each prisoner, or one the group sends (`send`) attempts the test."""
    s = t.s
    who = step.get("who", "you")
    if who == "chosen":
        s.pending = Pending("send", card=card, path=path)
        return
    targets = list(range(len(s.chars))) if who == "each" else chapters.targets(s, who, ctx)
    for k in reversed(targets):
        push_test(s, card, path, k)


def group_test(t: Position, step: dict, card: str, path: list, ctx: int) -> None:
    t.s.frames.append(
        {
            "k": "gtest",
            "card": card,
            "path": path,
            "ctx": ctx,
            "queue": list(range(len(t.s.chars))),
            "sum": 0,
        }
    )


def push_test(s: DarkCastleState, card: str, path: list, k: int) -> None:
    attempts = chapters.step_at(card, path).get("attempts", 1)
    s.frames.append({"k": "test", "card": card, "path": path, "ctx": k, "left": attempts})


def attempt_frame(t: Position, frame: dict) -> None:
    t.s.pending = effects.roll(t, frame["ctx"], "test")


def group_frame(t: Position, frame: dict) -> None:
    if frame["queue"]:
        t.s.pending = effects.roll(t, frame["queue"][0], "gtest")
    else:
        finish_group_test(t)


# ----- rolls against a test -------------------------------------------------------------
def face_for_test(face: str, trait: str) -> str:
    """Pack 2: outside combat a companion's special face counts as a double of the roller's
    choice, the trait the test asks for."""
    if face == cards.SPECIAL_FACE:
        return trait[0] * 2
    return face


def face_traits(s: DarkCastleState, k: int, face: str) -> set[str]:
    """The traits a face shows, with what k's items let it count as (`alias`)."""
    traits = set(face)
    for item in s.chars[k].items:
        for effect in cards.ITEMS[item].get("effects", []):
            if effect["k"] == "alias" and effect["from"] in traits:
                traits.add(effect["to"])
    return traits


def passes(s: DarkCastleState, k: int, face: str) -> bool:
    """Does the face pass the test being attempted?"""
    frame = s.frames[-1] if s.frames else None
    if not face or not frame or frame["k"] != "test":
        return False
    step = chapters.step_at(frame["card"], frame["path"])
    face = face_for_test(face, step["trait"])
    if step.get("double") and len(face) < 2:
        return False
    return bool(face_traits(s, k, face) & set(step["trait"]))


def helps_in_test(t: Position, k: int, effect: dict) -> bool:
    """After a failed roll: a re-roll, or an item that turns the face into a passing one."""
    s = t.s
    if passes(s, k, s.chars[k].roll):
        return False
    return effect["k"] == "reroll" or (effect["k"] == "become" and passes(s, k, effect["face"]))


def attempted(t: Position, k: int) -> None:
    """k's roll stands: a failed one may still be saved by an item (`react`)."""
    if not passes(t.s, k, t.s.chars[k].roll) and items.usable(t, k, "test", helps_in_test):
        t.s.pending = Pending("react", char=k)
        return
    finish_test(t)


def group_rolled(t: Position, face: str) -> None:
    """The next roller of a group test adds their symbols of the trait."""
    frame = t.s.frames[-1]
    step = chapters.step_at(frame["card"], frame["path"])
    frame["queue"].pop(0)
    face = face_for_test(face, step["trait"])
    frame["sum"] += sum(1 for x in face if x == step["trait"])


def finish_test(t: Position) -> None:
    """Success runs the `pass` branch; each failure costs `fail_each`, the last attempt's
    failure runs `fail`; a test "until it succeeds" goes on."""
    s = t.s
    frame = s.frames[-1]
    k = frame["ctx"]
    step = chapters.step_at(frame["card"], frame["path"])
    path = frame["path"]
    if passes(s, k, s.chars[k].roll):
        s.frames.pop()
        t.say(msg("{name} succeeds.", name=party.name(s, k)))
        if "pass" in step:
            chapters.push(s, frame["card"], [*path, "pass"], k)
        return
    why = explain.fail_reason(step, s.chars[k].roll)
    said = dict(name=party.name(s, k), why=why)
    if frame["left"] == 0:
        t.say(msg("{name} fails: {why} (again until it succeeds).", **said))
    elif frame["left"] > 1:
        t.say(
            msg(
                "{name} fails: {why} ({left}).",
                left=explain.attempts_left(frame["left"] - 1),
                **said,
            )
        )
    else:
        t.say(msg("{name} fails: {why}.", **said))
    if frame["left"] > 0:
        frame["left"] -= 1
        if frame["left"] == 0:  # the last attempt: the test is over
            s.frames.pop()
            if "fail" in step:
                chapters.push(s, frame["card"], [*path, "fail"], k)
    # The cost of every failure, the last one too, is paid before the final outcome.
    if "fail_each" in step:
        chapters.push(s, frame["card"], [*path, "fail_each"], k)


def finish_group_test(t: Position) -> None:
    s = t.s
    frame = s.frames.pop()
    step = chapters.step_at(frame["card"], frame["path"])
    need = explain.need(step, len(s.chars))
    ok = frame["sum"] >= need
    trait = cards.TRAIT_NAMES[step["trait"]]
    t.say(
        msg(
            "Together: {sum} {trait} rolled, {need} needed.",
            sum=frame["sum"],
            trait=trait,
            need=need,
        )
    )
    branch = "pass" if ok else "fail"
    if branch in step:
        chapters.push(s, frame["card"], [*frame["path"], branch], frame["ctx"])


def asking(t: Position) -> Msg | str:
    """The test now being attempted, in full: who rolls, the trait, the attempts left, a
    double or not, and the cost of failing (a test someone must be sent to: `Send`)."""
    s = t.s
    frame = s.frames[-1] if s.frames else None
    if not frame or frame["k"] not in ("test", "gtest") or s.combat:
        return ""
    step = chapters.step_at(frame["card"], frame["path"])
    if frame["k"] == "gtest":
        return explain.group_test_text(step, len(s.chars))
    text = explain.test_text(step, len(s.chars))
    if frame["left"] and step.get("attempts", 1) > 1:
        text = msg(
            "{test} ({name}: {left})",
            test=text,
            name=party.name(s, frame["ctx"]),
            left=explain.attempts_left(frame["left"]),
        )
    return text


# ----- the steps: whom to send, what to do about a failed roll ---------------------------
class Send(Step):
    """A test "one of you" must pass: the group sends someone."""

    kind = "send"
    labels = ("send",)

    def legal(self, t: Position, seat: Seat) -> list[str]:
        out = [f"send {c.who}" for c in t.s.chars]
        return out + [a for k in party.mine(t.s, seat) for a in items.uses(t, k, "choice")]

    def apply(self, t: Position, seat: Seat, action: str) -> None:
        verb, *args = action.split()
        if verb == "use":
            items.use_action(t, args)
            return
        s, p = t.s, t.s.pending
        k = party.index(s, args[0])
        s.pending = None
        t.say(msg("{name} steps forward.", name=party.name(s, k)))
        push_test(s, p.card, p.path, k)

    def asking(self, t: Position) -> Msg:
        p = t.s.pending
        return explain.test_text(chapters.step_at(p.card, p.path), len(t.s.chars))

    def prompt(self, t: Position) -> Msg:
        return msg("Who attempts it? send <prisoner>. {test}.", test=self.asking(t))

    def show(self, t: Position, view: dict) -> None:
        view["asking"] = self.asking(t)

    def describe(self, t: Position, action: str) -> str | None:
        verb, *args = action.split()
        if verb == "send" and args:
            return msg("Send: {character}", character=party.title(args[0]))
        return None


class React(Step):
    """A failed roll: its roller may use an item (a re-roll, a face that passes) or pass."""

    kind = "react"

    def to_act(self, t: Position) -> list[Seat]:
        seat = t.s.chars[t.s.pending.char].seat
        return [seat] if seat >= 0 else t.everyone()  # a companion: anyone

    def legal(self, t: Position, seat: Seat) -> list[str]:
        k = t.s.pending.char
        return ["pass"] + [f"use {i}" for i in items.usable(t, k, "test", helps_in_test)]

    def apply(self, t: Position, seat: Seat, action: str) -> None:
        verb, *args = action.split()
        if verb == "use":
            items.use_action(t, args)
            return
        t.s.pending = None
        finish_test(t)

    def use_effect(self, t: Position, k: int, effect: dict) -> bool:
        s = t.s
        if effect["k"] == "reroll":
            s.pending = Pending("roll", char=k, why="test")
            return True
        if effect["k"] == "become":
            s.chars[k].roll = effect["face"]
            t.say(msg("The roll now counts as {faces}.", faces=explain.faces(effect["face"])))
            if passes(s, k, s.chars[k].roll):
                s.pending = None
                finish_test(t)
            return True
        return False

    def prompt(self, t: Position) -> Msg:
        s, p = t.s, t.s.pending
        frame = s.frames[-1]
        why = explain.fail_reason(
            chapters.step_at(frame["card"], frame["path"]), s.chars[p.char].roll
        )
        return msg(
            "{name} failed the roll ({why}): use an item, or pass.",
            name=party.name(s, p.char),
            why=why,
        )

    def default(self, t: Position, seat: Seat, legal: list[str]) -> str | None:
        return "pass" if "pass" in legal else None
