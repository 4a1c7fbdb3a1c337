"""Dark Castle as shown by `/escape rules dark_castle`: our wording, with every house decision."""

from textwrap import fill

from engines.dark_castle.cards import COMPANIONS, SPECIALS, SPELLS
from engines.dark_castle.explain import companion_text, spell_text

_SPECIALS = "\n".join(
    "  " + k + ": " + v.format(n="N", max="M", trait="<trait>") for k, v in SPECIALS.items()
)

_COMPANIONS = "\n".join(
    fill(companion_text(c), 90, initial_indent="  ", subsequent_indent="    ")
    for c in COMPANIONS.values()
)
_SPELLS_LIST = "\n".join(
    fill(spell_text(name), 90, initial_indent="  ", subsequent_indent="    ") for name in SPELLS
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

LONG FIGHTS (our decision; the rulebook is silent): from the 20th round of one fight on,
the enemy's attack grows by 1 at the start of every round (a boss phase counts its own
rounds). A double still blocks. Without it, a fight that neither side can win (an armoured
enemy against a party with no double of its trait, one prisoner resting while the other
blocks) would never end.

ITEMS: two hands each; a two-handed item takes both. Drawn items go on the table and the
group shares them (`take axe smith`, `done`); between chapters you may trade too
(`drop axe`, then `take axe cook`). Our decision (the rulebook is silent): a prisoner who
puts an item down cannot take that same item back until the next chapter; another prisoner
may take it. Items left on the table are discarded. Items are used with `use <item>`; some
are discarded when used, some work once a chapter, some always.

COMBAT SPECIALS used by our enemies (N and M are printed on the card):
{_SPECIALS}

SUPPLEMENTS (game options, all combinable; `/escape start dark_castle cult=on`):
  cult=on      Cult of the Death Knight: 15 chapters, the Death Knight, 5 curses.
  plague=on    Blight of the Plague Lord: 15 chapters, the Plague Lord, 4 plague cards,
               4 items (the knapsack among them), 3 more prisoners.
  undead=on    Scourge of the Undead Queen: 15 chapters, the Undead Queen, 3 companion
               event cards, the Ritual Chalice and the Spell Book.
  collector=on The Collector's Box: flaws, 2 more start cards, 2 more bosses, epilogues.
  castle=mixed        (default) the core chapters and every pack that is on, shuffled
                      together; the boss is any boss of those sets.
  castle=pack         only the chapters of the packs that are on, shuffled, with their own
                      boss (no pack on: the core castle).
  castle=pack-numbered  the same, in the pack's number order, right out of the box.

CURSES (cult=on): 5 curse cards lurk in the item deck. Before each item card is drawn the
group names who draws it (`draw tailor`). A curse goes beside that prisoner: it is not an
item, takes no hand and cannot be traded; it stays unless its card says when it lifts.
A normal item goes to the table as usual.
MARKED FOR DEATH: cultists (enemies and chapters marked so) hurt the marked prisoner 1 HP
more; the marked prisoner cannot rest. Below half the starting HP (or already below it when
the curse is drawn) they roll the cult die instead of their own, until they are back at
half or more. The cult die has 4 white faces (Might, Cunning, Wisdom, a Wisdom double) and
2 black ones (Might, Cunning): our faces. Outside combat every face counts as rolled. In
combat the cult die rolls and resolves first; a white face attacks as normal; a black face
joins the enemy's row as rolled and must be hit away like any chapter die, and the marked
prisoner sits out the rest of that combat (no rolls, no damage, no rest).

PLAGUE (plague=on): every prisoner starts clean. "Roll for plague": the plague die (0, 0,
1, 1, 2, 3) is rolled once, never re-rolled or changed, and that much plague is added.
Reaching plague 3, 6 and 9 costs 1, 2 and 3 HP at once, even in the middle of a combat
(our thresholds). Plague cards in the item deck hit whoever the group named to draw them.
CARRIERS: enemies marked as carriers, and any prisoner with plague. A fighter who takes
damage from a carrier gains 1 plague (whatever the damage; not when resting or blocking).
A clean prisoner who takes an item from a carrier (the loot of a carrier's combat, or an
item an infected prisoner put down) rolls for plague.
NEW PRISONERS: the Ratcatcher, the Herbalist and the Gravedigger (our faces) have a split
double (two different traits): both apply, on the one enemy, and it blocks; where doubles
count as singles you choose which trait (`hit ratcatcher m`).
KNAPSACK: worn over the shoulder, no hand. Its owner may store two more items in it
(`stow axe`, `unstow axe`), only between chapters; stored items cannot be used or counted
(a key in the knapsack opens nothing) until they are taken out. Put the knapsack down and
its contents come out with it; lose it and they are lost too.

COMPANIONS (undead=on): 3 companion event cards lurk in the item deck. Drawn, the companion
joins the party with its own die and HP (it never changes the prisoners' starting HP):
{_COMPANIONS}
Only one companion at a time: another event card drawn while one is with you is discarded
and a fresh item card drawn in its place (so of several drawn at once only the first
counts). Any player acts for the companion (its rolls, its rest, its turn at a chapter).
A companion counts as a player for every effect: each player tests, each player heals,
items drawn per player, "together" tests, turning a chapter (YOU is then the companion),
being named to draw an item card. Only where a combat says "companions not counted" are no
chapter dice rolled for it. Curses and plague have no effect on it (a curse it draws is
discarded; it rolls for plague, to no effect). It fights, takes damage and rests (+1 HP, never
above its own start; the Grey Novice is a spirit: no damage touches him and resting gains
him nothing). It carries no item, except the Gravehand: one ordinary one-handed item (no relic,
no knapsack), lost with her. The special face: in a chapter's combat its special applies (it
hits nothing else); against a boss it only blocks; outside combat (a test, a "together"
roll) it counts as a double of the trait asked. At 0 HP the companion leaves the party (with
its item); the game goes on. A YOU or "that prisoner" effect still waiting for a companion who
has left hits nobody; a companion who left may come back if its card is drawn again after the
deck is reshuffled.
RITUAL CHALICE (a relic, one hand): between chapters, while someone carries it, anyone may
begin the blood ritual naming a wounded recipient (`rite cook`). Each donor pledges for
themself (`give smith 3`; anyone for a companion): at least 1 HP, never going below 1 HP,
and never more in all than the recipient lacks (so nothing is wasted). `drink` pays the
pledges and heals the recipient by the sum; the chalice is discarded. `stop` before drinking
calls it off and costs nothing. The Grey Novice neither gives nor receives.
SPELL BOOK (a relic, one hand): whenever its holder would roll their own die (a test, a
"together" roll, a combat attack; not a re-roll from an item, not on the cult die), they may
`cast <spell>` instead (`roll` rolls the die as usual). The spell die (our faces) is rolled
once: success, success, partial, recoil (the caster loses 2 HP), stray (the ally with the
most HP loses 2 HP), crumble (the book is destroyed, the spell does nothing). Our spells:
{_SPELLS_LIST}
The cast takes the place of the roll: in combat the caster makes no attack that round; in a
test the attempt counts as nothing (it fails), unless Second Sight made it count.

COLLECTOR'S BOX (collector=on): before choosing, a flaw is dealt face up onto every
prisoner; you take the prisoner with their flaw. A flaw is used once a game (`use liar`),
whenever an item with the same effect could be used, and is never traded. The start card is
drawn from all start cards; the boss of a mixed castle from all bosses (a pack played on its
own keeps its own boss). When the game ends, the victory or defeat epilogue is read.
DEATH DICE (collector=on; the rulebook recommends them with the flaws, so the box brings
both): on the combats marked for them (the chapter says "death dice"), the dice rolled per
prisoner at set-up are death dice. Our faces: Might, Cunning, Wisdom, a Shield, and two
split faces, Might+Cunning and Cunning+Wisdom. Once rolled they are chapter dice for every
other rule: a death die showing Might is a Might die (an item striking a Might die takes it).
  - A SHIELD falls to one prisoner's double of any kind (a split double too), or to two
    prisoners combining two matching singles (Might and Might...).
  - A SPLIT face falls to two prisoners combining, one showing each of its traits. One
    prisoner's own split double does not take it alone (it still blocks).
  - Results split and combine: a double is two results of its traits, which may go to
    different dice and pair with different prisoners.
  How it goes in chat: everyone rolls at once as usual. While a shield or a split face is
  in the row, the round's attacks are resolved together: use your items first, then
  `hit all` (it happens by itself when nobody has an item to use). We combine the results
  so that the most dice go, and among equal ways the shields and split dice go first; the
  log says who combined with whom. Without such a face, `hit <prisoner>` as usual.
  Dice added later in a fight (an enemy that regrows) are plain chapter dice.
  Never on two chapters, whose own rule would fight the death dice (the rulebook's two
  exceptions, our choice): the Chapel Gargoyle (its doubles hit only once, but one double
  breaks a shield) and the Empty Harness (only a Might double hits its Might dice; two paired
  Might singles breaking a shield would slip past the armour).
THE LIVING STONE (collector=on; our card and die): a one-handed relic shuffled into the item
deck; its die waits until called for. Once a chapter, in combat, between the rolls and the
attacks (`use stone`), its holder rolls the stone's die: CRUSH (2 faces): a die of the row
of your choice goes, a death die's shield or split face too (`crush s`, `crush mc`);
SHELTER: its holder blocks this round; MEND: its holder gains 2 HP; SLEEP: nothing; BITE:
its holder loses 1 HP.

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
- Curses (our own): the Grave Hex (2 HP at once, then gone), Brittle Bones (+1 damage
  from enemy attacks until you rest), the Leech Sigil (1 HP each time a chapter is turned,
  until the party wins a combat), Shivering Dread (your doubles do not block, until the
  party wins a combat), and Marked for Death (it never lifts).
- Plague items: the Vinegar Sponge and Theriac lower plague (never below 0); the Beaked
  Mask keeps carriers' plague off in combat. A cure lowers the count but does not give back
  HP lost at thresholds; a threshold passed again costs its HP again.
- Several item cards are drawn one at a time, each by the prisoner the group names.
- A curse drawn as the loot of a combat or a chapter is simply not shared out; if nothing
  else was drawn, the game goes on at once.
- A pack played on its own in number order plays its chapters 1 to 15; several packs on
  their own play pack after pack (Cult, then the others), the first 15 chapters.
- Rest is offered only when someone else still fights: a prisoner who joined the enemy's
  row does not count as a fighter.
- Solo: the one player makes every decision for both prisoners; "per player" means per
  prisoner.
"""
