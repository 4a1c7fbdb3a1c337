"""`python -m languages.extract`: every message of the code, into the catalogues.

The messages are found where they are written: each call of `msg`, `plural` and
`in_context` (engines/text.py) whose text is a literal, anywhere in `bot/`, `engines/`,
`render/`; and the texts a game keeps as data (Dark Castle's cards), which each game
lists with `Game.texts()`. The template `escape.pot` is written anew, and each
`<language>.po` is updated from it: new messages are added untranslated, messages the
code no longer says are dropped. `tests/test_catalogues.py` fails while a catalogue misses
a message, keeps one nobody says, or disagrees on a placeholder or a plural form.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("bot", "engines", "render", "languages")
CATALOGUES = Path(__file__).resolve().parent / "catalogues"
TEMPLATE = CATALOGUES / "escape.pot"
CALLS = {"msg": (0, None, None), "plural": (0, 1, None), "in_context": (1, None, 0)}


@dataclass(frozen=True)
class Found:
    text: str
    plural: str | None
    context: str | None
    where: str  # file:line, for the catalogue's comments and for errors


def found_in_code(root: Path = ROOT) -> tuple[list[Found], list[str]]:
    """Every literal message of the code, and where a message's text is not a literal
    (it cannot be found, so it would never be translated)."""
    found: list[Found] = []
    problems: list[str] = []
    for folder in SOURCES:
        for path in sorted((root / folder).rglob("*.py")):
            if ".venv" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            rel = path.relative_to(root)
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = (
                    node.func.id
                    if isinstance(node.func, ast.Name)
                    else (node.func.attr if isinstance(node.func, ast.Attribute) else None)
                )
                if name not in CALLS:
                    continue
                text_at, plural_at, context_at = CALLS[name]
                where = f"{rel}:{node.lineno}"
                texts = [_literal(node, i) for i in (text_at, plural_at, context_at)]
                if texts[0] is None or (plural_at is not None and texts[1] is None):
                    if _built(node):
                        problems.append(f"{where}: {name}() of a built string (an f-string?)")
                    continue  # a text kept as data: the game lists it in texts()
                found.append(Found(texts[0], texts[1], texts[2], where))
    return found, problems


def _built(node: ast.Call) -> bool:
    """The message's text is made on the spot (an f-string, a sum, a .format call) or
    chosen on the spot (`msg(a if x else b)`, which the extractor cannot read): it could
    never be in a catalogue."""
    first = node.args[0] if node.args else None
    return isinstance(first, ast.JoinedStr | ast.BinOp | ast.IfExp) or (
        isinstance(first, ast.Call)
        and isinstance(first.func, ast.Attribute)
        and first.func.attr == "format"
    )


def _literal(node: ast.Call, index: int | None) -> str | None:
    if index is None or index >= len(node.args):
        return None
    arg = node.args[index]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    return None


def found_in_data() -> list[Found]:
    """The texts games keep as data (`Game.texts()`), e.g. card names and card texts."""
    from engines import REGISTRY

    out = []
    for game in REGISTRY.values():
        for item in getattr(game, "texts", lambda: [])():
            text, context = (item, None) if isinstance(item, str) else item
            out.append(Found(text, None, context, f"engines/{game.id} (data)"))
    return out


# Fixed, so the files change only when a message does (no merge noise from a date).
HEADER = dict(
    copyright_holder="the Escape authors",
    creation_date=datetime(2026, 11, 1, tzinfo=UTC),
    revision_date=datetime(2026, 11, 1, tzinfo=UTC),
    last_translator="the Escape authors",
    language_team="Escape",
    version="1",
    msgid_bugs_address="the project's issues",
    header_comment="# Escape's messages. The English text of each is its id; a language is one\n"
    "# file of these, translated (see docs/languages.md: adding a language).\n#",
)


def template(messages: Iterable[Found]) -> Catalog:
    catalog = Catalog(project="Escape", charset="utf-8", fuzzy=False, **HEADER)
    for m in messages:
        key = (m.text, m.plural) if m.plural else m.text
        existing = catalog.get(m.text, context=m.context)
        if existing is not None:
            existing.locations.append((m.where.split(":")[0], _line(m.where)))
            continue
        catalog.add(key, locations=[(m.where.split(":")[0], _line(m.where))], context=m.context)
    return catalog


def _line(where: str) -> int | None:
    tail = where.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else None


def update(language_file: Path, pot: Catalog) -> tuple[int, int]:
    """Bring a catalogue in line with the template: (added, dropped)."""
    with language_file.open("rb") as source:
        catalog = read_po(source, locale=language_file.stem.replace("-", "_"))
    before = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in catalog if m.id}
    catalog.update(pot, no_fuzzy_matching=True)
    catalog.obsolete.clear()  # what nobody says any more goes
    after = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in catalog if m.id}
    with language_file.open("wb") as out:
        write_po(out, catalog, width=100, omit_header=False, sort_output=False)
    return len(after - before), len(before - after)


def messages() -> Iterator[Found]:
    code, problems = found_in_code()
    if problems:
        raise SystemExit("\n".join(problems))
    yield from code
    yield from found_in_data()


def start(language: str, pot: Catalog) -> Path:
    """A new language's catalogue: every message of the template, none translated yet."""
    path = CATALOGUES / f"{language}.po"
    if path.exists():
        raise SystemExit(f"{path.relative_to(ROOT)} exists already")
    catalog = Catalog(
        locale=language.replace("-", "_"), project="Escape", charset="utf-8", fuzzy=False, **HEADER
    )
    catalog.update(pot, no_fuzzy_matching=True)
    with path.open("wb") as out:
        write_po(out, catalog, width=100, omit_header=False, sort_output=False)
    return path


def main(argv: list[str] | None = None) -> int:
    """`python -m languages.extract`: the template again, and each catalogue brought in
    line with it; `--new xx`: also a catalogue for language `xx` to translate."""
    argv = sys.argv[1:] if argv is None else argv
    pot = template(messages())
    if argv[:1] == ["--new"] and len(argv) == 2:
        print(f"{start(argv[1], pot).relative_to(ROOT)}: {len(pot)} messages to translate")
    with TEMPLATE.open("wb") as out:
        write_po(out, pot, width=100, omit_header=False, sort_output=False)
    print(f"{TEMPLATE.relative_to(ROOT)}: {len(pot)} messages")
    for path in sorted(CATALOGUES.glob("*.po")):
        added, dropped = update(path, pot)
        print(f"{path.relative_to(ROOT)}: {added} new (untranslated), {dropped} dropped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
