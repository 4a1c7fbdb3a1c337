"""Wrapping plain text by adding up word widths gives the lines measuring every line does:
the same lines on every picture, at a third of the cold cost (docs/measurements.md)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from render import lettering

WORDS = st.lists(
    st.text(
        alphabet="abcdefghijklmnopqrstuvwxyzAVTWY.,;:'!?-0123456789ÄÖÜßéАБВГДЖЯ",
        min_size=1,
        max_size=14,
    ),
    min_size=0,
    max_size=60,
)


def measured_line_by_line(content: str, size: int, width: int) -> tuple[str, ...]:
    lines: list[str] = []
    for paragraph in content.split("\n"):
        lettering._wrap_measuring_lines(paragraph, size, width, lines)
    return tuple(lines)


@settings(max_examples=300, deadline=None)
@given(WORDS, st.integers(10, 26), st.integers(40, 600), st.booleans())
def test_words_added_up_wrap_as_lines_measured(words, size, width, two_paragraphs):
    content = " ".join(words)
    if two_paragraphs and len(words) > 2:
        content = " ".join(words[:2]) + "\n" + " ".join(words[2:])
    lines = lettering._wrapped.__wrapped__(content, size, width)
    assert lines == measured_line_by_line(content, size, width)
    assert all(lettering.text_width(line, size) <= width for line in lines if " " in line)


def test_a_word_wider_than_the_line_is_still_cut():
    lines = lettering.wrap("a " + "W" * 80 + " b", 14, 100)
    assert len(lines) > 3
    assert all(lettering.text_width(line, 14) <= 100 for line in lines)
