"""Sprite images made for the tests (packed as trrbt packs them), and a bundled game with them."""

from __future__ import annotations

import base64
import zlib
from pathlib import Path

from studio.storage import load_project, save_project
from studio.storage.btree.kind import sprites_to_toml


def packed(pixels: list[list[tuple[int, int, int, int]]]) -> dict:
    """An image in the packed form: ``size`` and base64 of zlib of its RGBA rows."""
    raw = bytes(v for row in pixels for pixel in row for v in pixel)
    return {"size": [len(pixels[0]), len(pixels)],
            "data": base64.b64encode(zlib.compress(raw)).decode()}


def square(colour: tuple[int, int, int], size: int = 8, inset: int = 0) -> dict:
    """A square of ``colour``, transparent ``inset`` pixels in from each edge."""
    clear = (0, 0, 0, 0)
    return packed([[(*colour, 255) if inset <= x < size - inset and inset <= y < size - inset
                    else clear for x in range(size)] for y in range(size)])


SPRITES = {
    "images": {"wall": square((160, 60, 40)), "keeper": square((40, 200, 90), inset=2),
               "box": square((200, 160, 40), inset=1), "floor": square((90, 90, 110))},
    "tiles": {"#": "wall", "P": "keeper", "B": "box", "_": None},
    "back": [["B0"]],
}
"""Sokoban's tiles as images, a floor under every cell; G (the goal) has none: its glyph stays."""
SPRITES["tiles"]["B0"] = "floor"


def sokoban_with_sprites(path: Path) -> Path:
    """The bundled Sokoban at ``path`` given :data:`SPRITES` (as an import of trrbt JSON would)."""
    project = load_project(path)
    project.body["sprites"] = sprites_to_toml(SPRITES)
    save_project(project, path)
    return path
