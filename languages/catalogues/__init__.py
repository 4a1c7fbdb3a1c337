"""The catalogue files: `<language>.po` beside this module, compiled by Babel when first
needed (gettext's own machinery then chooses plural forms by each language's rule)."""

from __future__ import annotations

import io
import re
import threading
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

HERE = Path(__file__).resolve().parent
_LANGUAGE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})?$")


class Catalogues:
    def __init__(self, folder: Path = HERE) -> None:
        self.folder = folder
        self._compiled: dict[str, Translations] = {}
        self._lock = threading.Lock()  # (pictures are drawn on threads too)

    def languages(self) -> list[str]:
        return sorted(
            p.stem.lower() for p in self.folder.glob("*.po") if _LANGUAGE.match(p.stem.lower())
        )

    def translations(self, language: str) -> Translations | None:
        if language not in self._compiled:
            with self._lock:
                if language not in self._compiled:
                    self._compiled[language] = self._compile(language)
        return self._compiled[language]

    def _compile(self, language: str) -> Translations | None:
        path = self.folder / f"{language}.po"
        if not path.is_file():
            return None
        with path.open("rb") as source:
            catalog = read_po(source, locale=language.replace("-", "_"))
        compiled = io.BytesIO()
        write_mo(compiled, catalog)  # fuzzy entries are left out: English shows instead
        compiled.seek(0)
        return Translations(fp=compiled, domain="escape")

    def text(
        self, language: str, text: str, plural: str | None, count: int | None, context: str | None
    ) -> str:
        """The translated text (English where the catalogue has none)."""
        t = self.translations(language)
        if t is None:
            return text if plural is None or count == 1 else plural
        if plural is not None:
            n = 1 if count is None else count
            if context is not None:
                return t.npgettext(context, text, plural, n)
            return t.ngettext(text, plural, n)
        return t.pgettext(context, text) if context is not None else t.gettext(text)


ACCENTED = str.maketrans("aeiouyAEIOUYcnszCNSZ", "àéîöüýÀÉÎÖÜÝçñšžÇÑŠŽ")


def pseudo(text: str) -> str:
    """The pseudo-language: accented letters, 40% longer, placeholders kept as they are."""
    out, depth = [], 0
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        out.append(ch if depth or ch == "}" else ch.translate(ACCENTED))
    body = "".join(out)
    letters = sum(ch.isalpha() for ch in text)
    return f"[{body}{'~' * max(1, round(letters * 0.4))}]"
