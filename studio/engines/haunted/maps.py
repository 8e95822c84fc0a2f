"""The shipped maps (spec haunted.md §10): our recreations of the five original layouts, re-expressed
as facts (hole positions), and our own example maps for sizes 5..15."""

from __future__ import annotations

from studio.engines.haunted.board import Map

ORIGINAL_PROVENANCE = "codecomp-dropper src/assets/maps/maps.json (layout re-expressed as facts)"

# (row, col) of the holes of each original 7x7 map; every other tile has strength 3.
_ORIGINAL_HOLES: dict[str, list[tuple[int, int]]] = {
    "Default": [],
    "WaffleTown": [(0, 2), (0, 4), (2, 0), (2, 2), (2, 4), (2, 6), (4, 0), (4, 2), (4, 4), (4, 6),
                   (6, 2), (6, 4)],
    "JeffBridges": [(2, 1), (2, 5), (3, 0), (3, 3), (3, 6), (4, 1), (4, 5)],
    "I(n) The Middle": [(2, 2), (2, 3), (2, 4), (3, 3), (4, 2), (4, 3), (4, 4)],
    "Hourglass": [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (2, 1), (3, 1), (4, 1), (1, 6), (2, 6),
                  (3, 6), (4, 6), (5, 6), (2, 5), (3, 5), (4, 5), (3, 3)],
}

DEFAULT_ROTATION = ("Default", "I(n) The Middle", "WaffleTown", "Hourglass", "Default")
"""The original's "Default Map Rotation": round k plays ``DEFAULT_ROTATION[(k - 1) % 5]``."""


def _from_holes(name: str, holes: list[tuple[int, int]]) -> Map:
    rows = [[3] * 7 for _ in range(7)]
    for r, c in holes:
        rows[r][c] = 0
    return Map.from_rows(name, rows, provenance=ORIGINAL_PROVENANCE)


def original_maps() -> list[Map]:
    """The five original maps in the original's file order."""
    return [_from_holes(name, holes) for name, holes in _ORIGINAL_HOLES.items()]


def _open(size: int) -> Map:
    return Map.from_rows(f"Open {size}", [[3] * size for _ in range(size)],
                         description=f"{size}x{size}, every tile at full strength")


def _cracked_9() -> Map:
    rows = [[3] * 9 for _ in range(9)]
    for r in range(2, 7):
        for c in range(2, 7):
            if max(abs(r - 4), abs(c - 4)) == 2:
                rows[r][c] = 1  # the ring around the centre 3x3
    return Map.from_rows("Cracked 9", rows,
                         description="9x9 with a ring of danger tiles around the centre 3x3")


def _islands_11() -> Map:
    rows = [[0] * 11 for _ in range(11)]
    centres = [(1, 5), (9, 5), (5, 1), (5, 9)]  # top, bottom, left, right islands
    for cr, cc in centres:
        for r in range(cr - 1, cr + 2):
            for c in range(cc - 1, cc + 2):
                rows[r][c] = 3
    # Single-tile-wide bridges of strength 2, each an L from a top/bottom island to a side one.
    for r in (3, 7):
        for c in (2, 3, 4, 6, 7, 8):
            rows[r][c] = 2
    return Map.from_rows("Islands 11", rows, home=[[0, 4], [0, 5], [0, 6]],
                         away=[[10, 4], [10, 5], [10, 6]],
                         description="11x11: four islands joined by weak bridges")


def example_maps() -> list[Map]:
    """Our own maps (§10.2), all symmetric left/right and top/bottom."""
    return [_open(5), _open(9), _cracked_9(), _islands_11(), _open(15)]


def builtin_maps() -> dict[str, Map]:
    """Every shipped map by name: the originals first, then ours."""
    return {m.name: m for m in [*original_maps(), *example_maps()]}
