"""Every relative link in the README and docs/ leads somewhere: the file exists, and an
`#anchor` names one of its headings (as GitHub makes them), so the README's pointers into
docs/ stay true when a page or a heading moves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def anchors(page: Path) -> set[str]:
    """GitHub's heading ids: lower case, punctuation dropped, spaces as hyphens."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    headings = re.findall(r"^#+\s+(.+?)\s*$", text, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


def links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return [url for url in LINK.findall(text) if not re.match(r"[a-z]+:", url)]


def broken_links(page: Path) -> list[str]:
    broken = []
    for url in links(page):
        path, _, anchor = url.partition("#")
        target = (page.parent / path).resolve() if path else page
        exists = target.exists()
        if not exists or (anchor and target.suffix == ".md" and anchor not in anchors(target)):
            broken.append(url)
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_point_at_files_and_headings_that_exist(page):
    assert not broken_links(page), f"{page.relative_to(ROOT)}: {broken_links(page)}"


def test_the_checker_finds_a_missing_file_and_a_missing_heading(tmp_path):
    (tmp_path / "other.md").write_text("# Other page\n\n## Its part, here\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\n[gone](missing.md) [here](#title) [there](other.md#its-part-here)\n"
        "[lost](other.md#nowhere) [web](https://x.org)\n\n```\n[code](not-a-link.md)\n```\n"
    )
    assert broken_links(page) == ["missing.md", "other.md#nowhere"]


def test_the_readme_points_into_docs():
    """The details live in docs/: the README links every page there."""
    linked = {(ROOT / url.partition("#")[0]).resolve() for url in links(ROOT / "README.md")}
    unlinked = [p.name for p in PAGES[1:] if p.resolve() not in linked]
    assert not unlinked, f"docs/ pages the README does not link: {unlinked}"
