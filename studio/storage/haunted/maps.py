"""The ``[[map]]`` tables of a Haunted Tiles project as the map editor edits them.

A table is read into a :class:`~studio.engines.haunted.map_edit.MapDraft` leniently — a start on
a hole or two starts on one tile is kept, as it must be while someone is drawing — and written
back in the canonical form of :func:`~studio.storage.haunted.kind.map_table`. The project-level
edits (rename, delete, import) keep the ``[match]`` rotation pointing at the right maps.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.engines.common.limits import MAX_MAPS_JSON_BYTES
from studio.engines.haunted.board import MAX_SIZE, MIN_SIZE, Map, default_starts
from studio.engines.haunted.map_edit import MapDraft
from studio.storage.errors import ProjectError
from studio.storage.haunted.kind import map_table, parse_tiles
from studio.storage.haunted.maps_json import add_maps, maps_from_maps_json
from studio.storage.haunted.project import HauntedModel
from studio.storage.reading import decode_text, parse_json, read_bounded


def _starts(value: Any, default: tuple, *path: str | int) -> tuple[tuple[int, int], ...]:
    if value is None:
        return default
    ok = isinstance(value, list) and len(value) == 3 and all(
        isinstance(p, list) and len(p) == 2 and all(type(v) is int for v in p) for p in value)
    if not ok:
        raise ProjectError("a side needs three start tiles [[row, col], …]", field_path=path)
    return tuple((r, c) for r, c in value)


def draft_of(table: dict[str, Any], index: int) -> MapDraft:
    """The draft of ``[[map]]`` number ``index``.

    Raises:
        ProjectError: the table is not a grid the editor can show (bad size or tiles), with its
            field path. Starts on holes, shared starts and a missing name are kept.
    """
    size = table.get("size")
    if type(size) is not int or not MIN_SIZE <= size <= MAX_SIZE:
        raise ProjectError(f"size must be a whole number from {MIN_SIZE} to {MAX_SIZE}",
                           field_path=("map", index, "size"))
    grid = parse_tiles(table.get("tiles"), size, "map", index, "tiles")
    default_home, default_away = default_starts(size)
    name = table.get("name")
    return MapDraft(
        name if isinstance(name, str) else "",
        size,
        tuple(v for row in grid for v in row),
        _starts(table.get("home"), default_home, "map", index, "home"),
        _starts(table.get("away"), default_away, "map", index, "away"),
        str(table.get("description", "")),
        str(table.get("provenance", "")),
    )


def table_of(draft: MapDraft) -> dict[str, Any]:
    """The canonical ``[[map]]`` table of a draft (valid or not)."""
    return map_table(draft)  # type: ignore[arg-type]  # a draft has every field map_table reads


def map_names(model: HauntedModel) -> list[str]:
    return [str(table.get("name", "")) for table in model.map_tables]


def with_draft(model: HauntedModel, index: int, draft: MapDraft) -> HauntedModel:
    """Map ``index`` replaced by ``draft`` (``len(maps)`` appends it)."""
    return model.with_map(index, table_of(draft))


def _rotation(model: HauntedModel) -> list[Any] | str | None:
    match = model.body.get("match")
    return match.get("maps") if isinstance(match, dict) else None


def _with_rotation(model: HauntedModel, rotation: list[Any] | str | None) -> HauntedModel:
    match = dict(model.body.get("match") or {})
    if rotation is None:
        match.pop("maps", None)
    else:
        match["maps"] = rotation
    return model.with_table("match", match)


def uses_in_rotation(model: HauntedModel, name: str) -> int:
    """How many rounds of the ``[match]`` rotation play the map called ``name``."""
    rotation = _rotation(model)
    if isinstance(rotation, str):
        return int(rotation == name)
    return sum(1 for entry in rotation or () if entry == name)


def rename_map(model: HauntedModel, index: int, name: str) -> HauntedModel:
    """Map ``index`` renamed, and the rotation's rounds that played it under the old name too
    (a rename that left the rotation behind would make the project unsaveable)."""
    old = model.map_tables[index].get("name")
    table = dict(model.map_tables[index], name=name)
    model = model.with_map(index, table)
    rotation = _rotation(model)
    if uses_in_rotation(model, old):
        if isinstance(rotation, str):
            return _with_rotation(model, name)
        return _with_rotation(model, [name if entry == old else entry for entry in rotation])
    return model


def delete_map(model: HauntedModel, index: int) -> HauntedModel:
    """Map ``index`` removed, and with it its rounds of the rotation; a rotation left empty is
    dropped, so the project's default rotation applies."""
    name = model.map_tables[index].get("name")
    model = model.with_map(index, None)
    if not uses_in_rotation(model, name):
        return model
    rotation = _rotation(model)
    kept = [] if isinstance(rotation, str) else [entry for entry in rotation if entry != name]
    return _with_rotation(model, kept or None)


def read_maps_json(path: Path) -> list[Map]:
    """The maps of an original ``maps.json`` file (§4.2).

    Raises:
        ProjectError: the file cannot be read or is not an original ``maps.json``.
    """
    document = read_json_document(path)
    try:
        return maps_from_maps_json(document)
    except ProjectError as exc:
        raise exc.with_file(Path(path)) from None


def read_json_document(path: str | Path, cap: int = MAX_MAPS_JSON_BYTES) -> Any:
    """A JSON file, read within ``cap`` bytes and the nesting limit.

    Raises:
        ProjectError: the file cannot be read, is too big or too deep, or is not JSON.
    """
    path = Path(path)
    return parse_json(decode_text(read_bounded(path, cap, "a maps.json"), path), path)


def import_maps(model: HauntedModel, maps: list[Map]) -> tuple[HauntedModel, list[str]]:
    """The model with ``maps`` appended (clashing names get " (2)"…); returns the names used."""
    body = {**model.body, "map": model.map_tables}
    names = add_maps(body, maps)
    return model.with_table("map", body["map"]), names


def is_maps_json(document: Any) -> bool:
    """Whether a parsed JSON document has the shape of the original ``maps.json``."""
    entries = document.get("maps") if isinstance(document, dict) else None
    return isinstance(entries, list) and bool(entries) and all(
        isinstance(e, dict) and "name" in e and isinstance(e.get("tiles", []), list)
        for e in entries)
