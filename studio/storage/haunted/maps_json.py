"""Importing the original game's ``maps.json`` (spec haunted.md §4.2).

``{"maps": [{"name": str, "tiles": [{"x": int, "y": int, "status": int}, ...]}, ...]}``: every
tile starts at 3 and ``tiles`` lists overrides. The original applied an entry as
``setTileAtIndex(row = x, column = y, status)``, so **x is the row and y the column**. Maps are
always 7x7 with the default starts.
"""

from __future__ import annotations

from typing import Any

from studio.engines.haunted.board import Map
from studio.engines.haunted.map_edit import unique_name
from studio.storage.errors import ProjectError
from studio.storage.haunted.kind import map_table
from studio.storage.names import check_name_characters

ORIGINAL_SIZE = 7
PROVENANCE = "imported from an original maps.json"


def maps_from_maps_json(document: Any) -> list[Map]:
    """The maps of a parsed ``maps.json`` document; raises ProjectError naming the bad entry."""
    entries = document.get("maps") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise ProjectError("not an original maps.json: no \"maps\" list", field_path=("maps",))
    maps = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise ProjectError("a map needs a name", field_path=("maps", i, "name"))
        check_name_characters(entry["name"], "map name", ("maps", i, "name"))
        rows = [[3] * ORIGINAL_SIZE for _ in range(ORIGINAL_SIZE)]
        tiles = entry.get("tiles") or []
        if not isinstance(tiles, list):
            raise ProjectError("tiles is a list of {\"x\": row, \"y\": col, \"status\": 0..3}",
                               field_path=("maps", i, "tiles"))
        for j, tile in enumerate(tiles):
            try:
                row, col, status = int(tile["x"]), int(tile["y"]), int(tile["status"])
            except (KeyError, TypeError, ValueError, OverflowError):  # OverflowError: 1e999
                raise ProjectError("a tile is {\"x\": row, \"y\": col, \"status\": 0..3}",
                                   field_path=("maps", i, "tiles", j)) from None
            if not (0 <= row < ORIGINAL_SIZE and 0 <= col < ORIGINAL_SIZE and 0 <= status <= 3):
                raise ProjectError("tile outside the 7x7 board or status not 0..3",
                                   field_path=("maps", i, "tiles", j))
            rows[row][col] = status
        try:
            maps.append(Map.from_rows(entry["name"], rows, provenance=PROVENANCE))
        except ValueError as exc:
            raise ProjectError(str(exc), field_path=("maps", i)) from None
    return maps


def add_maps(body: dict[str, Any], maps: list[Map]) -> list[str]:
    """Append ``maps`` to a project body as ``[[map]]`` tables, renaming clashes ("Name (2)");
    returns the names used."""
    tables = body.setdefault("map", [])
    taken = {t.get("name") for t in tables}
    names = []
    for board in maps:
        name = unique_name(board.name, taken)
        table = map_table(board)
        table["name"] = name
        tables.append(table)
        taken.add(name)
        names.append(name)
    return names
