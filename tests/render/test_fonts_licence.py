"""The Noto faces' packages state their licence and ship it beside the fonts
(docs/languages.md: where the fonts come from): the SIL Open Font License 1.1, with the
fonts' copyright notices, in each installed distribution."""

from __future__ import annotations

from importlib.metadata import distribution

import pytest

from render import fonts


@pytest.mark.parametrize("name", ["manimgx-fonts", "manimgx-fonts-cjk"])
def test_each_font_package_states_and_ships_the_open_font_license(name):
    dist = distribution(name)
    assert dist.metadata["License-Expression"] == "OFL-1.1"
    shipped = [f for f in dist.files or [] if f.name.upper().startswith("LICENSE")]
    assert shipped, f"{name} ships no licence file"
    text = " ".join(f.read_text() for f in shipped)
    assert "SIL Open Font License" in text and "Noto" in text


def test_the_chain_draws_from_those_packages():
    paths = [str(face.path) for face in fonts.faces()[1:]]
    assert paths and all("manimgx_fonts" in path for path in paths)
