"""Dark Castle as shown by `/escape rules dark_castle`: our wording, with every house decision."""

from engines.dark_castle.cards import SPECIALS

_SPECIALS = "\n".join(
    "  " + k + ": " + v.format(n="N", max="M", trait="<trait>") for k, v in SPECIALS.items()
)

RULES_TEXT = f"""\
DARK CASTLE - 1 to 4 prisoners escape together, or not at all.

GOAL: overcome 15 chapters of the castle and then its boss with everyone alive.
The moment any prisoner reaches 0 HP, everyone loses.

SET-UP: each player picks a prisoner (`pick smith`); solo, you pick two and play both.
Every prisoner has a die: Might (M), Cunning (C), Wisdom (W). A face with two symbols is
a DOUBLE: it counts twice and it blocks. Trait counts M/C/W:
  Abbot 3/1/4, Cook 4/3/1, Miller 3/4/1, Smith 4/1/3, Tailor 1/4/3, Tanner 1/3/4.
Hit points: 1-2 players 18 each, 3 players 14, 4 players 12; never above the start.
A start card opens the game; 15 chapters are drawn from our chapter pool; one boss waits
at the bottom; the item deck is shuffled.

TURNING CHAPTERS: there is no turn order. Between chapters anyone may decide who turns
the next one (`turn cook`). Its scene is read out; effects on "YOU" hit whoever turned it.
A chapter may ask you to choose (`choose 2`), to test a trait (roll your die: it must show
the trait), to fight, to lose or gain HP, to draw or lose items.
  - "in one attempt": one roll, but you may use items on it (`use rabbitfoot`), or `pass`.
  - "in N attempts" / "until you succeed": roll again after each failure, paying its cost.
  - "one of you": the group sends someone (`send tailor`).
  - "together": everyone rolls once and the symbols of the trait are added up.

COMBAT: the enemy's row of chapter dice is its printed symbols plus one rolled chapter die
per prisoner where the card says so. Each round:
  1. Rest? (`fight`, or `rest abbot`): at most one prisoner rests: +1 HP, no attack, no
     damage, no items. At least one prisoner must fight.
  2. Every fighter's die is rolled. Then resolve the attacks one at a time in the order
     you choose (`hit smith`), using items in between as you like: each symbol matching a
     die of the row removes that die; a double removes up to two and blocks.
  3. If the row is empty the enemy is beaten at once. Otherwise it strikes: every fighter
     who did not block loses HP equal to its attack value.
After a won combat draw one item. Combat specials (on the card) bend these rules.

ITEMS: two hands each; a two-handed item takes both. Drawn items go on the table and the
group shares them (`take axe smith`, `done`); between chapters you may trade too
(`drop axe`, then `take axe cook`). Items left on the table are discarded. Items are used
with `use <item>`; some are discarded when used, some work once a chapter, some always.

COMBAT SPECIALS used by our enemies (N and M are printed on the card):
{_SPECIALS}

BOSS: several phases, one after another, each its own row and attack; no item between
phases. Beat the last phase with everyone alive and you escape.

HOUSE DECISIONS (the rulebook is silent or the chat needs a rule):
- Items can be used between chapters, while items are shared, on your own test roll just
  after it fails, and in combat between the rolls and the resolution of your attack.
  While the party makes a choice or decides who attempts a test, healing items may be used
  too; other items have nothing to act on then, nor on a "together" roll.
- Healing items can be used in combat only by a fighter, and heal their holder unless
  they say everyone. Between chapters (when items may change hands anyway) a healing item
  may heal another prisoner (`use salve cook`). A healing item is offered only when
  someone it would heal is wounded.
- Every chapter says what it asks before anyone rolls: who rolls, the trait, the attempts,
  whether a double is needed and what failing costs; each choice says what it costs or
  tests; a failed roll says what was needed.
- When a card uses up "a key" (or food, a light...) and the party carries several, the
  party chooses which one goes (`discard <item>`).
- An option that asks YOU to give up an item is closed when YOU carry none.
- Discarded items lie in a discard pile; when the item deck runs out, the discard pile is
  shuffled into a new deck (items carried or on the table stay put).
- A cost "for each failed attempt" is paid for the last failure too, before the card's
  outcome for failing the test.
- The last unresolved attack of a round resolves by itself when nobody has an item that
  could be used first.
- An enemy that attacks only YOU never lets YOU rest.
- A resting prisoner gains the 1 HP when the rest is declared.
- When "the party" must lose an item, anyone may pick which (`discard <item>`).
- 0 HP is death. Damage to several prisoners at once is applied together.
- One of three start cards is drawn at random; some of them draw an item or bite.
- "Together" tests name a total, often half a symbol per prisoner, rounded up.
- A test "until you succeed" never asks for a double, so it always ends.
- A test is passed by any face showing the trait, single or double, unless the card asks
  for a double.
- "Once a chapter" items are ready again when the next chapter is turned.
- Armour (ward) softens only the enemy's combat attacks, not a chapter's damage; it
  softens every combat blow, including the one a piercing enemy lands on a blocker.
- A boss's phases follow one another at once: no rest between them beyond the usual
  resting rule, no trading, no item; each phase counts its rounds from 1.
- Items drawn during a chapter are shared out at once, before the chapter goes on.
- Solo: the one player makes every decision for both prisoners; "per player" means per
  prisoner.
"""
