"""The core game as a pack, registered like the supplements: its steps, in the order a game
meets them, its chapter-script verbs and its interpreter frames. Its cards are
`content/core.json`."""

from __future__ import annotations

from engines.dark_castle import camp, chapters, combat, items, opening, rolls, trials
from engines.dark_castle.rules import Pack

PACK = Pack(
    name="core",
    steps=(
        opening.Pick(),
        opening.Start(),
        camp.Between(),  # the item phase between chapters; turning the next one
        chapters.NextChapter(),
        chapters.Boss(),
        chapters.Choose(),
        chapters.Gamble(),
        trials.Send(),
        rolls.Roll(),
        trials.React(),
        items.Drawer(),
        items.ItemDraw(),
        camp.Share(),  # the item phase while new items are shared out
        items.Discard(),
        combat.ChapterDice(),
        combat.Rest(),
        combat.Attack(),
    ),
    card_steps={
        **chapters.CARD_STEPS,
        "test": trials.trait_test,
        "group_test": trials.group_test,
        "combat": combat.start,
    },
    frames={"test": trials.attempt_frame, "gtest": trials.group_frame},
)
