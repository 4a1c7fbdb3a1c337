"""The fonts a picture's text is drawn with, and which of them draws each character.

DejaVu Sans Condensed, kept beside the code, draws Latin, Greek and Cyrillic at the width
every layout was made for. What it lacks comes from Noto, installed with the project as
Python packages (`manimgx-fonts`, `manimgx-fonts-cjk`: Noto unmodified, under the SIL Open
Font License 1.1, which each states and ships; docs/languages.md says why these): Arabic,
Hebrew, Devanagari, Thai and the other scripts of India and South-East Asia, Chinese,
Japanese and Korean, symbols, and emoji (Noto Emoji: clean monochrome glyphs, which go
through the fixed palette like any letter). A character goes to the first font whose cmap
has it (Arabic and Hebrew letters to Noto's own faces first: DejaVu has them unshaped);
marks, joiners and variation selectors stay with the letter they belong to. A character
no font has is drawn as DejaVu's box.

Each font's cmap is read (by fontTools) only when a character outside plain ASCII first
needs it, once per process: a picture of ASCII words never opens a Noto file.
"""

from __future__ import annotations

import contextlib
import importlib.util
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import ImageFont, features

from render.bidi import right_to_left

HERE = Path(__file__).resolve().parent / "fonts"
PRIMARY = 0  # DejaVu Sans Condensed


@dataclass(frozen=True)
class Face:
    name: str
    path: Path
    index: int = 0  # in a collection (.ttc)
    style: bytes | None = None  # a variable font's named instance, if not its default


def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


# Noto's faces in the order they are tried after DejaVu: Latin, Greek and Cyrillic beyond
# DejaVu's, then each script's own face, Chinese, Japanese and Korean, symbols, emoji.
NOTO = (
    "NotoSans[wght].ttf",
    "NotoSansArabic[wght].ttf",
    "NotoSansHebrew[wght].ttf",
    "NotoSansDevanagari[wght].ttf",
    "NotoSansBengali[wght].ttf",
    "NotoSansGurmukhi[wght].ttf",
    "NotoSansGujarati[wght].ttf",
    "NotoSansOriya[wght].ttf",
    "NotoSansTamil[wght].ttf",
    "NotoSansTelugu[wght].ttf",
    "NotoSansKannada[wght].ttf",
    "NotoSansMalayalam[wght].ttf",
    "NotoSansSinhala[wght].ttf",
    "NotoSansThai[wght].ttf",
    "NotoSansLao[wght].ttf",
    "NotoSansKhmer[wght].ttf",
    "NotoSansMyanmar[wght].ttf",
    "NotoSansGeorgian[wght].ttf",
    "NotoSansArmenian[wght].ttf",
    "NotoSansEthiopic[wght].ttf",
)
CJK = "NotoSansCJK-VF.otf.ttc"  # Japanese first (index 0): every ideograph, kana and Hangul
SYMBOLS = "NotoSansSymbols[wght].ttf"
EMOJI = "NotoEmoji[wght].ttf"


@cache
def faces() -> tuple[Face, ...]:
    """Every font of the chain, DejaVu first; the Noto faces that are installed."""
    found = [Face("DejaVu Sans Condensed", HERE / "DejaVuSansCondensed.ttf")]
    noto = _package_dir("manimgx_fonts")
    cjk = _package_dir("manimgx_fonts_cjk")
    if noto is not None:
        for file in NOTO:
            if (noto / file).exists():
                found.append(Face(file.split("[")[0], noto / file, style=b"Regular"))
    if cjk is not None and (cjk / CJK).exists():
        found.append(Face("NotoSansCJKjp", cjk / CJK, 0, b"Regular"))
    if noto is not None:
        for file in (SYMBOLS, EMOJI):
            if (noto / file).exists():
                found.append(Face(file.split("[")[0], noto / file, style=b"Regular"))
    return tuple(found)


RAQM = features.check("raqm")  # Pillow's complex layout: shaping, and a run's direction


@lru_cache(maxsize=256)
def truetype(face: int, size: int) -> ImageFont.FreeTypeFont:
    """A face of the chain at a pixel size."""
    chosen = faces()[face]
    layout = ImageFont.Layout.RAQM if RAQM else ImageFont.Layout.BASIC
    loaded = ImageFont.truetype(
        str(chosen.path), size=size, index=chosen.index, layout_engine=layout
    )
    if chosen.style is not None:
        # a variable font's named instance; its default if it is none or has no such one
        with contextlib.suppress(OSError, ValueError):
            loaded.set_variation_by_name(chosen.style)
    return loaded


@cache
def coverage(face: int) -> frozenset[int]:
    """The code points a face's cmap maps to a glyph other than .notdef. Its glyphs are
    numbered, not named: fontTools names them from the `post` table first, which cost the
    Chinese, Japanese and Korean collection 130-144 ms in each CPU worker; numbered, every
    face of the chain took 50 ms, that collection 35 ms (the same code points)."""
    chosen = faces()[face]
    font = TTFont(chosen.path, lazy=True, fontNumber=chosen.index)
    try:
        font.setGlyphOrder([str(n) for n in range(font["maxp"].numGlyphs)])
        return frozenset(c for c, glyph in (font.getBestCmap() or {}).items() if glyph != "0")
    finally:
        font.close()


def covers(face: int, ch: str) -> bool:
    return ord(ch) in coverage(face)


def _extends(ch: str) -> bool:
    """A character that belongs to the one before it: a mark, a joiner, a variation
    selector, a skin tone, a tag, the keycap."""
    o = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or o in (0x200C, 0x200D, 0x20E3)
        or 0xFE00 <= o <= 0xFE0F
        or 0x1F3FB <= o <= 0x1F3FF
        or 0xE0020 <= o <= 0xE007F
        or 0xE0100 <= o <= 0xE01EF
    )


def extends(ch: str) -> bool:
    return _extends(ch)


@lru_cache(maxsize=8192)
def face_of(ch: str) -> int:
    """The first face of the chain that has `ch` (Arabic and Hebrew letters: Noto's first);
    DejaVu when none has it (its box)."""
    chain = range(len(faces()))
    if right_to_left(ch):
        chain = [*range(1, len(faces())), PRIMARY]
    for face in chain:
        if covers(face, ch):
            return face
    return PRIMARY


def _emoji() -> int | None:
    for i, face in enumerate(faces()):
        if face.path.name == EMOJI:
            return i
    return None


def plain(content: str) -> bool:
    """Text DejaVu draws alone, left to right: the common case, drawn as it always was."""
    if content.isascii():
        return True
    cover = coverage(PRIMARY)
    return all(
        ord(ch) in cover and not right_to_left(ch) and not _extends(ch) for ch in content
    ) and not any(0x2066 <= ord(ch) <= 0x2069 for ch in content)


def split(content: str) -> list[tuple[str, int]]:
    """`content` in runs of one face, in logical order: [(text, face)]."""
    emoji = _emoji()
    runs: list[tuple[str, int]] = []
    chosen: list[int] = []
    for i, ch in enumerate(content):
        if chosen and (_extends(ch) or content[i - 1] == "\u200d"):
            face = chosen[-1]  # a mark or joined emoji goes with what it joins
        elif (
            emoji is not None
            and content[i + 1 : i + 2] == "\ufe0f"
            and covers(emoji, ch)
            and not ch.isascii()
        ):
            face = emoji  # asked for as an emoji (U+FE0F)
        else:
            face = face_of(ch)
        chosen.append(face)
    for ch, face in zip(content, chosen, strict=True):
        if runs and runs[-1][1] == face:
            runs[-1] = (runs[-1][0] + ch, face)
        else:
            runs.append((ch, face))
    return runs
