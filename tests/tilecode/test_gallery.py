"""The paint editor's gallery data: 12-20 recognisable 16×16 images, valid as any art."""

from __future__ import annotations

import pytest

from studio.engines.tilecode.model import ART_SIZE
from studio.storage.tilecode.gallery import GALLERY, preset


def test_the_gallery_has_the_images_newcomers_look_for() -> None:
    names = [p.name for p in GALLERY]
    assert 12 <= len(names) <= 20 and len(set(names)) == len(names)
    for wanted in ("wall", "floor", "water", "grass", "player", "ghost", "box", "coin"):
        assert wanted in names
    assert [p.sprite for p in GALLERY] == sorted(p.sprite for p in GALLERY)  # tiles first


@pytest.mark.parametrize("item", GALLERY, ids=lambda p: p.name)
def test_each_image_is_16_by_16_palette_indices(item) -> None:
    assert len(item.pixels) == ART_SIZE
    assert all(len(row) == ART_SIZE and set(row) <= set("0123456789abcdef") for row in item.pixels)
    colours = {c for row in item.pixels for c in row}
    assert len(colours - {"0"}) >= 1
    if not item.sprite:
        assert "0" not in colours  # a tile covers its square


def test_an_unknown_name_is_refused() -> None:
    with pytest.raises(KeyError):
        preset("dragon")
