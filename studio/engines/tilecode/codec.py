"""The image codec of original TileCode settings buffers (corpus README §4, spec §4.2).

Maps and 16×16 art are stored as run-length images: byte 0 width, byte 1 height (signed 8-bit,
1..127), then run bytes to the end of the buffer, each ``length << 4 | value``. Pixels are visited
column-major (x outer, y inner) and runs continue across columns. The canonical encoder emits
maximal runs split at 15 with the remainder last; every corpus buffer re-encodes byte for byte.

Pure: bytes in, values out. Errors name the settings key and the byte offset.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_SIDE = 127
"""Width and height are signed bytes in the original, so 127 is the largest side."""
MAX_RUN = 15


class TilecodeImportError(ValueError):
    """An original TileCode game that cannot be decoded or imported.

    Attributes:
        key: the settings key concerned ("" when the whole document is at fault).
        offset: the byte offset inside the key's buffer, when the fault has one.
        reason: the message without the location.
    """

    def __init__(self, reason: str, key: str = "", offset: int | None = None) -> None:
        self.reason = reason
        self.key = key
        self.offset = offset
        where = key
        if offset is not None:
            where = f"{key}: byte {offset}" if key else f"byte {offset}"
        super().__init__(f"{where}: {reason}" if where else reason)


@dataclass(frozen=True)
class Image:
    """A decoded image: ``rows[y][x]`` is a nibble value 0..15."""

    width: int
    height: int
    rows: tuple[tuple[int, ...], ...]

    @classmethod
    def from_hex_rows(cls, rows: list[str] | tuple[str, ...]) -> Image:
        """An image from row strings of hex digits (the art and map form of the expected files)."""
        values = tuple(tuple(int(ch, 16) for ch in row) for row in rows)
        width = len(values[0]) if values else 0
        return cls(width, len(values), values)

    def hex_rows(self) -> tuple[str, ...]:
        """Row strings, one lowercase hex digit per pixel (row y = string y)."""
        return tuple("".join(f"{value:x}" for value in row) for row in self.rows)

    def column_major(self) -> list[int]:
        """Pixels in the order the codec visits them."""
        return [self.rows[y][x] for x in range(self.width) for y in range(self.height)]


def parse_hex(text: object, key: str) -> bytes:
    """The bytes of a hex buffer value (whitespace ignored, either case).

    Raises:
        TilecodeImportError: not a string, odd length or a non-hex character.
    """
    if not isinstance(text, str):
        raise TilecodeImportError(f"expected a hex string, got {type(text).__name__}", key)
    compact = "".join(text.split())
    for index, char in enumerate(compact):
        if char not in "0123456789abcdefABCDEF":
            raise TilecodeImportError(f"{char!r} is not a hex digit (character {index})", key)
    if len(compact) % 2:
        raise TilecodeImportError(f"odd number of hex digits ({len(compact)})", key)
    return bytes.fromhex(compact)


def decode_image(data: bytes, key: str = "") -> Image:
    """Decode one RLE image buffer.

    Zero-length runs are accepted anywhere (they write nothing), as the original decoder did.

    Raises:
        TilecodeImportError: a missing header, a side outside 1..127, a run past the last pixel
            (trailing bytes) or too few pixels (missing bytes).
    """
    if len(data) < 2:
        raise TilecodeImportError(f"image buffer of {len(data)} bytes has no width/height header", key, 0)
    width, height = data[0], data[1]
    for offset, (name, side) in enumerate((("width", width), ("height", height))):
        if not 1 <= side <= MAX_SIDE:
            raise TilecodeImportError(f"image {name} {side} is outside 1..{MAX_SIDE}", key, offset)
    total = width * height
    pixels: list[int] = []
    for offset in range(2, len(data)):
        length, value = data[offset] >> 4, data[offset] & 0x0F
        if len(pixels) + length > total:
            raise TilecodeImportError(
                f"run of {length} goes past the last pixel of the {width}×{height} image "
                f"(trailing bytes: {len(data) - offset})", key, offset)
        pixels.extend([value] * length)
    if len(pixels) != total:
        raise TilecodeImportError(
            f"buffer covers {len(pixels)} of the {total} pixels of the {width}×{height} image "
            "(missing bytes)", key, len(data))
    # Column-major: pixel (x, y) is at index x * height + y.
    rows = tuple(tuple(pixels[x * height + y] for x in range(width)) for y in range(height))
    return Image(width, height, rows)


def encode_image(image: Image) -> bytes:
    """Encode an image in the canonical form (maximal runs, split at 15, remainder last).

    Raises:
        ValueError: a side outside 1..127, ragged rows or a value outside 0..15.
    """
    if not (1 <= image.width <= MAX_SIDE and 1 <= image.height <= MAX_SIDE):
        raise ValueError(f"image of {image.width}×{image.height} cannot be stored (sides 1..{MAX_SIDE})")
    if len(image.rows) != image.height or any(len(row) != image.width for row in image.rows):
        raise ValueError("image rows do not match its width and height")
    out = bytearray((image.width, image.height))
    pixels = image.column_major()
    start = 0
    while start < len(pixels):
        value = pixels[start]
        if not 0 <= value <= 15:
            raise ValueError(f"pixel value {value} is outside 0..15")
        end = start
        while end < len(pixels) and pixels[end] == value:
            end += 1
        run = end - start
        while run > MAX_RUN:
            out.append(MAX_RUN << 4 | value)
            run -= MAX_RUN
        out.append(run << 4 | value)
        start = end
    return bytes(out)
