"""Map editor (spec tilecode.md §8.5) and game settings (§8.4) as pure edits.

Maps are immutable: an edit returns a new :class:`TileMap` that shares every background row it
did not touch (a 128×128 map edit copies one row, not the grid) and every sprite placement.
``TileMap.sprites`` stays in initial-id order (§3.5): row-major by tile (y outer, x inner) and,
on one tile, in file order, which is what the project writer stores and the reader rebuilds.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import replace

from .model import MAX_MAP, MAX_SEED, MIN_MAP, RENDER_MODES, Game, SpritePlacement, TileMap

ROUND_MS = (30, 2000)
"""Allowed round period in milliseconds (§3.2); the project reader checks the same range."""
KIND_RANGE = range(4)


def _check_tile(tile_map: TileMap, x: int, y: int) -> None:
    if not (0 <= x < tile_map.width and 0 <= y < tile_map.height):
        raise ValueError(f"tile ({x},{y}) is outside the {tile_map.width}×{tile_map.height} map")


def _check_kind(kind: int) -> None:
    if kind not in KIND_RANGE:
        raise ValueError(f"kind {kind} is outside 0..3")


def _tile_span(tile_map: TileMap, x: int, y: int) -> tuple[int, int]:
    """Where the sprites of tile (x, y) sit in ``tile_map.sprites`` (a slice, maybe empty).

    Relies on the §3.5 order, which the project reader and every edit here keep.
    """
    sprites, key = tile_map.sprites, _order
    return bisect_left(sprites, (y, x), key=key), bisect_right(sprites, (y, x), key=key)


def _order(sprite: SpritePlacement) -> tuple[int, int]:
    return sprite.y, sprite.x


def _with_row(tile_map: TileMap, y: int, row: tuple[int, ...]) -> TileMap:
    background = tile_map.background
    return replace(tile_map, background=background[:y] + (row,) + background[y + 1:])


def paint_tile(tile_map: TileMap, x: int, y: int, kind: int) -> TileMap:
    """Set one tile's background kind (the background brush).

    Args:
        tile_map: the map.
        x, y: the tile.
        kind: background kind 0..3.

    Returns:
        The edited map (the same map when nothing changes).

    Raises:
        ValueError: the tile is off the map or the kind is outside 0..3.
    """
    _check_tile(tile_map, x, y)
    _check_kind(kind)
    row = tile_map.background[y]
    if row[x] == kind:
        return tile_map
    return _with_row(tile_map, y, row[:x] + (kind,) + row[x + 1:])


def sprites_on(tile_map: TileMap, x: int, y: int) -> list[int]:
    """The sprite kinds on a tile, in initial-id order (the first is the grid's sprite)."""
    start, end = _tile_span(tile_map, x, y)
    return [s.kind for s in tile_map.sprites[start:end]]


def stamp_sprite(tile_map: TileMap, x: int, y: int, kind: int) -> TileMap:
    """The sprite brush: one click places one sprite (§8.5).

    The tile's sprites are replaced by one sprite of ``kind``; if the tile holds exactly that one
    sprite already, it is removed instead (clicking again toggles it off). The editor never
    makes stacks.

    Raises:
        ValueError: the tile is off the map or the kind is outside 0..3.
    """
    _check_tile(tile_map, x, y)
    _check_kind(kind)
    start, end = _tile_span(tile_map, x, y)
    sprites = tile_map.sprites
    if end - start == 1 and sprites[start].kind == kind:
        placed: tuple[SpritePlacement, ...] = ()
    else:
        placed = (SpritePlacement(x, y, kind),)
    return replace(tile_map, sprites=sprites[:start] + placed + sprites[end:])


def clear_sprites(tile_map: TileMap, x: int, y: int) -> TileMap:
    """Remove every sprite on a tile (``delete`` on a stack loaded from a file).

    Raises:
        ValueError: the tile is off the map.
    """
    _check_tile(tile_map, x, y)
    start, end = _tile_span(tile_map, x, y)
    if start == end:
        return tile_map
    return replace(tile_map, sprites=tile_map.sprites[:start] + tile_map.sprites[end:])


def flood_tiles(tile_map: TileMap, x: int, y: int, kind: int) -> TileMap:
    """Repaint the 4-connected region of equal background around (x, y) with ``kind``.

    Only the rows the region touches are copied.

    Raises:
        ValueError: the tile is off the map or the kind is outside 0..3.
    """
    _check_tile(tile_map, x, y)
    _check_kind(kind)
    old = tile_map.background[y][x]
    if old == kind:
        return tile_map
    rows: dict[int, list[int]] = {}
    seen = {(x, y)}
    stack = [(x, y)]
    while stack:
        cx, cy = stack.pop()
        rows.setdefault(cy, list(tile_map.background[cy]))[cx] = kind
        for nx, ny in ((cx - 1, cy), (cx + 1, cy), (cx, cy - 1), (cx, cy + 1)):
            if (
                0 <= nx < tile_map.width and 0 <= ny < tile_map.height
                and (nx, ny) not in seen and tile_map.background[ny][nx] == old
            ):
                seen.add((nx, ny))
                stack.append((nx, ny))
    background = tuple(
        tuple(rows[i]) if i in rows else row for i, row in enumerate(tile_map.background)
    )
    return replace(tile_map, background=background)


def _check_size(width: int, height: int) -> None:
    for name, size in (("width", width), ("height", height)):
        if not MIN_MAP <= size <= MAX_MAP:
            raise ValueError(f"map {name} {size} is outside {MIN_MAP}..{MAX_MAP}")


def resize_loss(tile_map: TileMap, width: int, height: int) -> tuple[int, int]:
    """What resizing would crop, for the settings screen's confirmation.

    Returns:
        (tiles lost, sprites lost); (0, 0) when the map only grows.

    Raises:
        ValueError: a size outside 8..128.
    """
    _check_size(width, height)
    kept = min(width, tile_map.width) * min(height, tile_map.height)
    tiles = tile_map.width * tile_map.height - kept
    sprites = sum(not (s.x < width and s.y < height) for s in tile_map.sprites)
    return tiles, sprites


def resize(tile_map: TileMap, width: int, height: int) -> TileMap:
    """The map at a new size: shrinking crops right and bottom and drops the sprites there,
    growing fills the new tiles with background 0.

    Rows whose width does not change are shared.

    Raises:
        ValueError: a size outside 8..128.
    """
    _check_size(width, height)
    if (width, height) == (tile_map.width, tile_map.height):
        return tile_map
    grow = (0,) * max(0, width - tile_map.width)
    rows = tuple(
        row if len(row) == width else row[:width] + grow
        for row in tile_map.background[:height]
    )
    rows += ((0,) * width,) * max(0, height - tile_map.height)
    sprites = tuple(s for s in tile_map.sprites if s.x < width and s.y < height)
    return TileMap(width, height, rows, sprites)


# ------------------------------------------------------------------------------ the game


def set_map(game: Game, tile_map: TileMap) -> Game:
    """The game with another map (rules and art shared)."""
    return replace(game, map=tile_map)


def set_settings(game: Game, **fields: object) -> Game:
    """The game with edited settings (§8.4): any of ``name``, ``help``, ``round_ms``,
    ``high_score``, ``seed``, ``render``.

    The map size is changed with :func:`resize` and :func:`set_map`; ``player_kind`` stays 0.

    Raises:
        ValueError: an unknown field or a value out of range (round_ms 30..2000, seed None or
            0..2**63-1, render glyph/art, name not blank, high_score ≥ 0).
    """
    checks = {
        "name": lambda v: isinstance(v, str) and bool(v.strip()),
        "help": lambda v: isinstance(v, bool),
        "round_ms": lambda v: _whole(v) and ROUND_MS[0] <= v <= ROUND_MS[1],
        "high_score": lambda v: _whole(v) and v >= 0,
        "seed": lambda v: v is None or (_whole(v) and 0 <= v <= MAX_SEED),
        "render": lambda v: v in RENDER_MODES,
    }
    for key, value in fields.items():
        if key not in checks:
            raise ValueError(f"{key!r} is not a setting: use {', '.join(checks)}")
        if not checks[key](value):
            raise ValueError(f"{key} cannot be {value!r}")
    return replace(game, **fields)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
