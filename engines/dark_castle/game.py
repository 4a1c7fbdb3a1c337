"""Dark Castle (shared/rules/dark-castle.txt), the core rules, readable against the rulebook.

Characters are named by their trade (`smith`), items by a short id (`lantern`);
all seats act together on group decisions (the first valid action counts).
Actions:
  pick smith          choose your prisoner (solo: pick two)
  turn smith          the Smith turns the next chapter (YOU effects hit the Smith)
  take lantern cook   an item on the table goes to the Cook (hands permitting)
  drop lantern        put an item down on the table (left behind if nobody takes it)
  use salve           use an item now
  done                finish sharing the items on the table
  choose 2            take the second option of a chapter's choice
  send tailor         the Tailor attempts a test "one of you" must pass
  pass                accept a test roll as it is
  discard lantern     discard an item a card takes from you
  fight / rest cook   a combat round with nobody resting / with the Cook resting
  hit miller          resolve the Miller's attack next
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from math import ceil

from engines.contract import CHANCE, Event, Game, Option, Result, Seat
from engines.dark_castle import cards as C
from engines.dark_castle import death_dice as DD
from engines.dark_castle import explain as X
from engines.dark_castle import living_stone as LS
from engines.dark_castle.rules_text import RULES_TEXT
from engines.dark_castle.undead import UndeadRules

CASTLE_CHAPTERS = 15
LOG_LINES = 8
CHANCE_KINDS = (
    "start", "chapter", "boss", "dice", "roll", "item", "gamble", "plague", "deal", "death", "stone",
    "spell",
)  # fmt: skip
CASTLES = ("mixed", "pack", "pack-numbered")


def start_hp(players: int) -> int:
    """1 or 2 players: 18 HP each; 3 players: 14; 4 players: 12."""
    return {1: 18, 2: 18, 3: 14, 4: 12}[players]


@dataclass
class DarkCastleState:
    names: list[str]
    hp_start: int = 18
    chars: list[dict] = field(default_factory=list)  # who, seat, hp, items, roll, spent
    start: str = ""
    used: list[str] = field(default_factory=list)  # chapters turned, in order
    card: str = ""  # the card in play (start, chapter or boss)
    turner: int = -1  # index of the character who turned it
    frames: list[dict] = field(default_factory=list)  # the interpreter's stack
    pending: dict = field(default_factory=lambda: {"kind": "pick"})
    combat: dict | None = None
    pool: list[str] = field(default_factory=list)  # items on the table
    dealt: list[str] = field(default_factory=list)  # items out of the deck since its shuffle
    outcome: str = ""  # "", "won", "lost"
    last: str = ""
    log: list[str] = field(default_factory=list)
    opts: dict = field(default_factory=dict)  # the game's options (supplements, castle)
    tainted: list[str] = field(default_factory=list)  # items on the table from a carrier
    flaws: dict = field(default_factory=dict)  # character -> flaw dealt onto it (collector)


def _option(name: str) -> Option:
    title = C.SUPPLEMENTS[name]["title"]
    return Option(("off", "on"), "off", f"{title}: its chapters, boss, cards and rules.")


class DarkCastle(UndeadRules, Game):
    id = "dark_castle"
    title = "Dark Castle"
    rules_version = 4
    min_players = 1
    max_players = 4
    options = {
        "cult": _option("cult"),
        "plague": _option("plague"),
        "undead": _option("undead"),
        "collector": _option("collector"),
        "castle": Option(
            CASTLES,
            "mixed",
            "mixed: the core chapters and every pack that is on, shuffled together; pack: "
            "only the chapters of the packs that are on, with their own boss (no pack on: "
            "the core castle); pack-numbered: the same in the packs' number order.",
        ),
    }
    cooperative = True
    summary = "Co-operative: 1-4 prisoners fight, bluff and bleed through 15 chapters and a boss."
    rules_text = RULES_TEXT

    # ----- set-up -----------------------------------------------------------------
    def new_state(self, names: Sequence[str], options: Mapping[str, str]) -> DarkCastleState:
        seats = [0, 0] if len(names) == 1 else list(range(len(names)))
        chars = [
            {
                "who": "",
                "seat": seat,
                "hp": 0,
                "items": [],
                "roll": "",
                "spent": [],
                "curses": [],
                "plague": 0,
                "stored": [],
            }
            for seat in seats
        ]
        s = DarkCastleState(
            names=list(names), hp_start=start_hp(len(names)), chars=chars, opts=dict(options)
        )
        if self._collector(s):  # flaws are dealt onto the characters before choosing
            s.pending = {"kind": "deal"}
        return s

    def conformance_options(self) -> list[dict[str, str]]:
        """The tables the conformance suite plays (engines/playout.py): every combination of
        the supplements in the mixed castle, and each pack alone and all of them together in
        a castle of their own, shuffled and numbered. A castle of two packs among several
        differs from these only in which chapters are drawn, so the full product (twice as
        many tables, each played at every party size) would test nothing more."""
        packs = [n for n, o in self.options.items() if o.choices == ("off", "on")]
        base = {n: o.default for n, o in self.options.items()}
        tables = []
        for values in itertools.product(("off", "on"), repeat=len(packs)):
            tables.append({**base, **dict(zip(packs, values, strict=True)), "castle": "mixed"})
        for castle in CASTLES[1:]:
            for on in [[p] for p in packs] + [packs]:
                tables.append({**base, **{p: "on" for p in on}, "castle": castle})
        return tables

    def _collector(self, s: DarkCastleState) -> bool:
        return s.opts.get("collector") == "on"

    # ----- the castle's content: which sets are in play -------------------------------
    def _supplements(self, s: DarkCastleState) -> list[str]:
        return [name for name in C.SUPPLEMENTS if s.opts.get(name) == "on"]

    def _chapter_sets(self, s: DarkCastleState) -> list[str]:
        """Mixed: the core castle and every pack in play; a pack alone: only the packs."""
        packs = [x for x in self._supplements(s) if C.SUPPLEMENTS[x].get("chapters", True)]
        if s.opts.get("castle", "mixed") != "mixed" and packs:
            return packs
        return ["core", *packs]

    def _item_sets(self, s: DarkCastleState) -> list[str]:
        return ["core", *self._supplements(s)]

    def _curses_in_play(self, s: DarkCastleState) -> bool:
        """Curses or plague cards lurk in the item deck: the group names who draws each."""
        return bool({"cult", "plague"} & set(self._supplements(s)))

    def _curses(self, s: DarkCastleState, k: int) -> list[dict]:
        return [C.ITEMS[i]["curse"] for i in s.chars[k].get("curses", [])]

    def _marked(self, s: DarkCastleState, k: int) -> bool:
        return any(c.get("marked") for c in self._curses(s, k))

    def _cult_die(self, s: DarkCastleState, k: int) -> bool:
        """Marked for Death below half the starting HP: the cult die replaces the character's."""
        return self._marked(s, k) and s.chars[k]["hp"] * 2 < s.hp_start

    # ----- who acts ---------------------------------------------------------------
    def to_act(self, s: DarkCastleState) -> list[Seat]:
        kind = s.pending["kind"] if s.pending else ""
        if s.outcome or not kind:
            return []
        if kind == "pick":
            return sorted({c["seat"] for c in s.chars if not c["who"]})
        if kind in CHANCE_KINDS:
            return [CHANCE]
        if kind in ("react", "cast") or (kind == "discard" and not s.pending.get("party")):
            seat = s.chars[s.pending["char"]]["seat"]
            return [seat] if seat >= 0 else list(range(len(s.names)))  # a companion: anyone
        return list(range(len(s.names)))

    # ----- what is legal ----------------------------------------------------------
    def _legal(self, s: DarkCastleState, seat: Seat) -> list[str]:
        p = s.pending
        kind = p["kind"]
        mine = [k for k, c in enumerate(s.chars) if c["seat"] in (seat, -1)]  # -1: a companion
        if kind == "pick":
            taken = {c["who"] for c in s.chars}
            return [f"pick {w}" for w in self._prisoners(s) if w not in taken]
        if kind in ("between", "share"):
            out = [f"turn {c['who']}" for c in s.chars] if kind == "between" else ["done"]
            for item in s.pool:
                out += [f"take {item} {c['who']}" for c in s.chars if self._fits(c, item, s)]
            for k in mine:
                out += [f"drop {i}" for i in s.chars[k]["items"]]
                out += self._uses(s, k, "camp")
                if kind == "between":
                    out += self._knapsack_moves(s, k)
            if kind == "between":
                out += self._chalice_moves(s, seat)
            return out
        if kind == "chalice":
            return self._ritual_moves(s, mine)
        if kind == "cast":
            return ["roll"] + [f"cast {x}" for x in self._spells(s, p["char"], p["for"])]
        if kind == "choose":
            step = self._step_at(p["card"], p["path"])
            out = [f"choose {i + 1}" for i in self._options(s, step)]
            return out + [a for k in mine for a in self._uses(s, k, "choice")]
        if kind == "drawer":
            return [f"draw {c['who']}" for c in s.chars]
        if kind == "send":
            out = [f"send {c['who']}" for c in s.chars]
            return out + [a for k in mine for a in self._uses(s, k, "choice")]
        if kind == "react":
            return ["pass"] + [f"use {i}" for i in self._usable(s, p["char"], "test")]
        if kind == "discard":
            holders = range(len(s.chars)) if p.get("party") else [p["char"]]
            tag = p.get("tag")
            return [
                f"discard {i}"
                for k in holders
                for i in s.chars[k]["items"]
                if not tag or tag in C.ITEMS[i].get("tags", [])
            ]
        if kind == "crush":
            return LS.crush_choices(s)
        if kind == "rest":
            return ["fight"] + [f"rest {s.chars[k]['who']}" for k in self._resters(s)]
        if kind == "attack":
            cb = s.combat
            left = [k for k in cb["fighters"] if k not in cb["done"]]
            # A prisoner on the cult die resolves their attack before anyone else's.
            first = [k for k in left if self._cult_die(s, k)]
            out = [DD.HIT_ALL] if DD.pairing_needed(cb["row"]) else []
            for k in [] if out else first or left:
                face = cb["rolls"].get(str(k), "")
                split = len(face) == 2 and face[0] != face[1]
                if split and self._has_special(s, "doubles_single"):  # the roller picks one
                    out += [f"hit {s.chars[k]['who']} {t}" for t in face]
                else:
                    out.append(f"hit {s.chars[k]['who']}")
            for k in mine:
                if k in cb["fighters"]:
                    out += self._uses(s, k, "combat")
            return out
        return []

    def _prisoners(self, s: DarkCastleState) -> list[str]:
        """The characters on offer: the core six, and the three of the plague pack."""
        sets = self._item_sets(s)
        return [
            w
            for w, c in C.CHARACTERS.items()
            if c.get("set", "core") in sets and not c.get("companion")
        ]

    def _resters(self, s: DarkCastleState) -> list[int]:
        """Who may rest this round: not whoever the enemy singles out (focus_you), not a
        prisoner Marked for Death, not one who joined the enemy's row, and someone must
        still fight."""
        cb = s.combat
        barred = s.turner if self._has_special(s, "focus_you") else None
        able = [k for k in range(len(s.chars)) if k not in cb.get("turned", [])]
        if len(able) < 2:
            return []
        return [k for k in able if k != barred and not self._marked(s, k)]

    def _knapsack_moves(self, s: DarkCastleState, k: int) -> list[str]:
        """Between chapters the knapsack's owner rearranges it: `stow` an item from the hands,
        `unstow` one back into free hands."""
        char = s.chars[k]
        sack = next((C.has_effect(i, "knapsack") for i in char["items"]), None)
        if not sack:
            return []
        stored = char.get("stored", [])
        out = []
        if len(stored) < sack.get("n", 2):
            out += [f"stow {i}" for i in char["items"] if not C.has_effect(i, "knapsack")]
        out += [f"unstow {i}" for i in stored if self._fits(char, i)]
        return out

    def _uses(self, s: DarkCastleState, k: int, when: str) -> list[str]:
        """`use` actions of character k: a healing item names whom it heals when that is not
        its holder (in camp, where items may change hands anyway), and is offered only for
        someone it can heal."""
        out = []
        for item_id in self._usable(s, k, when):
            heal = C.has_effect(item_id, "heal")
            cure = C.has_effect(item_id, "cure") and s.chars[k].get("plague", 0) > 0
            if heal and not heal.get("all"):
                if s.chars[k]["hp"] < self._cap(s, k) or cure:
                    out.append(f"use {item_id}")
                if when == "camp" and item_id in s.chars[k]["items"]:  # a flaw is not passed on
                    out += [
                        f"use {item_id} {c['who']}"
                        for j, c in enumerate(s.chars)
                        if j != k and c["hp"] < self._cap(s, j)
                    ]
            else:
                out.append(f"use {item_id}")
        return out

    def _fits(self, char: dict, item: str, s: DarkCastleState | None = None) -> bool:
        if char.get("seat") == -1:  # a companion (undead.py)
            return s is not None and self._companion_fits(s, s.chars.index(char), item)
        used = sum(C.ITEMS[i]["hands"] for i in char["items"])
        return used + C.ITEMS[item]["hands"] <= 2

    def _usable(self, s: DarkCastleState, k: int, when: str) -> list[str]:
        """Items character k can use now: in camp (between chapters, sharing), a test, combat."""
        char = s.chars[k]
        out = []
        cb = s.combat
        for item_id in self._tools(s, k):
            item = C.TOOLS[item_id]
            if item_id in char["spent"]:
                continue
            for effect in item.get("effects", []):
                kind = effect["k"]
                ok = False
                if kind == "cure":
                    ok = char.get("plague", 0) > 0 and when in ("camp", "combat", "choice")
                elif kind == "heal":
                    # In camp the item can still change hands; elsewhere it heals its holder.
                    who = range(len(s.chars)) if when == "camp" or effect.get("all") else [k]
                    ok = any(s.chars[j]["hp"] < self._cap(s, j) for j in who) and when in (
                        "camp",
                        "combat",
                        "choice",
                    )
                elif when == "test" and not self._passes(s, k, char["roll"]):
                    ok = kind == "reroll" or (
                        kind == "become" and self._passes(s, k, effect["face"])
                    )
                elif when == "combat" and not self._has_special(s, "no_items"):
                    unresolved = k not in cb["done"]
                    if kind in ("reroll", "become"):
                        ok = unresolved and cb["rolls"].get(str(k)) != effect.get("face")
                    elif kind == "strike":
                        ok = effect["trait"] in cb["row"]
                    elif kind == "block":
                        ok = k not in cb["blocked"]
                    elif kind == "stone":
                        ok = True
                if ok:
                    out.append(item_id)
                    break
        return out

    def _tools(self, s: DarkCastleState, k: int) -> list[str]:
        """What character k may use: carried items, and an unused flaw (one use a game)."""
        char = s.chars[k]
        flaw = [char["flaw"]] if char.get("flaw") and not char.get("flaw_used") else []
        return char["items"] + flaw

    def _options(self, s: DarkCastleState, step: dict) -> list[int]:
        tags = self._tags(s)
        you_carry = s.turner >= 0 and bool(s.chars[s.turner]["items"])
        return [
            i
            for i, o in enumerate(step["options"])
            if (not o.get("needs") or o["needs"] in tags)
            and (o.get("requires") != "you_item" or you_carry)
        ]

    def _tags(self, s: DarkCastleState) -> set[str]:
        return {t for c in s.chars for i in c["items"] for t in C.ITEMS[i].get("tags", [])}

    def explain_illegal(self, s: DarkCastleState, seat: Seat, action: str) -> str | None:
        words = action.split()
        if not s.pending:
            return None
        if words[:1] == ["take"] and len(words) == 3:
            return "That item is not on the table, or that prisoner's hands are full."
        if words[:1] in (["use"], ["drop"]) and len(words) == 2 and words[1] in C.ITEMS:
            return "You can only use or drop your own items, and only when they can help."
        if words[:1] == ["rest"]:
            return "Only at the start of a combat round may one prisoner rest."
        if words[:1] == ["give"]:
            return ("Each donor pledges once, for themself, keeping at least 1 HP, and no more in "
                    "all than the recipient lacks.")  # fmt: skip
        if words[:1] == ["cast"]:
            return ("Only the Spell Book's holder casts, instead of a roll of their own die, a "
                    "spell whose requirement is met now (see the rules).")  # fmt: skip
        if words[:1] == ["rite"]:
            return ("The blood ritual needs the Ritual Chalice in someone's hands, between "
                    "chapters, and a wounded recipient.")  # fmt: skip
        return None

    # ----- applying an action -----------------------------------------------------
    def _apply(self, s: DarkCastleState, seat: Seat, action: str) -> list[Event]:
        ev: list[Event] = []
        if seat == CHANCE:
            self._chance(s, action, ev)
        else:
            self._act(s, seat, action, ev)
        self._run(s, ev)
        self._check_knapsacks(s, ev)
        public = [e.text for e in ev if e.to is None]
        if public:
            s.last = " ".join(public)[-400:]
            s.log = (s.log + public)[-LOG_LINES:]
        return ev

    def _char(self, s: DarkCastleState, who: str) -> int:
        return next(k for k, c in enumerate(s.chars) if c["who"] == who)

    def _name(self, s: DarkCastleState, k: int) -> str:
        char = s.chars[k]
        title = C.CHARACTERS[char["who"]]["title"] if char["who"] else "?"
        if len(s.names) == 1 or char["seat"] < 0:  # solo, or a companion
            return title
        return f"{s.names[char['seat']]} ({title.removeprefix('The ')})"

    def _act(self, s: DarkCastleState, seat: Seat, action: str, ev: list[Event]) -> None:
        verb, *args = action.split()
        p = s.pending
        if verb == "pick":
            k = next(k for k, c in enumerate(s.chars) if c["seat"] == seat and not c["who"])
            s.chars[k]["who"] = args[0]
            if args[0] in s.flaws:
                s.chars[k]["flaw"] = s.flaws[args[0]]
            ev.append(Event(f"{s.names[seat]} will escape as {C.CHARACTERS[args[0]]['title']}."))
            if all(c["who"] for c in s.chars):
                for c in s.chars:
                    c["hp"] = s.hp_start
                s.pending = {"kind": "start"}
        elif verb == "turn":
            k = self._char(s, args[0])
            self._discard_pool(s, ev)
            for c in s.chars:
                c["spent"] = []
                c["roll"] = ""
            s.turner = k
            done = len(s.used) >= CASTLE_CHAPTERS
            s.pending = {"kind": "boss" if done else "chapter"}
            ev.append(Event(f"{self._name(s, k)} turns the next page of the castle..."))
            for j in range(len(s.chars)):
                drain = sum(c.get("drain", 0) for c in self._curses(s, j))
                if drain:
                    ev.append(Event(f"A curse drinks from {self._name(s, j)}."))
                    self._hurt(s, j, drain, ev)
            self._check_death(s, ev)
        elif verb == "take":
            k = self._char(s, args[1])
            s.pool.remove(args[0])
            s.chars[k]["items"].append(args[0])
            ev.append(Event(f"{self._name(s, k)} takes {_the(args[0])}."))
            if args[0] in s.tainted:  # an item from a carrier: a clean taker rolls for plague
                s.tainted.remove(args[0])
                if not s.chars[k].get("plague", 0):
                    ev.append(Event(f"It came from a carrier: {self._name(s, k)} rolls for "
                                    "plague."))  # fmt: skip
                    s.pending = {"kind": "plague", "char": k, "after": s.pending}
        elif verb == "drop":
            k = next(k for k, c in enumerate(s.chars) if args[0] in c["items"])
            s.chars[k]["items"].remove(args[0])
            dropped = [args[0]]
            if C.has_effect(args[0], "knapsack"):  # its contents come off with it
                dropped += s.chars[k].get("stored", [])
                s.chars[k]["stored"] = []
            s.pool += dropped
            if s.chars[k].get("plague", 0):
                s.tainted += dropped
            names = ", ".join(C.ITEMS[i]["name"] for i in dropped)
            ev.append(Event(f"{self._name(s, k)} puts down: {names}."))
        elif verb == "stow":
            k = next(k for k, c in enumerate(s.chars) if args[0] in c["items"])
            s.chars[k]["items"].remove(args[0])
            s.chars[k].setdefault("stored", []).append(args[0])
            ev.append(Event(f"{self._name(s, k)} stows {_the(args[0])}."))
        elif verb == "unstow":
            k = next(k for k, c in enumerate(s.chars) if args[0] in c.get("stored", []))
            s.chars[k]["stored"].remove(args[0])
            s.chars[k]["items"].append(args[0])
            ev.append(Event(f"{self._name(s, k)} takes out {_the(args[0])}."))
        elif verb == "done":
            self._discard_pool(s, ev)
            s.pending = None
        elif verb == "use":
            k = self._char(s, args[1]) if len(args) > 1 else None
            self._use(s, args[0], ev, target=k)
        elif verb == "choose":
            step = self._step_at(p["card"], p["path"])
            option = step["options"][int(args[0]) - 1]
            ev.append(Event(f"The party chooses: {option['label']}."))
            s.pending = None
            self._push(s, p["card"], [*p["path"], "options", int(args[0]) - 1, "steps"], p["ctx"])
            if option.get("spend"):
                self._spend_tag(s, option["needs"], ev)
        elif verb == "draw":
            k = self._char(s, args[0])
            s.pending = {"kind": "item", "n": p["n"], "by": k}
            if p.get("tainted"):
                s.pending["tainted"] = True
            ev.append(Event(f"{self._name(s, k)} draws the next item card."))
        elif verb == "send":
            k = self._char(s, args[0])
            s.pending = None
            ev.append(Event(f"{self._name(s, k)} steps forward."))
            self._push_test(s, p["card"], p["path"], k)
        elif verb == "pass":
            s.pending = None
            self._finish_test(s, ev)
        elif verb == "discard":
            k = next(k for k, c in enumerate(s.chars) if args[0] in c["items"])
            s.chars[k]["items"].remove(args[0])
            lost = "gives up" if p.get("tag") else "loses"
            ev.append(Event(f"{self._name(s, k)} {lost} {_the(args[0])}."))
            s.pending = None
        elif verb == "fight":
            ev.append(Event("Nobody rests: everyone fights this round."))
            self._begin_rolls(s)
        elif verb == "rest":
            k = self._char(s, args[0])
            s.combat["rester"] = k
            self._heal(s, k, 1)
            ev.append(Event(f"{self._name(s, k)} rests this round (+1 HP)."))
            self._lift(s, "rest", [k], ev)
            self._begin_rolls(s)
        elif verb in ("rite", "give", "drink", "stop"):
            self._ritual_act(s, verb, args, ev)
        elif verb in ("cast", "roll"):
            self._cast_act(s, verb, args, ev)
        elif verb == "crush":
            LS.crush(self, s, args[0], ev)
        elif action == DD.HIT_ALL:
            DD.resolve_together(self, s, ev)
            self._after_attack(s, ev)
        elif verb == "hit":
            pick = args[1] if len(args) > 1 else None
            self._resolve_attack(s, self._char(s, args[0]), ev, pick=pick)
            self._after_attack(s, ev)

    # ----- chance -----------------------------------------------------------------
    def chance_outcomes(self, s: DarkCastleState) -> list[tuple[str, float]]:
        p = s.pending
        kind = p["kind"] if p else ""
        if kind == "deal":
            return _uniform(sorted(set(C.FLAWS) - set(s.flaws.values())))
        if kind == "start":
            return _uniform(C.in_sets(C.STARTS, ["core", "collector"][: 1 + self._collector(s)]))
        if kind == "chapter":
            left = [c for c in C.in_sets(C.CHAPTERS, self._chapter_sets(s)) if c not in s.used]
            if s.opts.get("castle") == "pack-numbered":
                sets = self._chapter_sets(s)
                first = min(left, key=lambda c: (sets.index(C.CHAPTERS[c]["set"]),
                                                 C.CHAPTERS[c].get("n", 0), c))  # fmt: skip
                return [(first, 1.0)]
            return _uniform(left)
        if kind == "boss":
            sets = self._chapter_sets(s)
            if sets != ["core"] and "core" not in sets:
                return _uniform(sorted(C.SUPPLEMENTS[p]["boss"] for p in sets))
            extra = ["collector"] if self._collector(s) else []  # more bosses, shuffled in
            return _uniform(C.in_sets(C.BOSSES, sets + extra))
        if kind == "death":
            return DD.outcomes(p["n"])
        if kind == "stone":
            return C.die_outcomes(LS.STONE_DIE)
        if kind in ("dice", "gamble"):
            return C.chapter_dice_outcomes(p.get("n", 1))
        if kind == "roll":
            if self._cult_die(s, p["char"]):
                return C.die_outcomes(C.CULT_DIE)
            return C.die_outcomes(C.CHARACTERS[s.chars[p["char"]]["who"]]["faces"])
        if kind == "item":
            return _uniform(self._deck(s))
        if kind == "plague":
            return C.die_outcomes(C.PLAGUE_DIE)
        if kind == "spell":
            return C.die_outcomes(C.SPELL_DIE)
        return []

    def _held(self, s: DarkCastleState) -> set[str]:
        """Cards out of the deck and not in the discard pile: carried, stored, cursing, on
        the table."""
        held = {i for c in s.chars for i in c["items"] + c.get("curses", []) + c.get("stored", [])}
        return held | set(s.pool)

    def _deck(self, s: DarkCastleState) -> list[str]:
        """The item deck: never dealt since its last shuffle; when it is empty, the discard
        pile (dealt, and neither carried nor on the table) is what gets shuffled next."""
        held = self._held(s)
        deck = sorted(set(C.in_sets(C.ITEMS, self._item_sets(s))) - set(s.dealt) - held)
        return deck or sorted(set(s.dealt) - held)

    def _chance(self, s: DarkCastleState, outcome: str, ev: list[Event]) -> None:
        p = s.pending
        kind = p["kind"]
        s.pending = None
        if kind == "deal":
            who = next(w for w in self._prisoners(s) if w not in s.flaws)
            s.flaws[who] = outcome
            if all(w in s.flaws for w in self._prisoners(s)):
                ev.append(Event("Flaws are dealt: " + "; ".join(
                    f"{C.CHARACTERS[w]['title']}: {C.FLAWS[f]['name']}" for w, f in s.flaws.items()
                ) + "."))  # fmt: skip
                s.pending = {"kind": "pick"}
            else:
                s.pending = {"kind": "deal"}
        elif kind == "start":
            s.start = outcome
            self._open_card(s, outcome, ev)
        elif kind in ("chapter", "boss"):
            if kind == "chapter":
                s.used.append(outcome)
            self._open_card(s, outcome, ev)
        elif kind == "dice":
            s.combat["row"] = sorted(s.combat["row"] + list(outcome), key=DD.row_key)
            ev.append(Event(f"The chapter dice add {_faces(outcome)} to the enemy's row."))
            if p.get("then") == "round":
                self._round_start(s, ev)
            else:
                self._combat_ready(s, ev)
        elif kind == "stone":
            LS.rolled(self, s, p["char"], outcome, ev)
        elif kind == "death":
            DD.add_rolled(s, outcome, ev)
            self._combat_ready(s, ev)
        elif kind == "gamble":
            ev.append(Event(f"The chapter die shows {C.TRAIT_NAMES[outcome]}."))
            self._push(s, p["card"], [*p["path"], outcome], p["ctx"])
        elif kind == "roll":
            black = outcome.startswith("black ")
            self._rolled(s, p, outcome.removeprefix("black "), ev, black=black)
        elif kind == "item":
            if outcome in s.dealt:  # the deck ran out: the discard pile became the deck
                s.dealt = sorted(self._held(s))
                ev.append(Event("The item deck is spent: the discard pile is shuffled anew."))
            s.dealt.append(outcome)
            roll_for = None
            again = 0
            if C.is_companion_card(outcome):
                again = self._companion_card(s, p.get("by", -1), outcome, ev)
            elif C.is_curse(outcome):
                self._curse(s, p["by"], outcome, ev)
            elif C.is_plague_card(outcome):
                roll_for = self._plague_card(s, p["by"], outcome, ev)
            else:
                s.pool.append(outcome)
                if p.get("tainted"):
                    s.tainted.append(outcome)
                ev.append(Event(f"Item drawn: {C.ITEMS[outcome]['name']}."))
            if s.outcome:
                return
            if p["n"] - 1 + again > 0 and self._deck(s):
                self._draw(s, p["n"] - 1 + again, tainted=p.get("tainted", False))
            elif s.pool:
                s.pending = {"kind": "share"}
            if roll_for is not None:
                s.pending = {"kind": "plague", "char": roll_for, "after": s.pending}
        elif kind == "spell":
            self._spell_cast(s, p, outcome, ev)
        elif kind == "plague":
            if p.get("frame"):
                s.frames[-1]["queue"].pop(0)
            self._gain_plague(s, p["char"], int(outcome), ev, rolled=True)
            if not s.outcome:
                s.pending = p.get("after")

    def _open_card(self, s: DarkCastleState, card_id: str, ev: list[Event]) -> None:
        card = C.ALL_CARDS[card_id]
        s.card = card_id
        s.frames = []
        ev.append(Event(f"{card['title']}: {card['text']}", kind="scene"))
        asks = X.card_asks(card, len(s.chars))
        if asks:
            ev.append(Event("It asks: " + " ".join(asks), kind="asks"))
        self._push(s, card_id, ["steps"], s.turner)

    # ----- the interpreter --------------------------------------------------------
    def _step_at(self, card_id: str, path: list) -> dict:
        return C.steps_at(C.ALL_CARDS[card_id], path)

    def _push(self, s: DarkCastleState, card_id: str, path: list, ctx: int) -> None:
        s.frames.append({"k": "seq", "card": card_id, "path": path, "pc": 0, "ctx": ctx})

    def _run(self, s: DarkCastleState, ev: list[Event]) -> None:
        """Carry out steps until a decision or a chance is needed, or the game ends."""
        while s.pending is None and not s.outcome:
            if not s.frames:
                self._card_done(s, ev)
                continue
            frame = s.frames[-1]
            if frame["k"] == "test":
                s.pending = self._roll_pending(s, frame["ctx"], "test")
                continue
            if frame["k"] == "proll":
                if frame["queue"]:
                    s.pending = {"kind": "plague", "char": frame["queue"][0], "frame": True}
                else:
                    s.frames.pop()
                continue
            if frame["k"] == "gtest":
                if frame["queue"]:
                    s.pending = self._roll_pending(s, frame["queue"][0], "gtest")
                else:
                    self._finish_group_test(s, ev)
                continue
            steps = C.steps_at(C.ALL_CARDS[frame["card"]], frame["path"])
            if frame["pc"] >= len(steps):
                s.frames.pop()
                continue
            frame["pc"] += 1
            path = [*frame["path"], frame["pc"] - 1]
            self._step(s, steps[frame["pc"] - 1], frame["card"], path, frame["ctx"], ev)

    def _card_done(self, s: DarkCastleState, ev: list[Event]) -> None:
        card = C.ALL_CARDS[s.card]
        if card["kind"] == "boss":
            s.outcome = "won"
            ev.append(Event("The boss falls. The gate groans open: you escape the Dark Castle!"))
            if self._collector(s):
                ev.append(Event("Epilogue: " + C.EPILOGUES["collector"]["won"], kind="epilogue"))
            return
        if card["kind"] == "chapter":
            left = CASTLE_CHAPTERS - len(s.used)
            remain = f"{left} chapter remains" if left == 1 else f"{left} chapters remain"
            ev.append(Event(f"Chapter complete. {remain} before the boss."))
        s.pending = {"kind": "between"}

    def _targets(self, s: DarkCastleState, who: str, ctx: int) -> list[int]:
        every = list(range(len(s.chars)))
        if who == "you":
            return [s.turner] if s.turner >= 0 else [] if s.turner == -2 else every
        if who == "others":
            return [k for k in every if k != s.turner]
        if who == "it":
            return [ctx] if ctx >= 0 else [] if ctx == -2 else [0]  # -2: a companion gone
        if who == "weakest":
            return [min(every, key=lambda k: (s.chars[k]["hp"], k))]
        if who == "strongest":
            return [max(every, key=lambda k: (s.chars[k]["hp"], -k))]
        return every

    def _step(self, s, step: dict, card: str, path: list, ctx: int, ev: list[Event]) -> None:
        kind = step["do"]
        if step.get("text") and kind != "choose":
            ev.append(Event(step["text"]))
        who = step.get("who", "you")
        if kind == "damage":
            for k in self._targets(s, who, ctx):
                extra = 1 if step.get("cultist") and self._marked(s, k) else 0
                self._hurt(s, k, step["n"] + extra, ev)
            self._check_death(s, ev)
        elif kind == "heal":
            for k in self._targets(s, who, ctx):
                gained = self._heal(s, k, step["n"])
                ev.append(Event(f"{self._name(s, k)} gains {gained} HP."))
        elif kind == "draw":
            n = len(s.chars) if step["n"] == "per_player" else step["n"]
            self._draw(s, n)
        elif kind == "lose_item":
            self._lose_items(s, step, ctx, ev)
        elif kind == "test":
            if who == "chosen":
                s.pending = {"kind": "send", "card": card, "path": path}
                return
            targets = list(range(len(s.chars))) if who == "each" else self._targets(s, who, ctx)
            for k in reversed(targets):
                self._push_test(s, card, path, k)
        elif kind == "group_test":
            s.frames.append(
                {"k": "gtest", "card": card, "path": path, "ctx": ctx,
                 "queue": list(range(len(s.chars))), "sum": 0}
            )  # fmt: skip
        elif kind == "choose":
            if step.get("text"):
                ev.append(Event(step["text"]))
            s.pending = {"kind": "choose", "card": card, "path": path, "ctx": ctx}
        elif kind == "gamble":
            s.pending = {"kind": "gamble", "n": 1, "card": card, "path": path, "ctx": ctx}
        elif kind == "if_item":
            branch = "then" if step["needs"] in self._tags(s) else "else"
            if branch in step:
                self._push(s, card, [*path, branch], ctx)
            if step.get("spend") and branch == "then":
                self._spend_tag(s, step["needs"], ev)
        elif kind == "combat":
            self._start_combat(s, step, card, path, ev)
        elif kind == "plague":
            targets = self._targets(s, who, ctx)
            if "n" in step:
                for k in targets:
                    self._gain_plague(s, k, step["n"], ev)
            else:
                s.frames.append({"k": "proll", "card": card, "path": path, "ctx": ctx,
                                 "queue": targets})  # fmt: skip
        elif kind == "cure":
            for k in self._targets(s, who, ctx):
                self._cure(s, k, step.get("n", 1), ev)

    # ----- hit points, items ------------------------------------------------------
    def _hurt(self, s: DarkCastleState, k: int, n: int, ev: list[Event]) -> None:
        if n <= 0:
            return
        if self._immune(s, k):  # a spirit companion: no damage touches it
            ev.append(Event(f"{self._name(s, k)} is untouched: no blow can harm a spirit."))
            return
        char = s.chars[k]
        before = self._cult_die(s, k)
        char["hp"] = max(0, char["hp"] - n)
        ev.append(Event(f"{self._name(s, k)} loses {n} HP ({char['hp']} left).", kind="damage"))
        if char["hp"] > 0 and not before and self._cult_die(s, k):
            ev.append(Event(f"{self._name(s, k)} falls below half health and yields to the "
                            "cult: the cult die replaces theirs."))  # fmt: skip

    def _check_death(self, s: DarkCastleState, ev: list[Event]) -> None:
        self._companions_leave(s, ev)  # a companion at 0 HP leaves; the game goes on
        dead = [k for k, c in enumerate(s.chars) if c["hp"] <= 0]
        if dead and not s.outcome:
            s.outcome = "lost"
            s.pending = None
            who = " and ".join(self._name(s, k) for k in dead)
            ev.append(Event(f"{who} dies. The castle keeps its prisoners: the escape has failed."))
            if self._collector(s):
                ev.append(Event("Epilogue: " + C.EPILOGUES["collector"]["lost"], kind="epilogue"))

    def _heal(self, s: DarkCastleState, k: int, n: int) -> int:
        """Never above the start; a marked prisoner back at half health takes their own die
        back (the cult die is worked out from HP, so nothing else needs doing)."""
        char = s.chars[k]
        before = char["hp"]
        char["hp"] = min(self._cap(s, k), char["hp"] + n)
        return char["hp"] - before

    def _draw(self, s: DarkCastleState, n: int, tainted: bool = False) -> None:
        """Draw n item cards (tainted: the loot of a carrier, passing plague when taken)."""
        if n > 0 and self._deck(s):
            kind = "drawer" if self._curses_in_play(s) else "item"
            s.pending = {"kind": kind, "n": n}
            if tainted:
                s.pending["tainted"] = True

    # ----- plague (Blight of the Plague Lord) -----------------------------------------
    def _plague_card(self, s: DarkCastleState, k: int, card_id: str, ev: list[Event]) -> int | None:
        """A plague card hits whoever drew it, then is discarded; returns who must roll."""
        card = C.ITEMS[card_id]
        effect = card["plague"]
        ev.append(Event(f"Plague! {self._name(s, k)} draws {card['name']}: {card['text']}",
                        kind="plague"))  # fmt: skip
        if self._companion(s, k):  # it still rolls if the card says so, to no effect
            ev.append(Event(f"It has no hold on {self._name(s, k)}: a companion is unaffected."))
            return k if effect.get("roll") else None
        if effect.get("hurt"):
            self._hurt(s, k, effect["hurt"], ev)
            self._check_death(s, ev)
        if effect.get("gain") and not s.outcome:
            self._gain_plague(s, k, effect["gain"], ev)
        return k if effect.get("roll") and not s.outcome else None

    def _gain_plague(self, s: DarkCastleState, k: int, n: int, ev: list[Event],
                     rolled: bool = False) -> None:  # fmt: skip
        """Plague only grows by rolls and cards; each threshold reached costs HP at once,
        even mid-combat."""
        char = s.chars[k]
        if self._companion(s, k):  # companions roll for plague, to no effect
            ev.append(
                Event(f"{self._name(s, k)} shrugs off the plague: a companion is unaffected.")
            )
            return
        before = char.get("plague", 0)
        char["plague"] = before + n
        how = f"rolls {n} on the plague die" if rolled else f"gains {n} plague"
        ev.append(Event(f"{self._name(s, k)} {how} ({char['plague']} plague).", kind="plague"))
        for threshold, loss in C.PLAGUE_THRESHOLDS:
            if before < threshold <= char["plague"]:
                ev.append(Event(f"{self._name(s, k)} reaches plague {threshold}."))
                self._hurt(s, k, loss, ev)
        self._check_death(s, ev)

    def _cure(self, s: DarkCastleState, k: int, n: int, ev: list[Event]) -> None:
        char = s.chars[k]
        lost = min(n, char.get("plague", 0))
        char["plague"] = char.get("plague", 0) - lost
        if lost:
            ev.append(Event(f"{self._name(s, k)} loses {lost} plague ({char['plague']} left)."))

    def _check_knapsacks(self, s: DarkCastleState, ev: list[Event]) -> None:
        """Items stored in a knapsack that has gone (lost, discarded) go with it."""
        for k, char in enumerate(s.chars):
            has = any(C.has_effect(i, "knapsack") for i in char["items"])
            if char.get("stored") and not has:
                names = ", ".join(C.ITEMS[i]["name"] for i in char["stored"])
                char["stored"] = []
                ev.append(Event(f"With the knapsack {self._name(s, k)} loses: {names}."))

    # ----- curses (Cult of the Death Knight) ------------------------------------------
    def _curse(self, s: DarkCastleState, k: int, curse_id: str, ev: list[Event]) -> None:
        """A curse drawn by character k sits beside them (not an item, no hand) and stays
        unless the card says otherwise."""
        card = C.ITEMS[curse_id]
        curse = card["curse"]
        ev.append(Event(f"A curse! {self._name(s, k)} draws {card['name']}: {card['text']}",
                        kind="curse"))  # fmt: skip
        if self._companion(s, k):  # a companion may be cursed, to no effect
            ev.append(Event(f"It has no hold on {self._name(s, k)}: the curse is discarded."))
            return
        s.chars[k].setdefault("curses", []).append(curse_id)
        if curse.get("now"):
            self._hurt(s, k, curse["now"], ev)
            self._check_death(s, ev)
        if curse.get("lift") == "now":
            s.chars[k]["curses"].remove(curse_id)
        if curse.get("marked") and self._cult_die(s, k):
            ev.append(Event(f"{self._name(s, k)} is below half health: the cult die takes over."))

    def _lift(self, s: DarkCastleState, when: str, who: list[int], ev: list[Event]) -> None:
        for k in who:
            for curse_id in list(s.chars[k].get("curses", [])):
                if C.ITEMS[curse_id]["curse"].get("lift") == when:
                    s.chars[k]["curses"].remove(curse_id)
                    name = C.ITEMS[curse_id]["name"]
                    ev.append(Event(f"The curse {name} lifts from {self._name(s, k)}."))

    def _discard_pool(self, s: DarkCastleState, ev: list[Event]) -> None:
        if s.pool:
            names = ", ".join(C.ITEMS[i]["name"] for i in s.pool)
            ev.append(Event(f"Left behind: {names}."))
            s.pool = []
        s.tainted = []

    def _spend_tag(self, s: DarkCastleState, tag: str, ev: list[Event]) -> None:
        """Use up one item with the tag; where the party has several, it chooses which."""
        found = [
            (k, item)
            for k, c in enumerate(s.chars)
            for item in c["items"]
            if tag in C.ITEMS[item].get("tags", [])
        ]
        if len(found) > 1:
            s.pending = {"kind": "discard", "char": found[0][0], "party": True, "tag": tag}
            return
        for k, item in found:
            s.chars[k]["items"].remove(item)
            ev.append(Event(f"{self._name(s, k)} gives up {_the(item)}."))

    def _lose_items(self, s: DarkCastleState, step: dict, ctx: int, ev: list[Event]) -> None:
        who = step.get("who", "you")
        if who == "party":
            holders = [k for k, c in enumerate(s.chars) if c["items"]]
            if holders:  # the group decides whose item goes
                s.pending = {"kind": "discard", "char": holders[0], "party": True}
            return
        for k in self._targets(s, who, ctx):
            char = s.chars[k]
            if not char["items"]:
                continue
            if step.get("what") == "all":
                names = ", ".join(C.ITEMS[i]["name"] for i in char["items"])
                char["items"] = []
                ev.append(Event(f"{self._name(s, k)} loses everything carried: {names}."))
            else:
                s.pending = {"kind": "discard", "char": k}
                return

    def _use(
        self, s: DarkCastleState, item_id: str, ev: list[Event], target: int | None = None
    ) -> None:
        k = next(k for k, c in enumerate(s.chars) if item_id in self._tools(s, k))
        item = C.TOOLS[item_id]
        char = s.chars[k]
        on = f" on {self._name(s, target)}" if target is not None else ""
        what = "flaw" if item_id in C.FLAWS else "item"
        ev.append(Event(f"{self._name(s, k)} uses the {what} {item['name']}{on}."))
        when = s.pending["kind"]
        if item_id in C.FLAWS:
            char["flaw_used"] = True
        elif item.get("uses") == "discard":
            char["items"].remove(item_id)
        elif item.get("uses") == "chapter":
            char["spent"].append(item_id)
        for effect in item.get("effects", []):
            kind = effect["k"]
            if kind == "heal":
                targets = (
                    range(len(s.chars)) if effect.get("all") else [k if target is None else target]
                )
                for t in targets:
                    gained = self._heal(s, t, effect["n"])
                    ev.append(Event(f"{self._name(s, t)} gains {gained} HP."))
                continue
            if kind == "cure":
                self._cure(s, k if target is None else target, effect["n"], ev)
                continue
            if when == "react" and kind == "reroll":
                s.pending = {"kind": "roll", "char": k, "for": "test"}
                return
            if when == "react" and kind == "become":
                char["roll"] = effect["face"]
                ev.append(Event(f"The roll now counts as {_faces(effect['face'])}."))
                if self._passes(s, k, char["roll"]):
                    s.pending = None
                    self._finish_test(s, ev)
                return
            if when == "attack":
                cb = s.combat
                if kind == "reroll":
                    s.pending = {"kind": "roll", "char": k, "for": "combat"}
                    cb["queue"] = [k]
                    return
                if kind == "become":
                    cb["rolls"][str(k)] = char["roll"] = effect["face"]
                    ev.append(Event(f"The attack now counts as {_faces(effect['face'])}."))
                    return
                if kind == "strike":
                    cb["row"].remove(effect["trait"])
                    ev.append(Event(f"One {C.TRAIT_NAMES[effect['trait']]} die is struck away."))
                    self._after_attack(s, ev)
                    return
                if kind == "block":
                    cb["blocked"].append(k)
                    ev.append(Event(f"{self._name(s, k)} will block this round."))
                    return
                if kind == "stone":
                    s.pending = {"kind": "stone", "char": k}
                    return

    # ----- tests ------------------------------------------------------------------
    def _push_test(self, s: DarkCastleState, card: str, path: list, k: int) -> None:
        step = self._step_at(card, path)
        attempts = step.get("attempts", 1)
        s.frames.append({"k": "test", "card": card, "path": path, "ctx": k, "left": attempts})

    def _face_traits(self, s: DarkCastleState, k: int, face: str) -> set[str]:
        traits = set(face)
        for item in s.chars[k]["items"]:
            for effect in C.ITEMS[item].get("effects", []):
                if effect["k"] == "alias" and effect["from"] in traits:
                    traits.add(effect["to"])
        return traits

    def _passes(self, s: DarkCastleState, k: int, face: str) -> bool:
        frame = s.frames[-1] if s.frames else None
        if not face or not frame or frame["k"] != "test":
            return False
        step = self._step_at(frame["card"], frame["path"])
        face = self._test_face(s, k, face, step["trait"])
        if step.get("double") and len(face) < 2:
            return False
        return bool(self._face_traits(s, k, face) & set(step["trait"]))

    def _rolled(
        self, s: DarkCastleState, p: dict, face: str, ev: list[Event], black: bool = False
    ) -> None:
        k = p["char"]
        s.chars[k]["roll"] = face
        die = (" on the cult die, a black face" if black else " on the cult die") if (
            self._cult_die(s, k)) else ""  # fmt: skip
        ev.append(Event(f"{self._name(s, k)} rolls {_faces(face)}{die}.", kind="roll"))
        if p["for"] == "combat":
            cb = s.combat
            cb["queue"].remove(k)
            if black:  # the cult takes them: their die joins the enemy's row until hit away
                cb["row"] = sorted(cb["row"] + [face], key=DD.row_key)
                cb["fighters"].remove(k)
                cb["turned"].append(k)
                s.chars[k]["roll"] = ""
                ev.append(Event(f"The cult takes {self._name(s, k)}: the die joins the enemy's "
                                "row and must be hit away; they sit out this combat."))  # fmt: skip
            else:
                cb["rolls"][str(k)] = face
            if cb["queue"]:
                s.pending = self._roll_pending(s, cb["queue"][0], "combat")
            elif not [j for j in cb["fighters"] if j not in cb["done"]]:
                self._after_attack(s, ev)
            else:
                s.pending = {"kind": "attack"}
                self._auto_attack(s, ev)
            return
        if p["for"] == "gtest":
            frame = s.frames[-1]
            step = self._step_at(frame["card"], frame["path"])
            frame["queue"].pop(0)
            face = self._test_face(s, k, face, step["trait"])
            frame["sum"] += sum(1 for t in face if t == step["trait"])
            return
        if not self._passes(s, k, face) and self._usable(s, k, "test"):
            s.pending = {"kind": "react", "char": k}
            return
        self._finish_test(s, ev)

    def _finish_test(self, s: DarkCastleState, ev: list[Event]) -> None:
        frame = s.frames[-1]
        k = frame["ctx"]
        step = self._step_at(frame["card"], frame["path"])
        path = frame["path"]
        if self._passes(s, k, s.chars[k]["roll"]):
            s.frames.pop()
            ev.append(Event(f"{self._name(s, k)} succeeds."))
            if "pass" in step:
                self._push(s, frame["card"], [*path, "pass"], k)
            return
        why = X.fail_reason(step, s.chars[k]["roll"])
        more = frame["left"] - 1
        tail = f" ({_attempts_left(more)})" if frame["left"] > 1 else ""
        if frame["left"] == 0:
            tail = " (again until it succeeds)"
        ev.append(Event(f"{self._name(s, k)} fails: {why}{tail}."))
        if frame["left"] > 0:
            frame["left"] -= 1
            if frame["left"] == 0:  # the last attempt: the test is over
                s.frames.pop()
                if "fail" in step:
                    self._push(s, frame["card"], [*path, "fail"], k)
        # The cost of every failure, the last one too, is paid before the final outcome.
        if "fail_each" in step:
            self._push(s, frame["card"], [*path, "fail_each"], k)

    def _finish_group_test(self, s: DarkCastleState, ev: list[Event]) -> None:
        frame = s.frames.pop()
        step = self._step_at(frame["card"], frame["path"])
        need = ceil(step["need"] * (len(s.chars) if step.get("per_player") else 1))
        ok = frame["sum"] >= need
        trait = C.TRAIT_NAMES[step["trait"]]
        ev.append(Event(f"Together: {frame['sum']} {trait} rolled, {need} needed."))
        branch = "pass" if ok else "fail"
        if branch in step:
            self._push(s, frame["card"], [*frame["path"], branch], frame["ctx"])

    # ----- combat -----------------------------------------------------------------
    def _has_special(self, s: DarkCastleState, kind: str) -> dict | None:
        if not s.combat:
            return None
        return next((sp for sp in s.combat["specials"] if sp["k"] == kind), None)

    def _start_combat(self, s, step: dict, card: str, path: list, ev: list[Event]) -> None:
        phases = C.combat_steps(C.ALL_CARDS[card])
        s.combat = {
            "name": step["name"],
            "row": sorted(step.get("dice", ""), key=DD.row_key),
            "attack": step["attack"],
            "specials": [dict(sp) for sp in step.get("specials", [])],
            "loot": step.get("loot", True),
            "phase": next((i for i, ph in enumerate(phases) if ph is step), 0) + 1,
            "phases": len(phases),
            "round": 0,
            "rester": -1,
            "fighters": [],
            "queue": [],
            "rolls": {},
            "done": [],
            "blocked": [],
            "wounded": [],
            "cultist": step.get("cultist", False),
            "carrier": step.get("carrier", False),
            "turned": [],  # Marked for Death prisoners whose black cult face joined the row
            "grown": 0,
            "text": step.get("text", ""),
        }
        ev.append(Event(f"Combat! {step['name']} (attack {step['attack']}).", kind="combat"))
        party = self._prisoner_count(s) if step.get("prisoners_only") else len(s.chars)
        n = step.get("per_player", 0) * party
        death = self._collector(s) and DD.marked(C.ALL_CARDS[card], step)
        if n:
            s.pending = {"kind": "death" if death else "dice", "n": n}
        else:
            self._combat_ready(s, ev)

    def _combat_ready(self, s: DarkCastleState, ev: list[Event]) -> None:
        for kind, who in (("ambush", "all"), ("ambush_you", "you")):
            spec = self._has_special(s, kind)
            if spec:
                for k in self._targets(s, who, s.turner):
                    self._hurt(s, k, spec.get("n", 1), ev)
                self._check_death(s, ev)
        if not s.outcome:
            self._round_start(s, ev)

    def _round_start(self, s: DarkCastleState, ev: list[Event]) -> None:
        cb = s.combat
        cb["round"] += 1
        cb["rester"] = -1
        flee = self._has_special(s, "flees")
        if flee and cb["round"] > flee.get("n", 3):
            ev.append(Event(f"{cb['name']} flees into the dark. Nothing is won."))
            s.combat = None
            s.pending = None
            return
        if len(s.chars) > 1 and not self._has_special(s, "no_rest"):
            s.pending = {"kind": "rest"}
        else:
            self._begin_rolls(s)

    def _begin_rolls(self, s: DarkCastleState) -> None:
        cb = s.combat
        turned = cb.get("turned", [])
        cb["fighters"] = [k for k in range(len(s.chars)) if k != cb["rester"] and k not in turned]
        # A prisoner on the cult die rolls (and resolves) first.
        cb["queue"] = sorted(cb["fighters"], key=lambda k: not self._cult_die(s, k))
        cb["rolls"] = {}
        cb["done"] = []
        cb["blocked"] = []
        for c in s.chars:
            c["roll"] = ""
        s.pending = self._roll_pending(s, cb["queue"][0], "combat")

    def _auto_attack(self, s: DarkCastleState, ev: list[Event]) -> None:
        """The last attack of a round resolves itself when nobody has an item to use first."""
        cb = s.combat
        while s.pending == {"kind": "attack"} and s.combat is cb:
            left = [k for k in cb["fighters"] if k not in cb["done"]]
            if any(self._usable(s, k, "combat") for k in cb["fighters"]):
                return
            if DD.pairing_needed(cb["row"]):  # the round's results combine: all at once
                DD.resolve_together(self, s, ev)
                self._after_attack(s, ev)
                continue
            if len(left) != 1:
                return
            self._resolve_attack(s, left[0], ev)
            self._after_attack(s, ev)

    def _resolve_attack(
        self, s: DarkCastleState, k: int, ev: list[Event], pick: str | None = None
    ) -> None:
        cb = s.combat
        face = cb["rolls"][str(k)]
        cb["done"].append(k)
        if face == C.SPECIAL_FACE:  # a companion's special (undead.py)
            self._special_roll(s, k, ev)
            return
        double = len(face) == 2
        hits = list(face)
        if double and self._has_special(s, "doubles_single"):
            # A split double counting as a single: the roller picks which trait (by default
            # one that hits).
            best = next((t for t in face if t in cb["row"]), face[0])
            hits = [pick or best]
        armour = self._has_special(s, "armoured")
        if not double:
            if armour and armour["trait"] == face:
                hits = []
            elif any(
                e["k"] == "double" and e["trait"] == face
                for i in s.chars[k]["items"]
                for e in C.ITEMS[i].get("effects", [])
            ):
                hits = [face, face]
        removed = []
        for t in hits:
            if t in cb["row"]:
                cb["row"].remove(t)
                removed.append(t)
        blocks = double and not any(c.get("noblock") for c in self._curses(s, k))
        if blocks:
            cb["blocked"].append(k)
        what = f"hits {_faces(''.join(removed))}" if removed else "misses"
        block = " and blocks" if blocks else ""
        ev.append(Event(f"{self._name(s, k)} {what}{block}.", kind="attack"))

    def _after_attack(self, s: DarkCastleState, ev: list[Event]) -> None:
        cb = s.combat
        if not cb["row"]:
            self._combat_won(s, ev)
            return
        if all(k in cb["done"] for k in cb["fighters"]):
            self._defend(s, ev)
        else:
            s.pending = {"kind": "attack"}
            self._auto_attack(s, ev)

    def _defend(self, s: DarkCastleState, ev: list[Event]) -> None:
        cb = s.combat
        focus = self._has_special(s, "focus_you")
        pierce = self._has_special(s, "pierce")
        hurt = 0
        for k in cb["fighters"]:
            if focus and k != s.turner:
                continue
            if k in cb["blocked"]:
                dmg = pierce.get("n", 1) if pierce else 0
            else:
                dmg = cb["attack"] + (focus.get("n", 1) if focus else 0)
            if dmg > 0:  # armour softens every enemy blow, a piercing one too
                dmg -= sum(
                    e.get("n", 1)
                    for i in s.chars[k]["items"]
                    for e in C.ITEMS[i].get("effects", [])
                    if e["k"] == "ward"
                )
                dmg += sum(c.get("frail", 0) for c in self._curses(s, k))
                if cb.get("cultist") and self._marked(s, k):
                    dmg += 1  # Marked for Death: cultists hurt 1 HP more
            if dmg > 0:
                hurt += 1
                self._hurt(s, k, dmg, ev)
                if k not in cb["wounded"]:
                    cb["wounded"].append(k)
                masked = any(C.has_effect(i, "mask") for i in s.chars[k]["items"])
                if cb.get("carrier") and k not in cb["blocked"] and not masked:
                    self._gain_plague(s, k, 1, ev)  # a hit from a carrier passes plague
        if not hurt:
            ev.append(Event(f"{cb['name']} strikes, but nobody is hurt."))
        self._check_death(s, ev)
        if s.outcome:
            return
        rage = self._has_special(s, "rage")
        if rage and cb["attack"] < rage.get("max", 99):
            cb["attack"] += 1
        regrow = self._has_special(s, "regrow")
        if regrow and cb["grown"] < regrow.get("max", 3):
            n = min(regrow.get("n", 1), regrow.get("max", 3) - cb["grown"])
            cb["grown"] += n
            s.pending = {"kind": "dice", "n": n, "then": "round"}
            return
        self._round_start(s, ev)

    def _combat_won(self, s: DarkCastleState, ev: list[Event]) -> None:
        cb = s.combat
        ev.append(Event(f"{cb['name']} is defeated!", kind="victory"))
        venom = self._has_special(s, "venom")
        s.combat = None
        s.pending = None
        self._lift(s, "combat", list(range(len(s.chars))), ev)
        if venom:
            for k in cb["wounded"]:
                self._hurt(s, k, venom.get("n", 1), ev)
            self._check_death(s, ev)
            if s.outcome:
                return
        if cb["loot"]:
            extra = sum(C.COMPANIONS[c["who"]].get("loot", 0) for c in s.chars
                        if c["who"] in C.COMPANIONS)  # fmt: skip
            self._draw(s, 1 + extra, tainted=cb.get("carrier", False))

    # ----- views, results, labels -------------------------------------------------
    def view(self, s: DarkCastleState, seat: Seat | None) -> dict:
        """Everything is public in this co-operative game (the decks are undrawn chance)."""
        card = C.ALL_CARDS.get(s.card)
        p = s.pending or {}
        view: dict = {
            "game": self.id,
            "names": list(s.names),
            "to_act": self.to_act(s),
            "phase": s.outcome or p.get("kind", ""),
            "outcome": s.outcome,
            "hp_start": s.hp_start,
            "castle": self._castle_title(s),
            "chapters_left": CASTLE_CHAPTERS - len(s.used),
            "chapters_turned": len(s.used),
            "turner": s.chars[s.turner]["who"] if s.turner >= 0 else "",
            "chars": [self._char_view(s, k) for k in range(len(s.chars))],
            "card": None,
            "combat": None,
            "pool": [_item_view(i) for i in s.pool],
            "prompt": self._prompt(s),
            "options": [],
            "log": list(s.log),
            "last": s.last,
            "viewer": seat,
        }
        if card:
            view["card"] = {
                "id": card["id"],
                "kind": card["kind"],
                "title": card["title"],
                "text": card["text"],
                "asks": X.card_asks(card, len(s.chars)),
                "pack": C.SUPPLEMENTS.get(card["set"], {}).get("title", ""),
            }
        view["asking"] = self._asking(s)
        view["relics"] = self._relics_view(s)
        view["epilogue"] = (
            C.EPILOGUES["collector"][s.outcome] if s.outcome and self._collector(s) else ""
        )
        if not s.card and s.flaws:  # before choosing: the flaws dealt onto the characters
            view["flaws"] = {w: _flaw_view({"flaw": f}) for w, f in s.flaws.items()}
        view["ending"] = self.result(s).summary if s.outcome else ""
        if p.get("kind") == "choose":
            step = self._step_at(p["card"], p["path"])
            open_ = self._options(s, step)
            view["options"] = [
                {
                    "n": i + 1,
                    "label": o["label"],
                    "cost": X.option_cost(o, len(s.chars)),
                    "open": i in open_,
                }
                for i, o in enumerate(step["options"])
            ]
        if s.combat:
            cb = s.combat
            view["combat"] = {
                "name": cb["name"],
                "text": cb["text"],
                "row": list(cb["row"]),
                "attack": cb["attack"],
                "round": cb["round"],
                "phase": cb["phase"],
                "phases": cb["phases"],
                "boss": card is not None and card["kind"] == "boss",
                "specials": [C.describe_special(sp) for sp in cb["specials"]],
                "rester": s.chars[cb["rester"]]["who"] if cb["rester"] >= 0 else "",
                "done": [s.chars[k]["who"] for k in cb["done"]],
                "blocked": [s.chars[k]["who"] for k in cb["blocked"]],
                "turned": [s.chars[k]["who"] for k in cb.get("turned", [])],
                "cultist": cb.get("cultist", False),
                "carrier": cb.get("carrier", False),
                "death": list(cb.get("death", [])),
                "stone": cb.get("stone", ""),
            }
        return view

    def _castle_title(self, s: DarkCastleState) -> str:
        sets = self._chapter_sets(s)
        names = [C.SUPPLEMENTS[x]["title"] for x in sets if x in C.SUPPLEMENTS]
        if "core" in sets:
            return " + ".join(["The Dark Castle", *names])
        order = " (in number order)" if s.opts.get("castle") == "pack-numbered" else ""
        return " + ".join(names) + order

    def _asking(self, s: DarkCastleState) -> str:
        """The test now being asked, in full: who rolls, the trait, the attempts left, a double
        or not, and the cost of failing."""
        p = s.pending or {}
        if p.get("kind") == "send":
            return X.test_text(self._step_at(p["card"], p["path"]), len(s.chars))
        frame = s.frames[-1] if s.frames else None
        if not frame or frame["k"] not in ("test", "gtest") or s.combat:
            return ""
        step = self._step_at(frame["card"], frame["path"])
        if frame["k"] == "gtest":
            return X.group_test_text(step, len(s.chars))
        text = X.test_text(step, len(s.chars))
        if frame["left"] and step.get("attempts", 1) > 1:
            text += f" ({self._name(s, frame['ctx'])}: {_attempts_left(frame['left'])})"
        return text

    def _char_view(self, s: DarkCastleState, k: int) -> dict:
        c = s.chars[k]
        faces = C.CHARACTERS[c["who"]]["faces"] if c["who"] else []
        counts = {t: sum(f.count(t) for f in faces) for t in C.TRAITS}
        return {
            "who": c["who"],
            "title": C.CHARACTERS[c["who"]]["title"] if c["who"] else "",
            "player": s.names[c["seat"]] if c["seat"] >= 0 else "any player",
            "seat": c["seat"],
            "hp": c["hp"],
            "traits": counts,
            "items": [_item_view(i) for i in c["items"]],
            "roll": c["roll"],
            "curses": [_item_view(i) for i in c.get("curses", [])],
            "marked": self._marked(s, k),
            "cult_die": self._cult_die(s, k),
            "plague": c.get("plague", 0),
            "next_threshold": next(
                (list(t) for t in C.PLAGUE_THRESHOLDS if t[0] > c.get("plague", 0)), None
            ),
            "stored": [_item_view(i) for i in c.get("stored", [])],
            "flaw": _flaw_view(c),
            "companion": self._companion_view(s, k),
            "hp_max": self._cap(s, k),
            "faces": list(faces),
        }

    def _prompt(self, s: DarkCastleState) -> str:
        p = s.pending or {}
        kind = p.get("kind", "")
        if s.outcome == "won":
            return "Escaped! The party is free."
        if s.outcome == "lost":
            return "The escape has failed."
        if kind == "deal":
            return "The flaws are dealt onto the prisoners..."
        if kind == "pick":
            names = self._prisoners(s)
            return f"Choose your prisoners: pick {', '.join(names[:-1])} or {names[-1]}."
        if kind == "between":
            nxt = "the boss" if len(s.used) >= CASTLE_CHAPTERS else "the next chapter"
            return f"Trade items if you like, then decide who turns {nxt}: turn <prisoner>."
        if kind == "share":
            return "Share out the items on the table (take <item> <prisoner>), then done."
        if kind == "choose":
            return "Decide together: choose <number>."
        if kind == "drawer":
            lurking = " and ".join(
                cards for cards, pack in (("curses", "cult"), ("plague cards", "plague"))
                if s.opts.get(pack) == "on"
            )  # fmt: skip
            return (f"Who draws the next item card ({p['n']} to draw)? {lurking.capitalize()} "
                    "lurk in the deck: draw <prisoner>.")  # fmt: skip
        if kind == "send":
            return f"Who attempts it? send <prisoner>. {self._asking(s)}."
        if kind == "react":
            frame = s.frames[-1]
            why = X.fail_reason(
                self._step_at(frame["card"], frame["path"]), s.chars[p["char"]]["roll"]
            )
            return f"{self._name(s, p['char'])} failed the roll ({why}): use an item, or pass."
        if kind == "discard" and p.get("tag"):
            return f"Which {p['tag']} is used up? discard <item>."
        if kind == "discard":
            return f"{self._name(s, p['char'])} must discard an item: discard <item>."
        if kind == "rest":
            return "New combat round: may one prisoner rest? fight, or rest <prisoner>."
        if kind == "chalice":
            return (f"The blood ritual for {self._name(s, p['to'])}: give <donor> <HP> (each "
                    "keeps at least 1), then drink; or stop.")  # fmt: skip
        if kind == "cast":
            return (f"{self._name(s, p['char'])} holds the Spell Book: roll the die as usual, or "
                    "cast <spell> instead.")  # fmt: skip
        if kind == "crush":
            return "The Living Stone crushes a die of your choice: crush <die>."
        if kind == "attack" and DD.pairing_needed(s.combat["row"]):
            return "Death dice in the row: use items first, then hit all (results combine)."
        if kind == "attack":
            return "Resolve the attacks in the order you like: hit <prisoner> (items first?)."
        if kind in CHANCE_KINDS:
            return "The dice roll..."
        return ""

    def result(self, s: DarkCastleState) -> Result | None:
        if not s.outcome:
            return None
        won = s.outcome == "won"
        seats = list(range(len(s.names)))
        if won:
            summary = "The prisoners escaped the Dark Castle together!"
        else:
            card = C.ALL_CARDS.get(s.card, {})
            where = (
                f"chapter {len(s.used)} of {CASTLE_CHAPTERS}, {card.get('title', '')}"
                if card.get("kind") != "boss"
                else f"the final battle with {card['title']}"
            )
            dead = [C.CHARACTERS[c["who"]]["title"] for c in s.chars if c["hp"] <= 0 and c["who"]]
            who = " and ".join(dead) or "one of them"
            summary = f"The prisoners did not escape: {who} died in {where}."
        return Result(ranking=[seats], scores={k: float(won) for k in seats}, summary=summary)

    def describe(self, s: DarkCastleState, action: str) -> str:
        verb, *args = action.split()
        if verb in ("take", "drop", "use", "discard") and args and args[0] in C.TOOLS:
            item = C.TOOLS[args[0]]
            to = " on the" if verb == "use" else " to the"
            rest = f"{to} {args[1].title()}" if len(args) > 1 else ""
            return f"{verb.title()} {item['name']}{rest}: {item['text']}"[:100]
        if verb == "choose" and s.pending and s.pending.get("kind") == "choose":
            step = self._step_at(s.pending["card"], s.pending["path"])
            option = step["options"][int(args[0]) - 1]
            return f"{option['label']} ({X.option_cost(option, len(s.chars))})"
        if action == DD.HIT_ALL:
            return DD.HIT_ALL_LABEL
        if verb == "crush" and args:
            return f"Crush a {DD.face_name(args[0])} die"
        if verb == "hit" and len(args) == 2:
            title = C.CHARACTERS.get(args[0], {}).get("title", args[0])
            return f"Hit: {title} (as {C.TRAIT_NAMES.get(args[1], args[1])})"
        if verb == "cast" and args and args[0] in C.SPELLS:
            spell = C.SPELLS[args[0]]
            return f"Cast {spell['name']}: {spell['text']}"[:100]
        if verb == "give" and len(args) == 2:
            title = C.CHARACTERS.get(args[0], {}).get("title", args[0])
            return f"{title} gives {args[1]} HP to the chalice"
        if verb == "rite" and args:
            title = C.CHARACTERS.get(args[0], {}).get("title", args[0])
            return f"Blood ritual: {title} drinks (Ritual Chalice)"
        if verb == "drink" and s.pending and s.pending.get("kind") == "chalice":
            return f"Drink: gain {sum(s.pending['gifts'].values())} HP, the chalice is discarded"
        if verb == "roll":
            return "Roll the die (no spell)"
        if verb in ("stow", "unstow") and args and args[0] in C.ITEMS:
            where = "into the knapsack" if verb == "stow" else "out of the knapsack"
            return f"Put {_the(args[0])} {where}"
        if verb in ("pick", "turn", "send", "rest", "hit", "draw") and args:
            return f"{verb.title()}: {C.CHARACTERS.get(args[0], {}).get('title', args[0])}"
        return action.capitalize()

    def default_action(self, s: DarkCastleState, seat: Seat) -> str | None:
        """A timer keeps the castle moving: accept a roll, stop sharing, fight on, resolve the
        next attack, let the healthiest turn; a real choice is left to the players."""
        legal = self.legal_actions(s, seat)
        for safe in ("pass", "done", "fight", "roll", "stop"):
            if safe in legal:
                return safe
        kind = (s.pending or {}).get("kind")
        if kind == "crush":
            return legal[0]
        if kind == "attack":
            return next((a for a in legal if a.startswith("hit ")), None)
        if kind in ("between", "drawer"):
            best = max(range(len(s.chars)), key=lambda k: (s.chars[k]["hp"], -k))
            return f"{'turn' if kind == 'between' else 'draw'} {s.chars[best]['who']}"
        return None

    def redraw(self, s: DarkCastleState, seat: Seat, rng: random.Random) -> DarkCastleState:
        """Nothing is hidden from any seat: undrawn chapters and item cards (the curses,
        plague cards and the Collector's start cards and bosses among them) are chance, and
        every card in play is face up: items in hands, in a knapsack or on the table, curses
        beside a prisoner, flaws dealt face up. A card a supplement kept face down would be
        dealt again here with `engines.hidden.redeal`, as Haunted House deals other hands."""
        return s

    def dump(self, s: DarkCastleState) -> dict:
        """Every field is JSON already: a JSON round trip copies it many times faster than
        dataclasses.asdict (the conformance suite and the bench dump every state)."""
        return json.loads(json.dumps(vars(s)))

    def load(self, data: dict) -> DarkCastleState:
        return DarkCastleState(**data)

    def copy(self, s: DarkCastleState) -> DarkCastleState:
        return DarkCastleState(**json.loads(json.dumps(vars(s))))


def _attempts_left(n: int) -> str:
    return "1 attempt left" if n == 1 else f"{n} attempts left"


def _the(item_id: str) -> str:
    """An item card's name after "the": "the Lantern", "the Living Stone" (never "the The")."""
    name = C.ITEMS[item_id]["name"]
    return f"the {name.removeprefix('The ')}"


def _uniform(kinds: list[str]) -> list[tuple[str, float]]:
    return [(k, 1 / len(kinds)) for k in kinds]


def _faces(face: str) -> str:
    if not face:
        return "nothing"
    if face == C.SPECIAL_FACE:
        return "the special face"
    return " ".join(C.TRAIT_NAMES[t] for t in face)


def _flaw_view(char: dict) -> dict | None:
    flaw = C.FLAWS.get(char.get("flaw", ""))
    if not flaw:
        return None
    return {"id": flaw["id"], "name": flaw["name"], "text": flaw["text"],
            "used": bool(char.get("flaw_used"))}  # fmt: skip


def _item_view(item_id: str) -> dict:
    item = C.ITEMS[item_id]
    return {"id": item_id, "name": item["name"], "text": item["text"], "hands": item["hands"]}
