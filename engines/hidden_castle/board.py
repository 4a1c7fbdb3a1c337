"""The Hidden Castle board (docs/games.md): Gallery, chambers, staircase, clock.

Both sides of the board share the Gallery: a loop of 28 spaces walked clockwise, the exit
(arrow) space is space 1 and the staircase joins the loop there. Chambers are named by the
number of their doorway space.
"""

from __future__ import annotations

SPACES = 28
EXIT = 1
DOORWAYS = (3, 4, 6, 9, 11, 15, 18, 21, 26)
CLIMB = 9  # spaces from the Phantom's start to the exit (the exit is the ninth)

STANDARD = "standard"
MIDNIGHT = "midnight_party"
VARIANTS = (STANDARD, MIDNIGHT)

# Coats of arms: chamber -> points. Exact-roll chambers are listed apart.
COATS = {STANDARD: {6: -3, 9: -3, 26: 1}, MIDNIGHT: {6: 3, 9: 3, 21: -1, 26: -1}}
EXACT = {STANDARD: frozenset({6, 9}), MIDNIGHT: frozenset({6, 9})}

# Staircase steps, the first one filled first. Midnight Party adds the "-2" landing.
STEPS = {STANDARD: (10, 9, 8, 7, 6, 5, 4, 3), MIDNIGHT: (-10, -9, -8, -7, -6, -5, -4, -3, -2)}
CAPTURE_STEPS = 8  # captured guests use the first eight steps; the landing holds leftovers
LANDING = 8

CLOCKS = ("11:45", "12:00", "1:00", "2:00", "3:00", "4:00", "5:00")
SPEEDS = (3, 3, 4, 5, 6, 7)  # spaces per Phantom roll at each clock; the last clock ends the game
LAST_CLOCK = len(CLOCKS) - 1

DIE = (("1", 1 / 6), ("2", 1 / 6), ("4", 1 / 6), ("5", 1 / 6), ("phantom", 2 / 6))
GUESTS_PER_PLAYER = {2: 6, 3: 5, 4: 4, 5: 3, 6: 2, 7: 2, 8: 2}
START_SCORE = {STANDARD: 10, MIDNIGHT: 0}
END_SCORE = 46
ROUNDS = 3


def ahead(space: int, steps: int) -> int:
    """The Gallery space `steps` spaces clockwise of `space`."""
    return (space - 1 + steps) % SPACES + 1


def label(guest: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[guest]


def label_index(letter: str) -> int:
    return "abcdefghijklmnopqrstuvwxyz".index(letter)


def midnight_speed(players: int) -> int:
    return 2 if players >= 7 else 3


def coat_text(value: int) -> str:
    return f"{value:+d}"


# where a guest is
BOX, GALLERY, CHAMBER, STAIRS = "box", "gallery", "chamber", "stairs"
