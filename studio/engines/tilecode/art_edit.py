"""Paint editor (spec tilecode.md §8.6), the per-kind look, and how kinds are drawn in a terminal.

Art is 16 rows of 16 hex digits, each a palette index (``model.PALETTE``; 0 is transparent on
sprites and black on backgrounds); ``None`` art is treated as blank. Kinds are addressed by one
index 0..7: backgrounds b0..b3 are 0..3, sprites s0..s3 are 4..7, the order of the paint
editor's top row. Every edit returns new values and shares what it did not change.

The terminal look (§8): glyph mode draws a tile as 2×1 cells, the background's colour behind the
top sprite's glyph in its colour (:func:`kind_color`, :func:`kind_glyph`); art mode draws 4×2
half-block cells, the art reduced to 4×4 blocks (:func:`art_blocks`).
"""

from __future__ import annotations

import unicodedata
import zlib
from collections import Counter
from dataclasses import replace

from .model import ART_SIZE, KIND_CODES, PALETTE, ArtKind, Game

Art = tuple[str, ...]
HEX = "0123456789abcdef"
BACKGROUND_FALLBACKS = ("#5c406c", "#003fad", "#91463d", "#249ca3", "#a4839f", "#8e2ec4")
"""Colours for a background kind with neither colour nor art (chosen by name): dark, so a
sprite glyph stays readable in front of them."""
SPRITE_FALLBACKS = ("#ffffff", "#fff609", "#ff8135", "#87f2ff", "#78dc52", "#ff93c4", "#ff2121")
"""Colours for a sprite kind with neither colour nor visible art (chosen by name): bright."""


# ------------------------------------------------------------------------- glyphs, colours


def glyph_width(glyph: str) -> int:
    """How many terminal cells a glyph fills; -1 when it holds a control or format character.

    Combining marks take no cell; East Asian wide and fullwidth characters take two.
    """
    width = 0
    for char in glyph:
        if unicodedata.combining(char):
            continue
        if unicodedata.category(char).startswith("C"):
            return -1
        width += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return width


def is_glyph(value: object) -> bool:
    """True for a string that fills 1 or 2 terminal cells (a kind's glyph, §4.1)."""
    return isinstance(value, str) and 1 <= glyph_width(value) <= 2


def is_color(value: object) -> bool:
    """True for ``#rrggbb`` (hex digits in either case)."""
    return (
        isinstance(value, str) and len(value) == 7 and value[0] == "#"
        and all(c in HEX for c in value[1:].lower())
    )


# ------------------------------------------------------------------------------ pixels


def blank_art() -> Art:
    """16×16 pixels of palette index 0."""
    return ("0" * ART_SIZE,) * ART_SIZE


def _check_xy(x: int, y: int) -> None:
    if not (0 <= x < ART_SIZE and 0 <= y < ART_SIZE):
        raise ValueError(f"pixel ({x},{y}) is outside the {ART_SIZE}×{ART_SIZE} art")


def _check_colour(colour: int) -> None:
    if not 0 <= colour < len(PALETTE):
        raise ValueError(f"colour {colour} is not a palette index 0..15")


def pixel(art: Art | None, x: int, y: int) -> int:
    """The palette index at (x, y) (x to the right, y downward).

    Raises:
        ValueError: (x, y) is outside 0..15.
    """
    _check_xy(x, y)
    return 0 if art is None else int(art[y][x], 16)


def set_pixel(art: Art | None, x: int, y: int, colour: int) -> Art:
    """The art with one pixel changed (only that row is rebuilt).

    Raises:
        ValueError: (x, y) outside the art, or ``colour`` not a palette index.
    """
    _check_xy(x, y)
    _check_colour(colour)
    art = blank_art() if art is None else art
    row = art[y]
    return art[:y] + (row[:x] + HEX[colour] + row[x + 1:],) + art[y + 1:]


def flood_fill(art: Art | None, x: int, y: int, colour: int) -> Art:
    """Fill the 4-connected region of the colour at (x, y) with ``colour`` (the ``f`` key).

    Raises:
        ValueError: (x, y) outside the art, or ``colour`` not a palette index.
    """
    _check_xy(x, y)
    _check_colour(colour)
    art = blank_art() if art is None else art
    old, new = art[y][x], HEX[colour]
    if old == new:
        return art
    grid = [list(row) for row in art]
    stack = [(x, y)]
    grid[y][x] = new
    while stack:
        cx, cy = stack.pop()
        for nx, ny in ((cx - 1, cy), (cx + 1, cy), (cx, cy - 1), (cx, cy + 1)):
            if 0 <= nx < ART_SIZE and 0 <= ny < ART_SIZE and grid[ny][nx] == old:
                grid[ny][nx] = new
                stack.append((nx, ny))
    return tuple(
        "".join(cells) if "".join(cells) != row else row for cells, row in zip(grid, art)
    )


# ------------------------------------------------------------------------------- kinds


def kind_index(code: str) -> int:
    """The paint editor's index of a kind code: b0..b3 → 0..3, s0..s3 → 4..7.

    Raises:
        ValueError: not a kind code.
    """
    if code not in KIND_CODES:
        raise ValueError(f"{code!r} is not a kind: use b0..b3 or s0..s3")
    return KIND_CODES.index(code)


def _check_index(index: int) -> None:
    if not 0 <= index < len(KIND_CODES):
        raise ValueError(f"kind index {index} is outside 0..7")


def kind_at(game: Game, index: int) -> ArtKind:
    """The kind at a paint-editor index (0..3 backgrounds, 4..7 sprites).

    Raises:
        ValueError: an index outside 0..7.
    """
    _check_index(index)
    return game.backgrounds[index] if index < 4 else game.sprites[index - 4]


def set_kind(game: Game, index: int, kind: ArtKind) -> Game:
    """The game with the kind at ``index`` replaced (the gallery's choice).

    Raises:
        ValueError: an index outside 0..7.
    """
    _check_index(index)
    if index < 4:
        kinds = game.backgrounds
        return replace(game, backgrounds=kinds[:index] + (kind,) + kinds[index + 1:])
    i = index - 4
    return replace(game, sprites=game.sprites[:i] + (kind,) + game.sprites[i + 1:])


def set_art(game: Game, index: int, art: Art | None) -> Game:
    """The game with new art for one kind (the paint editor saving a canvas).

    Raises:
        ValueError: an index outside 0..7, or art that is not 16 rows of 16 hex digits.
    """
    if art is not None and not (
        len(art) == ART_SIZE
        and all(len(row) == ART_SIZE and all(c in HEX for c in row) for row in art)
    ):
        raise ValueError("art is 16 rows of 16 lowercase hex digits")
    return set_kind(game, index, replace(kind_at(game, index), art=art))


def rename_kind(game: Game, index: int, name: str) -> Game:
    """The game with a kind renamed (rules refer to codes, so no rule changes).

    Raises:
        ValueError: an index outside 0..7 or a blank name.
    """
    if not name.strip():
        raise ValueError("a kind needs a name")
    return set_kind(game, index, replace(kind_at(game, index), name=name.strip()))


def set_glyph(game: Game, index: int, glyph: str | None) -> Game:
    """The game with a kind's terminal glyph set (None: derive it from the name).

    Raises:
        ValueError: an index outside 0..7, or a glyph not 1 or 2 terminal cells wide.
    """
    if glyph is not None and not is_glyph(glyph):
        raise ValueError(f"glyph {glyph!r} must fill 1 or 2 terminal cells")
    return set_kind(game, index, replace(kind_at(game, index), glyph=glyph))


def set_color(game: Game, index: int, color: str | None) -> Game:
    """The game with a kind's glyph-mode colour set (None: the art's most frequent colour).

    Raises:
        ValueError: an index outside 0..7, or a colour not of the form ``#rrggbb``.
    """
    if color is not None and not is_color(color):
        raise ValueError(f'color {color!r} must look like "#91463d"')
    value = None if color is None else color.lower()
    return set_kind(game, index, replace(kind_at(game, index), color=value))


# ---------------------------------------------------------------------- terminal look


def _stable_pick(name: str, choices: tuple[str, ...]) -> str:
    # crc32, not hash(): the choice must not change between runs.
    return choices[zlib.crc32(name.encode("utf-8")) % len(choices)]


def kind_color(kind: ArtKind, background: bool) -> str:
    """The colour glyph mode draws a kind in, as ``#rrggbb``.

    The kind's own colour if set; else the most frequent colour of its art (sprites ignore
    transparent 0; ties go to the lower palette index); else (no art, or an all-transparent
    sprite) a fixed colour chosen from the kind's name.

    Args:
        kind: the kind.
        background: True for a background kind (its colour fills the cell).
    """
    if kind.color is not None:
        return kind.color
    tally = Counter(int(c, 16) for row in kind.art or () for c in row)
    if not background:
        tally.pop(0, None)
    if tally:
        best = min(tally, key=lambda index: (-tally[index], index))
        return PALETTE[best]
    return _stable_pick(kind.name, BACKGROUND_FALLBACKS if background else SPRITE_FALLBACKS)


def kind_glyph(kind: ArtKind, background: bool) -> str:
    """The glyph glyph mode draws a kind with: its own, or one made from its name.

    From the name: the first letter or digit, upper case for sprites and lower case for
    backgrounds, followed for a name of several words by the second word's initial in lower case
    when both still fit in 2 cells (``snake head`` → ``Sh``); a name without letters or digits
    gives ``?`` (sprites) or ``·`` (backgrounds).
    """
    if kind.glyph is not None:
        return kind.glyph
    initials = [next((c for c in word if c.isalnum()), "") for word in kind.name.split()]
    initials = [c for c in initials if c]
    if not initials:
        return "·" if background else "?"
    glyph = initials[0].lower() if background else initials[0].upper()
    if len(initials) > 1 and glyph_width(glyph + initials[1].lower()) <= 2:
        glyph += initials[1].lower()
    return glyph if is_glyph(glyph) else ("·" if background else "?")


def art_blocks(art: Art | None, size: int = 4) -> tuple[tuple[int, ...], ...]:
    """The art reduced to ``size``×``size`` palette indices, each its block's dominant colour.

    Transparent 0 counts like any colour, so a mostly empty block of a sprite stays transparent.
    Ties go to a visible colour over 0 (a half-covered block still shows), then to the lower
    palette index. Rows are y, columns x.

    Args:
        art: the art (None: blank).
        size: blocks per side; must divide 16.

    Raises:
        ValueError: ``size`` does not divide 16.
    """
    if size < 1 or ART_SIZE % size:
        raise ValueError(f"{size} does not divide {ART_SIZE}")
    art = blank_art() if art is None else art
    step = ART_SIZE // size
    out = []
    for by in range(size):
        line = []
        for bx in range(size):
            tally = Counter(
                int(art[y][x], 16)
                for y in range(by * step, by * step + step)
                for x in range(bx * step, bx * step + step)
            )
            line.append(min(tally, key=lambda index: (-tally[index], index == 0, index)))
        out.append(tuple(line))
    return tuple(out)
