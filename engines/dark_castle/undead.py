"""Scourge of the Undead Queen (rulebook: "Adventure Pack 2"): companions and the two relics.

`DarkCastle` inherits these rules; `game.py` calls them at a few hooks (an item card drawn, a
death, a roll about to be made, between chapters). Read against the rulebook:

- A companion enters when its event card is drawn from the item deck, and sits in `chars`
  after the prisoners (seat -1: any player acts for it). At most one at a time: another event
  card is discarded and replaced by a fresh draw (so of several drawn at once only the first
  applies). Companions are "players" for every effect, except the dice rolled per player at
  combat set-up where a combat is marked `prisoners_only`. Curses and plague have no effect
  on them. At 0 HP a companion leaves; the game goes on.
- The Ritual Chalice: between chapters, a recipient is named (`rite cook`), donors pledge HP
  (`give smith 3`; never below 1 HP, never more in all than the recipient lacks), and
  `drink` pays the pledges and heals the recipient by the sum; the chalice is discarded.
- The Spell Book: whoever holds it, whenever they would roll their own die, may `cast` a
  spell instead (`roll` declines); the spell die decides (`cards.SPELL_DIE`).
"""

from __future__ import annotations

from engines.contract import Event
from engines.dark_castle import cards as C


class UndeadRules:
    """Companions, the Ritual Chalice and the Spell Book (mixed into `DarkCastle`)."""

    # ----- companions -------------------------------------------------------------
    def _companion(self, s, k: int) -> dict | None:
        """The companion card of character k, or None for a prisoner."""
        if 0 <= k < len(s.chars):
            return C.COMPANIONS.get(s.chars[k]["who"])
        return None

    def _companion_index(self, s) -> int | None:
        return next((k for k in range(len(s.chars)) if self._companion(s, k)), None)

    def _prisoner_count(self, s) -> int:
        return sum(1 for k in range(len(s.chars)) if not self._companion(s, k))

    def _cap(self, s, k: int) -> int:
        """The most HP character k may have: a companion's own start, else the party's."""
        comp = self._companion(s, k)
        return comp["hp"] if comp else s.hp_start

    def _immune(self, s, k: int) -> bool:
        comp = self._companion(s, k)
        return bool(comp and comp.get("immune"))

    def _companion_card(self, s, k: int, card_id: str, ev: list[Event]) -> bool:
        """An event card drawn by character k. Returns True when a replacement must be drawn
        (a companion is already in play)."""
        card = C.ITEMS[card_id]
        comp = C.COMPANIONS[card["companion"]]
        if self._companion_index(s) is not None:
            ev.append(Event(f"{card['name']}: a companion is already with you, so the card is "
                            "discarded and another drawn in its place."))  # fmt: skip
            return True
        s.chars.append({
            "who": comp["id"], "seat": -1, "hp": comp["hp"], "items": [], "roll": "",
            "spent": [], "curses": [], "plague": 0, "stored": [],
        })  # fmt: skip
        ev.append(Event(f"{card['name']}: {comp['text']} {comp['title']} joins the party "
                        f"({comp['hp']} HP; {comp['trait']})", kind="companion"))  # fmt: skip
        return False

    def _companions_leave(self, s, ev: list[Event]) -> None:
        """A companion at 0 HP leaves the party (its item goes with it); the game goes on.
        Whatever pointed at it (a YOU, a test it was taking, its place in a fight) lapses."""
        k = self._companion_index(s)
        if k is None or s.chars[k]["hp"] > 0:
            return
        ev.append(Event(f"{self._name(s, k)} falls and leaves the party. The escape goes on.",
                        kind="companion"))  # fmt: skip
        s.chars.pop(k)
        if s.turner == k:
            s.turner = -2  # nobody: YOU effects of this chapter find no one
        kept = []
        for frame in s.frames:
            if frame.get("ctx") == k:
                if frame["k"] == "test":  # the test it was taking lapses
                    continue
                frame["ctx"] = -2  # "it" of this branch is nobody now
            if k in frame.get("queue", []):
                frame["queue"].remove(k)
            kept.append(frame)
        s.frames = kept
        cb = s.combat
        if cb:
            for key in ("fighters", "queue", "done", "blocked", "wounded", "turned"):
                if k in cb.get(key, []):
                    cb[key].remove(k)
            cb["rolls"].pop(str(k), None)
            if cb["rester"] == k:
                cb["rester"] = -1

    def _special_roll(self, s, k: int, ev: list[Event]) -> None:
        """A companion resolves its special face in combat: against a boss it only blocks; in
        a chapter's combat its special ability applies."""
        cb = s.combat
        comp = self._companion(s, k)
        card = C.ALL_CARDS.get(s.card, {})
        if card.get("kind") == "boss" or not comp:
            cb["blocked"].append(k)
            ev.append(Event(f"{self._name(s, k)} rolls the special face: against a boss it only "
                            "blocks.", kind="attack"))  # fmt: skip
            return
        special = comp["special"]
        ev.append(Event(f"{self._name(s, k)}: {special['name']}! {special['text']}", kind="attack"))
        if special["k"] == "chill":
            for j in cb["fighters"]:
                if j not in cb["blocked"]:
                    cb["blocked"].append(j)
        elif special["k"] == "sunder":
            for t in C.TRAITS:
                if t in cb["row"]:
                    cb["row"].remove(t)
        elif special["k"] == "rally":
            for j in range(len(s.chars)):
                if not self._companion(s, j):
                    self._heal(s, j, 1)
            cb["blocked"].append(k)

    def _test_face(self, s, k: int, face: str, trait: str) -> str:
        """Outside combat a special face counts as a double of the roller's choice: the trait
        the test asks for."""
        if face == C.SPECIAL_FACE:
            return trait[0] * 2
        return face

    def _companion_fits(self, s, k: int, item: str) -> bool:
        """A companion carries nothing, except one who may carry one ordinary one-handed item
        (not a relic, not the knapsack)."""
        comp = self._companion(s, k)
        card = C.ITEMS[item]
        relics = {"chalice", "spellbook", "stone", "knapsack"}
        plain = not relics & {e["k"] for e in card.get("effects", [])}
        return bool(
            comp.get("carries") and not s.chars[k]["items"] and card["hands"] == 1 and plain
        )

    def _companion_view(self, s, k: int) -> dict | None:
        comp = self._companion(s, k)
        if not comp:
            return None
        special = comp["special"]
        return {"trait": comp["trait"], "special": f"{special['name']}: {special['text']}",
                "immune": bool(comp.get("immune")), "carries": comp.get("carries", 0)}  # fmt: skip

    def _relics_view(self, s) -> dict:
        """Who holds each relic, and a ritual under way."""
        out: dict = {}
        for c in s.chars:
            for i in c["items"]:
                for effect in ("chalice", "spellbook"):
                    if C.has_effect(i, effect):
                        out[effect] = c["who"]
        p = s.pending or {}
        if p.get("kind") == "chalice":
            out["ritual"] = {
                "to": s.chars[p["to"]]["who"],
                "gifts": {s.chars[int(j)]["who"]: n for j, n in p["gifts"].items()},
            }
        if p.get("kind") == "chalice":
            out["ritual"]["lacks"] = self._cap(s, p["to"]) - s.chars[p["to"]]["hp"]
        if p.get("kind") in ("cast", "spell"):
            out["casting"] = {"by": s.chars[p["char"]]["who"], "spell": p.get("spell", "")}
            if p["kind"] == "cast":  # the spells open now, with their requirement and effect
                spells = self._spells(s, p["char"], p["for"])
                out["casting"]["spells"] = [
                    f"{C.SPELLS[x]['name']} (cast {x}): {C.SPELLS[x]['brief']}" for x in spells
                ]
        return out

    # ----- the Ritual Chalice -----------------------------------------------------
    def _chalice_holder(self, s) -> int | None:
        return next(
            (
                k
                for k, c in enumerate(s.chars)
                if any(C.has_effect(i, "chalice") for i in c["items"])
            ),
            None,
        )

    def _chalice_moves(self, s, seat: int) -> list[str]:
        """Between chapters: name the ritual's recipient (anyone wounded who can heal, while
        someone else has HP to give)."""
        if self._chalice_holder(s) is None:
            return []
        donors = [k for k, c in enumerate(s.chars) if c["hp"] > 1 and not self._immune(s, k)]
        return [
            f"rite {c['who']}"
            for k, c in enumerate(s.chars)
            if c["hp"] < self._cap(s, k) and not self._immune(s, k) and set(donors) - {k}
        ]

    def _ritual_room(self, s) -> int:
        p = s.pending
        return self._cap(s, p["to"]) - s.chars[p["to"]]["hp"] - sum(p["gifts"].values())

    def _ritual_moves(self, s, mine: list[int]) -> list[str]:
        """Each donor pledges for themself (any player for a companion): 1 HP up to what keeps
        them at 1 HP, and never more in all than the recipient lacks."""
        p = s.pending
        room = self._ritual_room(s)
        out = []
        for k in mine:
            char = s.chars[k]
            if k == p["to"] or str(k) in p["gifts"] or self._immune(s, k):
                continue
            out += [f"give {char['who']} {n}" for n in range(1, min(char["hp"] - 1, room) + 1)]
        if p["gifts"]:
            out.append("drink")
        return [*out, "stop"]

    def _ritual_act(self, s, verb: str, args: list[str], ev: list[Event]) -> None:
        p = s.pending
        if verb == "rite":
            k = self._char(s, args[0])
            s.pending = {"kind": "chalice", "to": k, "gifts": {}}
            ev.append(Event(f"The blood ritual begins: {self._name(s, k)} will drink. Donors, "
                            "pledge your HP (give <prisoner> <HP>), then drink."))  # fmt: skip
        elif verb == "give":
            k = self._char(s, args[0])
            p["gifts"][str(k)] = int(args[1])
            ev.append(Event(f"{self._name(s, k)} pledges {args[1]} HP to the chalice."))
        elif verb == "stop":
            ev.append(Event("The ritual is called off; nobody bleeds and the chalice is kept."))
            s.pending = {"kind": "between"}
        elif verb == "drink":
            total = 0
            for key, n in p["gifts"].items():
                donor = s.chars[int(key)]
                donor["hp"] -= n
                total += n
                ev.append(Event(f"{self._name(s, int(key))} bleeds {n} HP into the chalice "
                                f"({donor['hp']} left)."))  # fmt: skip
            gained = self._heal(s, p["to"], total)
            holder = self._chalice_holder(s)
            cup = next(i for i in s.chars[holder]["items"] if C.has_effect(i, "chalice"))
            s.chars[holder]["items"].remove(cup)
            ev.append(Event(f"{self._name(s, p['to'])} drinks and gains {gained} HP. The chalice "
                            "crumbles to rust and is discarded."))  # fmt: skip
            s.pending = {"kind": "between"}

    # ----- the Spell Book ---------------------------------------------------------
    def _roll_pending(self, s, k: int, why: str) -> dict:
        """The pending roll of character k's die, or first the choice to cast a spell instead
        when k holds the Spell Book."""
        roll = {"kind": "roll", "char": k, "for": why}
        if self._book(s, k) and self._spells(s, k, why):
            return {"kind": "cast", "char": k, "for": why}
        return roll

    def _book(self, s, k: int) -> str | None:
        if self._cult_die(s, k):  # not the character's own die: no spell
            return None
        return next((i for i in s.chars[k]["items"] if C.has_effect(i, "spellbook")), None)

    def _spells(self, s, k: int, why: str) -> list[str]:
        """The spells whose requirement is met now."""
        out = []
        for name, spell in C.SPELLS.items():
            need = spell["needs"]
            wounded = any(c["hp"] < self._cap(s, j) for j, c in enumerate(s.chars))
            if (
                (need == "combat" and why == "combat")
                or (need == "test" and why in ("test", "gtest"))
                or (need == "wounded" and wounded)
            ):
                out.append(name)
        return out

    def _cast_act(self, s, verb: str, args: list[str], ev: list[Event]) -> None:
        p = s.pending
        k = p["char"]
        if verb == "roll":
            s.pending = {"kind": "roll", "char": k, "for": p["for"]}
            return
        spell = C.SPELLS[args[0]]
        ev.append(Event(f"{self._name(s, k)} opens the Spell Book and casts {spell['name']}..."))
        s.pending = {"kind": "spell", "char": k, "for": p["for"], "spell": args[0]}

    def _spell_cast(self, s, p: dict, face: str, ev: list[Event]) -> None:
        """The spell die's face: the spell's effect (success, partial) or its price. The cast
        takes the place of the roll: in a test it counts as nothing unless Second Sight made it
        count; in combat the caster makes no attack this round."""
        k, name, why = p["char"], p["spell"], p["for"]
        cb = s.combat
        rolled = ""
        words = {"success": "works", "partial": "half works", "recoil": "recoils on the caster",
                 "stray": "strays into an ally", "crumble": "crumbles the book to dust"}  # fmt: skip
        ev.append(Event(f"The spell die: {face}. The spell {words[face]}.", kind="roll"))
        if face in ("success", "partial"):
            full = face == "success"
            if name == "bolt" and cb:
                for _ in range(2 if full else 1):
                    if cb["row"]:
                        common = max(C.TRAITS, key=lambda t: (cb["row"].count(t), -"mcw".index(t)))
                        cb["row"].remove(common)
                        ev.append(Event(f"A {C.TRAIT_NAMES[common]} die is struck from the row."))
            elif name == "ward" and cb:
                for j in cb["fighters"] if full else [k]:
                    if j not in cb["blocked"]:
                        cb["blocked"].append(j)
                ev.append(Event("Ash hangs in the air: " + ("every fighter blocks this round."
                                if full else "the caster blocks this round.")))  # fmt: skip
            elif name == "mend":
                for j in range(len(s.chars)) if full else [k]:
                    gained = self._heal(s, j, 2)
                    ev.append(Event(f"{self._name(s, j)} gains {gained} HP."))
            elif name == "insight":
                frame = s.frames[-1]
                trait = self._step_at(frame["card"], frame["path"])["trait"][0]
                rolled = trait * 2 if full else trait
        elif face == "recoil":
            self._hurt(s, k, C.SPELL_HURT, ev)
        elif face == "stray":
            allies = [j for j in range(len(s.chars)) if j != k]
            if allies:
                j = max(allies, key=lambda j: (s.chars[j]["hp"], -j))
                self._hurt(s, j, C.SPELL_HURT, ev)
        elif face == "crumble":
            book = self._book(s, k)
            if book:
                s.chars[k]["items"].remove(book)
            ev.append(Event("The Spell Book falls apart in the caster's hands and is lost."))
        self._check_death(s, ev)
        if s.outcome:
            return
        if why == "combat":
            self._cast_in_combat(s, k, ev)
        elif why == "gtest":
            frame = s.frames[-1]
            step = self._step_at(frame["card"], frame["path"])
            frame["queue"].pop(0)
            frame["sum"] += sum(1 for t in rolled if t == step["trait"])
        else:
            s.chars[k]["roll"] = rolled
            if not self._passes(s, k, rolled) and self._usable(s, k, "test"):
                s.pending = {"kind": "react", "char": k}
                return
            self._finish_test(s, ev)

    def _cast_in_combat(self, s, k: int, ev: list[Event]) -> None:
        """The caster's turn to attack is spent; the round goes on as after any roll."""
        cb = s.combat
        cb["queue"].remove(k)
        cb["rolls"][str(k)] = ""
        cb["done"].append(k)
        if cb["queue"]:
            s.pending = self._roll_pending(s, cb["queue"][0], "combat")
        elif not cb["row"] or not [j for j in cb["fighters"] if j not in cb["done"]]:
            self._after_attack(s, ev)
        else:
            s.pending = {"kind": "attack"}
            self._auto_attack(s, ev)
