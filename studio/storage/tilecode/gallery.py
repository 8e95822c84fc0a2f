"""The paint editor's gallery: preset 16×16 images to start a tile or sprite from.

The original offered a gallery of images; these are the studio's own, drawn as data here (the
shared kinds of :mod:`.art` plus a few drawn only for the gallery). Pixels are palette indices
as hex digits, 16 rows of 16, like every :class:`~studio.engines.tilecode.model.ArtKind`.
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.engines.tilecode.model import ART_SIZE
from studio.storage.tilecode import art


@dataclass(frozen=True)
class Preset:
    """One gallery image."""

    name: str
    pixels: tuple[str, ...]
    """16 rows of 16 hex digits; 0 is transparent on a sprite."""
    sprite: bool
    """Drawn for a sprite (a transparent surround) rather than a whole background tile."""


_EXTRA = {
    "coin": ["........", "..5555..", ".554455.", ".545555.", ".545555.", ".554455.",
             "..5555..", "........"],
    "heart": ["........", ".22..22.", "22222222", "22222222", ".222222.", "..2222..",
              "...22...", "........"],
    "key": ["........", ".555....", "5..5....", ".555555.", "....5.5.", "....5.5.",
            "........", "........"],
    "tree": ["...77...", "..7777..", ".777777.", "77767777", ".777777.", "...ee...",
             "...ee...", "..eeee.."],
}


def _presets() -> tuple[Preset, ...]:
    tiles = ("wall", "brick", "floor", "grass", "water", "dirt", "goal")
    sprites = ("player", "ghost", "cat", "box", "boulder", "diamond", "apple")
    out = [Preset(name, art.BACKGROUNDS[name].art, False) for name in tiles]
    out += [Preset(name, art.SPRITES[name].art, True) for name in sprites]
    out += [Preset(name, art.doubled(rows), True) for name, rows in _EXTRA.items()]
    return tuple(out)


GALLERY: tuple[Preset, ...] = _presets()
"""The gallery in the order the picker lists it: tiles first, then sprites."""


def preset(name: str) -> Preset:
    """The gallery image called ``name``.

    Raises:
        KeyError: no image has that name.
    """
    for item in GALLERY:
        if item.name == name:
            return item
    raise KeyError(f"no gallery image called {name!r}")


def _check() -> None:
    for item in GALLERY:
        if len(item.pixels) != ART_SIZE or any(len(r) != ART_SIZE for r in item.pixels):
            raise ValueError(f"gallery image {item.name!r} is not {ART_SIZE}×{ART_SIZE}")


_check()
