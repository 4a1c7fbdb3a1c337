"""The catalogues (languages/catalogues): the template holds every message the code says,
and each language translates every one of them, no more, with the same placeholders and
every plural form its language has."""

from __future__ import annotations

import re

import pytest
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

import languages
from engines.text import msg, placeholders, plural
from languages import extract

LANGUAGES = sorted(extract.CATALOGUES.glob("*.po"))


def _key(message) -> tuple:
    text = message.id if isinstance(message.id, str) else message.id[0]
    return text, message.context


def _template() -> dict:
    with extract.TEMPLATE.open("rb") as source:
        return {_key(m): m for m in read_po(source) if m.id}


def test_the_template_holds_what_the_code_says_now():
    """`python -m languages.extract` was run after the last change of a message."""
    code, problems = extract.found_in_code()
    assert not problems, problems
    said = {(m.text, m.context) for m in [*code, *extract.found_in_data()]}
    kept = set(_template())
    assert not said - kept, (
        f"not in the template (run python -m languages.extract): {sorted(said - kept)[:20]}"
    )
    assert not kept - said, f"in the template but said nowhere: {sorted(kept - said)[:20]}"


@pytest.mark.parametrize("path", LANGUAGES, ids=[p.stem for p in LANGUAGES])
def test_each_language_translates_every_message_and_no_other(path):
    template = _template()
    with path.open("rb") as source:
        catalog = read_po(source, locale=path.stem.replace("-", "_"))
    entries = {_key(m): m for m in catalog if m.id}
    missing = [k for k in template if k not in entries]
    assert not missing, f"{path.name} misses {len(missing)}: {missing[:10]}"
    unused = [k for k in entries if k not in template]
    assert not unused, f"{path.name} keeps {len(unused)} nobody says: {unused[:10]}"
    forms = get_plural(path.stem.replace("-", "_")).num_plurals
    for key, entry in entries.items():
        assert not entry.fuzzy, f"{path.name}: {key} is marked fuzzy"
        ids = [entry.id] if isinstance(entry.id, str) else list(entry.id)
        strings = [entry.string] if isinstance(entry.string, str) else list(entry.string)
        assert all(strings), f"{path.name}: {key} is not translated"
        if not isinstance(entry.id, str):
            assert len(strings) == forms, f"{path.name}: {key} needs {forms} plural forms"
        wanted = set().union(*(placeholders(i) for i in ids))
        for string in strings:
            assert placeholders(string) <= wanted, (
                f"{path.name}: {key} names {placeholders(string) - wanted}"
            )
            assert placeholders(string) >= wanted - {"count"}, (
                f"{path.name}: {key} drops {wanted - placeholders(string)}"
            )


# A translation the same as its English is suspect (it was copied, or never touched)
# unless it is a name, an abbreviation, a word that language shares, or a code typed as it
# is: those are listed here, with why.
SAME_AS_ENGLISH = {
    "de": {
        "Buchholz": "a chess player's name (a tie-break)",
        "S-B": "Sonneborn-Berger, two names' initials",
        "Sonneborn-Berger": "two chess players' names (a tie-break)",
        "Standard": "German says it so",
        "orange": "German says it so",
        "START": "German says it so (the start card)",
        "S": "the shield's and the special face's letter (Schild, Sonder)",
        "W": "Wisdom's letter (Weisheit)",
        "R": "red's letter on a ghost (rot)",
        "B": "blue's letter on a ghost (blau)",
        "G": "a ghost icon's letter (Geist)",
        "Europe/Berlin": "a time zone's name, typed as it is (a German reader's zone)",
        "hand": "German says Hand (a question typed to describe)",
        "#{number} {game} in {where}: {who}": "'in' is German too",
        "{spell} (cast {id}): {text}": "`cast` is typed as it is",
        "{spell} (cast {id}): {brief}": "`cast` is typed as it is",
        "Bot {number} ({level})": "German says Bot (a bot's name)",
    },
    "es": {
        "Buchholz": "a chess player's name (a tie-break)",
        "S-B": "Sonneborn-Berger, two names' initials",
        "Sonneborn-Berger": "two chess players' names (a tie-break)",
        "chat": "Spanish says it so",
        "no": "Spanish says it so (a typed answer, an option's value)",
        "R": "red's letter on a ghost (rojo)",
        "Bot {number} ({level})": "Spanish says bot (a bot's name)",
        "{spell} (cast {id}): {text}": "`cast` is typed as it is",
        "{spell} (cast {id}): {brief}": "`cast` is typed as it is",
    },
    "ru": {
        "{spell} (cast {id}): {text}": "`cast` is typed as it is",
        "{spell} (cast {id}): {brief}": "`cast` is typed as it is",
    },
}


@pytest.mark.parametrize("path", LANGUAGES, ids=[p.stem for p in LANGUAGES])
def test_no_message_is_left_in_english(path):
    """Issue 37: a message whose translation is its English, word for word, is counted
    untranslated unless it is one of the language's known names, codes and shared words
    (a text of placeholders and punctuation alone has no words to translate)."""
    with path.open("rb") as source:
        catalog = read_po(source, locale=path.stem.replace("-", "_"))
    allowed = SAME_AS_ENGLISH.get(path.stem, {})
    same = []
    for entry in catalog:
        if not entry.id:
            continue
        ids = [entry.id] if isinstance(entry.id, str) else list(entry.id)
        strings = [entry.string] if isinstance(entry.string, str) else list(entry.string)
        for english, said in zip(ids + ids[-1:] * len(strings), strings, strict=False):
            words = any(ch.isalpha() for ch in re.sub(r"\{\w*\}", "", english))
            if said == english and words and english not in allowed:
                same.append(english)
    assert not same, f"{path.name}: {len(same)} left in English, e.g. {same[:10]}"
    stale = [text for text in allowed if not any(text in (e.id, e.string) for e in catalog if e.id)]
    assert not stale, f"{path.name}: allowed but no longer said: {stale}"


def test_the_pseudo_language_marks_every_translated_text_and_keeps_placeholders():
    said = languages.say(
        msg("{name} places a {colour} ghost.", name="Ann", colour=msg("red")), "qps"
    )
    assert said.startswith("[") and "Ann" in said and "ghöšt" in said
    english = "Ann places a red ghost."
    assert len(said) >= 1.3 * len(english)
    assert languages.say("Ann", "qps") == "Ann"  # a name is not a message


def test_plural_forms_follow_the_count():
    one, three = (plural("{count} card", "{count} cards", n) for n in (1, 3))
    assert (languages.say(one), languages.say(three)) == ("1 card", "3 cards")


def test_language_tags_resolve_to_ours():
    assert languages.resolve("en-US") == "en"
    assert languages.resolve("xx-YY") == "en"
    assert languages.resolve(None, "qps") == "qps"


def test_numbers_dates_and_durations_are_said_by_each_languages_rules():
    from engines.text import Span

    day = languages.Day(1795622682)  # 2026-11-25, UTC
    said = msg("{n} moves on {date}, {left} left", n=1234, date=day, left=Span(2 * 86400))
    assert languages.say(said) == "1,234 moves on 2026-11-25, 2d left"
    german = languages.say(said, "de")
    assert german == "1.234 moves on 25.11.2026, 2 T left"  # (an id without German: its English)
    assert languages.duration(2 * 86400, "de", direction=True) == "in 2 Tagen"


def test_a_third_language_is_one_file_and_no_code(tmp_path, monkeypatch):
    """Issue 26: `python -m languages.extract --new nl` writes one catalogue; once its
    messages are translated, the language is offered, resolved from platform tags, named
    in itself and said, with no line of code changed."""
    from languages.catalogues import Catalogues

    folder = tmp_path / "catalogues"
    folder.mkdir()
    monkeypatch.setattr(extract, "CATALOGUES", folder)
    monkeypatch.setattr(extract, "ROOT", tmp_path)
    monkeypatch.setattr(extract, "TEMPLATE", folder / "escape.pot")
    monkeypatch.setattr(languages, "_catalogues", Catalogues(folder))
    assert "nl" not in languages.available()
    extract.main(["--new", "nl"])
    with (folder / "nl.po").open("rb") as source:
        catalog = read_po(source, locale="nl")
    entries = [m for m in catalog if m.id]
    assert len(entries) == len(_template())
    assert not any(m.string if isinstance(m.string, str) else any(m.string) for m in entries)
    catalog["It is not your turn."].string = "Je bent niet aan de beurt."
    from babel.messages.pofile import write_po

    with (folder / "nl.po").open("wb") as out:
        write_po(out, catalog, width=100)
    assert "nl" in languages.available() and languages.resolve("nl-BE") == "nl"
    assert languages.LanguageName("nl").said_in("nl") == "Nederlands (nl)"
    assert languages.say(msg("It is not your turn."), "nl") == "Je bent niet aan de beurt."
    assert (
        languages.say(msg("The game is over; no more moves."), "nl")
        == "The game is over; no more moves."
    )
