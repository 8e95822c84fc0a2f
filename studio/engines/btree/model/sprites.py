"""trrbt's sprite images as pixels to draw in a terminal (btree.md §4.3, packed form).

A game's ``sprites`` name an image per tile (``tiles``), a pattern tiled under every cell
(``back``) and the images themselves: ``size`` ``[w, h]`` and ``data``, base64 of zlib of raw
RGBA. Images come from files anyone may write, so each is unpacked only up to its stated size
and any that does not read is left out (its tiles fall back to glyphs) with the reason kept.
Scaled images are cached per block size: a board redraw costs look-ups only.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from studio.engines.common.limits import MAX_SPRITE_SIDE

RGB = tuple[int, int, int]
Pixels = tuple[tuple["RGB | None", ...], ...]
"""Rows of pixels, top first; ``None`` is transparent."""


class SpriteError(ValueError):
    """An image that cannot be drawn: what is wrong with it."""


@dataclass(frozen=True)
class Image:
    """An unpacked image: ``width × height`` pixels of 4 bytes (R, G, B, A), rows top first."""

    width: int
    height: int
    rgba: bytes


def decode_image(entry: Any) -> Image:
    """An image of the packed form (``{"size": [w, h], "data": …}``).

    Raises:
        SpriteError: the size is missing or out of bounds, or the data does not unpack to it.
    """
    if not isinstance(entry, Mapping):
        raise SpriteError("an image must be a table with size and data")
    size = entry.get("size")
    if not (isinstance(size, (list, tuple)) and len(size) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in size)):
        raise SpriteError("size must be [width, height]")
    width, height = size
    if not (1 <= width <= MAX_SPRITE_SIDE and 1 <= height <= MAX_SPRITE_SIDE):
        raise SpriteError(f"size must be 1 to {MAX_SPRITE_SIDE} pixels each way, not {width}×{height}")
    data = entry.get("data")
    if not isinstance(data, str):
        raise SpriteError("data must be text (base64)")
    wanted = width * height * 4
    # base64 of zlib: a bound on the packed text before it is decoded at all
    if len(data) > 2 * wanted + 1024:
        raise SpriteError("data is larger than an image of its size can be")
    try:
        packed = base64.b64decode(data, validate=True)
        unpacker = zlib.decompressobj()
        raw = unpacker.decompress(packed, wanted + 1)
    except (binascii.Error, ValueError, zlib.error) as exc:
        raise SpriteError(f"data does not read as base64 of zlib: {exc}") from None
    if len(raw) != wanted or unpacker.unconsumed_tail:
        raise SpriteError(f"data unpacks to {'more' if len(raw) > wanted else len(raw)} bytes, "
                          f"not the {wanted} of {width}×{height} RGBA pixels")
    return Image(width, height, raw)


def scale(image: Image, columns: int, rows: int) -> Pixels:
    """The image as ``columns × rows`` pixels, each the mean colour of the pixels it covers
    (weighted by their opacity); a pixel mostly transparent is transparent."""
    out = []
    data, w, h = image.rgba, image.width, image.height
    for by in range(rows):
        y0, y1 = by * h // rows, max((by + 1) * h // rows, by * h // rows + 1)
        line: list[RGB | None] = []
        for bx in range(columns):
            x0, x1 = bx * w // columns, max((bx + 1) * w // columns, bx * w // columns + 1)
            r = g = b = alpha = 0
            for y in range(y0, y1):
                base = y * w * 4
                for x in range(x0, x1):
                    i = base + x * 4
                    a = data[i + 3]
                    r += data[i] * a
                    g += data[i + 1] * a
                    b += data[i + 2] * a
                    alpha += a
            count = (y1 - y0) * (x1 - x0)
            if alpha * 2 < count * 255:
                line.append(None)
            else:
                line.append((r // alpha, g // alpha, b // alpha))
        out.append(tuple(line))
    return tuple(out)


def over(top: Pixels | None, under: Pixels | None) -> Pixels | None:
    """``top`` drawn over ``under``: where top is transparent, under shows."""
    if top is None or under is None:
        return top if under is None else under
    return tuple(tuple(t if t is not None else u for t, u in zip(trow, urow))
                 for trow, urow in zip(top, under))


class SpriteSet:
    """A game's sprites ready to draw: pixels per tile at a block size, and the back pattern.

    Args:
        sprites: the game's packed ``sprites`` (None: a game without images).
    """

    def __init__(self, sprites: Mapping[str, Any] | None) -> None:
        sprites = sprites if isinstance(sprites, Mapping) else {}
        images = sprites.get("images")
        tiles = sprites.get("tiles")
        back = sprites.get("back")
        self._entries: Mapping[str, Any] = images if isinstance(images, Mapping) else {}
        self.tiles: dict[str, str | None] = {}
        """Tile → image name; None (or false, as TOML keeps null) draws nothing."""
        if isinstance(tiles, Mapping):
            for tile, name in tiles.items():
                self.tiles[str(tile)] = name if isinstance(name, str) else None
        self.back: list[list[str]] = [
            [str(t) for t in row] for row in back if isinstance(row, list)] \
            if isinstance(back, list) else []
        self.back = [row for row in self.back if row]
        self.problems: dict[str, str] = {}
        """Image name → why it cannot be drawn (its tiles are drawn as glyphs)."""
        self._images: dict[str, Image | None] = {}
        self._scaled: dict[tuple[str, int, int], Pixels | None] = {}

    @property
    def has_images(self) -> bool:
        """Whether any tile has an image to draw."""
        return any(self._image(name) is not None for name in set(self.tiles.values()) if name)

    def drawn(self, tile: str) -> bool:
        """Whether ``tile`` is drawn from the sprites (an image, or nothing at all) rather than
        as a glyph."""
        if tile not in self.tiles:
            return False
        name = self.tiles[tile]
        return name is None or self._image(name) is not None

    def _image(self, name: str) -> Image | None:
        if name not in self._images:
            try:
                self._images[name] = decode_image(self._entries.get(name))
            except SpriteError as exc:
                self._images[name] = None
                self.problems[name] = str(exc)
        return self._images[name]

    def pixels(self, tile: str, columns: int, rows: int) -> Pixels | None:
        """The tile's image at ``columns × rows`` pixels; None when it has none (or draws
        nothing)."""
        name = self.tiles.get(tile)
        if name is None:
            return None
        key = (name, columns, rows)
        if key not in self._scaled:
            image = self._image(name)
            self._scaled[key] = None if image is None else scale(image, columns, rows)
        return self._scaled[key]

    def back_tile(self, row: int, col: int) -> str | None:
        """The back pattern's tile under board cell (row, col) (tiled), if there is a pattern."""
        if not self.back:
            return None
        line = self.back[row % len(self.back)]
        return line[col % len(line)]
