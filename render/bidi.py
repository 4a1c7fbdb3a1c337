"""The visual order of a line that mixes directions: the Unicode bidirectional algorithm
(UAX #9) for one line of a left-to-right language, with isolates.

A picture's line is in the table's language and may hold a name in any script: "1 محمد:
starts here". Each name comes wrapped in an isolate (FSI ... PDI, `isolate`), so that it
reads right to left inside itself and stands as one neutral unit in the line, which keeps
its own order. The line's direction is given (our languages are all left to right), never
guessed from its first letter: guessing is what turned "1 محمد: starts here" round.

Implemented: isolates (LRI, RLI, FSI, PDI), the weak types (W1-W7), the neutrals (N1, N2),
the implicit levels (I1, I2), trailing white space (L1) and the reordering (L2). Not
implemented: explicit embeddings and overrides (player names have them removed, and our
texts have none: they are ignored here) and paired brackets (N0), which only move a
bracket between two runs of opposite direction. Mirroring is the shaper's (HarfBuzz mirrors
brackets in a right-to-left run).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import languages

LRI, RLI, FSI, PDI = "\u2066", "\u2067", "\u2068", "\u2069"
OPENERS = {LRI, RLI, FSI}
CONTROLS = {LRI, RLI, FSI, PDI}
_STRONG_RTL = {"R", "AL"}
_NEUTRAL = {"B", "S", "WS", "ON", "LRI", "RLI", "FSI", "PDI"}
_IGNORED = {"BN", "LRE", "RLE", "LRO", "RLO", "PDF"}


@lru_cache(maxsize=4096)
def _type(ch: str) -> str:
    return unicodedata.bidirectional(ch) or "L"


@lru_cache(maxsize=4096)
def right_to_left(ch: str) -> bool:
    """A letter of a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko...)."""
    return _type(ch) in _STRONG_RTL


isolate = languages.isolate  # a name as a run of its own: FSI ... PDI around right-to-left text


def _matches(types: list[str]) -> dict[int, int]:
    """Each isolate initiator's matching PDI (BD9); an initiator without one runs to the end."""
    found: dict[int, int] = {}
    stack: list[int] = []
    for i, t in enumerate(types):
        if t in ("LRI", "RLI", "FSI"):
            stack.append(i)
        elif t == "PDI" and stack:
            found[stack.pop()] = i
    for i in stack:
        found[i] = len(types)
    return found


def _first_strong(types: list[str], start: int, end: int, match: dict[int, int]) -> int | None:
    """0 (left to right) or 1 (right to left) by the first strong letter, skipping isolates."""
    i = start
    while i < end:
        t = types[i]
        if t == "L":
            return 0
        if t in _STRONG_RTL:
            return 1
        i = match[i] if i in match else i + 1
    return None


def levels(content: str, base: int = 0) -> list[int]:
    """The resolved embedding level of each character of one line (UAX #9, see the module)."""
    types = [_type(ch) for ch in content]
    match = _matches(types)
    out = [base] * len(content)
    _sequence(types, match, 0, len(content), base, out)
    # L1: white space and isolate marks at the end of the line take the paragraph's level
    for i in range(len(content) - 1, -1, -1):
        if types[i] in ("WS", "LRI", "RLI", "FSI", "PDI") or types[i] in _IGNORED:
            out[i] = base
        else:
            break
    return out


def _sequence(types, match, start: int, end: int, level: int, out: list[int]) -> None:
    """Resolve one isolating run sequence (the characters from start to end at `level`, with
    each nested isolate's content resolved on its own, a level up)."""
    members: list[int] = []
    i = start
    while i < end:
        members.append(i)
        if i in match:
            close = match[i]
            t = types[i]
            if t == "LRI":
                inner = 0
            elif t == "RLI":
                inner = 1
            else:
                inner = _first_strong(types, i + 1, close, match) or 0
            up = level + 1 + ((level + 1) % 2 != inner)  # least greater odd or even
            if up <= 125:
                _sequence(types, match, i + 1, min(close, end), up, out)
            if close < end:
                members.append(close)
            i = close + 1
        else:
            i += 1
    _resolve([types[k] for k in members], members, level, out)


def _resolve(seq: list[str], members: list[int], level: int, out: list[int]) -> None:
    edge = "R" if level % 2 else "L"  # sos and eos: no embeddings, so the sequence's own
    n = len(seq)
    t = list(seq)
    # X9 (ignored types take their neighbour's), W1: a mark takes the type before it
    prev = edge
    for k in range(n):
        if t[k] in _IGNORED:
            t[k] = "BN"
            continue
        if t[k] == "NSM":
            t[k] = "ON" if prev in ("LRI", "RLI", "FSI", "PDI") else prev
        prev = t[k]
    # W2, W3: European digits after Arabic letters are Arabic digits; AL is R
    strong = edge
    for k in range(n):
        if t[k] in ("L", "R", "AL"):
            strong = t[k]
        elif t[k] == "EN" and strong == "AL":
            t[k] = "AN"
    t = ["R" if x == "AL" else x for x in t]
    real = [k for k in range(n) if t[k] != "BN"]
    # W4: a single separator between two numbers of one kind
    for a, b, c in zip(real, real[1:], real[2:], strict=False):
        if t[a] == t[c] == "EN" and t[b] in ("ES", "CS"):
            t[b] = "EN"
        elif t[a] == t[c] == "AN" and t[b] == "CS":
            t[b] = "AN"
    # W5: terminators (%, $, °) next to European digits
    for pos, k in enumerate(real):
        if t[k] != "ET":
            continue
        run = [k]
        for j in real[pos + 1 :]:
            if t[j] != "ET":
                break
            run.append(j)
        after = real[pos + len(run)] if pos + len(run) < len(real) else None
        before = real[pos - 1] if pos else None
        if (after is not None and t[after] == "EN") or (before is not None and t[before] == "EN"):
            for j in run:
                t[j] = "EN"
    # W6: what is left of the separators and terminators is neutral
    t = ["ON" if x in ("ES", "ET", "CS") else x for x in t]
    # W7: European digits after a left-to-right letter are left to right
    strong = edge
    for k in range(n):
        if t[k] in ("L", "R"):
            strong = t[k]
        elif t[k] == "EN" and strong == "L":
            t[k] = "L"

    # N1, N2: neutrals between letters of one direction take it; else the sequence's
    def direction(x: str) -> str | None:
        return "L" if x == "L" else "R" if x in ("R", "EN", "AN") else None

    k = 0
    while k < n:
        if t[k] not in _NEUTRAL and t[k] != "BN":
            k += 1
            continue
        j = k
        while j < n and (t[j] in _NEUTRAL or t[j] == "BN"):
            j += 1
        before = next((direction(t[m]) for m in range(k - 1, -1, -1) if t[m] != "BN"), None)
        after = next((direction(t[m]) for m in range(j, n) if t[m] != "BN"), None)
        side = (before or edge) if k else edge
        other = (after or edge) if j < n else edge
        fill = side if side == other else edge
        for m in range(k, j):
            t[m] = fill
        k = j
    # I1, I2
    for k, x in enumerate(t):
        if x == "BN":
            x = t[k - 1] if k else edge
        if level % 2 == 0:
            lift = 1 if x == "R" else 2 if x in ("AN", "EN") else 0
        else:
            lift = 1 if x in ("L", "EN", "AN") else 0
        out[members[k]] = level + lift


def visual_runs(content: str, base: int = 0) -> list[tuple[int, int, int]]:
    """The line as runs of one level, (start, end, level) in the order they are seen from
    left to right (L2); a run of odd level reads right to left inside itself."""
    if not content:
        return []
    found = levels(content, base)
    runs: list[tuple[int, int, int]] = []
    start = 0
    for i in range(1, len(content) + 1):
        if i == len(content) or found[i] != found[start]:
            runs.append((start, i, found[start]))
            start = i
    highest = max(r[2] for r in runs)
    lowest_odd = min((r[2] for r in runs if r[2] % 2), default=highest + 1)
    for at in range(highest, lowest_odd - 1, -1):
        k = 0
        while k < len(runs):
            if runs[k][2] >= at:
                j = k
                while j < len(runs) and runs[j][2] >= at:
                    j += 1
                runs[k:j] = runs[k:j][::-1]
                k = j
            else:
                k += 1
    return runs
