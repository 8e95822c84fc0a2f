"""Btree projects (spec §4.4): body validation, summary, the new-project template, and the
conversions between a project body and an authored trrbt game.

Importing this module registers them on ``KINDS["btree"]``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from studio.engines.btree.model.schema import ALL_TYPES, node_types_hint, pattern_size
from studio.engines.btree.play.seats import SEAT_HINT, SEAT_KINDS, is_seat
from studio.storage.btree.body import (
    count_nodes,
    drop_nulls,
    grid_from_toml,
    grid_to_toml,
    nodes_to_tree,
    tree_to_nodes,
)
from studio.storage.errors import ProjectError
from studio.storage.kinds import KINDS, Body

if TYPE_CHECKING:
    from studio.engines.btree.compiling.compiled import Compiled
    from studio.engines.btree.model.reshape import Game

# The compiler (and the game model) load when a summary or a check first builds a game: checking
# a project as it is read (the home screen lists every one) needs only the node types.

SEATS = SEAT_KINDS  # a computer seat may add its seconds per move: computer:0.5
_BTREE_KEYS = {"seed", "missing_links"}
_DISPLAY_KEYS = {"cell_width", "show_hidden", "glyphs", "colors", "images"}
_COLOR = re.compile(r"#[0-9a-fA-F]{6}\Z")


# ------------------------------------------------------------------------------------ sprites


def sprites_to_toml(sprites: dict[str, Any], warnings: list[str] | None = None) -> dict[str, Any]:
    """Packed sprite data in TOML form: ``tiles`` nulls as ``false``, ``back`` as pattern text."""
    out: dict[str, Any] = {}
    for key, value in sprites.items():
        if key == "tiles" and isinstance(value, dict):
            out[key] = {tile: (False if name is None else name) for tile, name in value.items()}
        elif key == "back" and isinstance(value, list):
            out[key] = grid_to_toml(value)
        else:
            cleaned = drop_nulls(value, f"sprites.{key}", warnings)
            if cleaned is not None:
                out[key] = cleaned
    return out


def sprites_from_toml(table: Any) -> dict[str, Any]:
    """The packed sprite data of a ``[sprites]`` table (inverse of :func:`sprites_to_toml`)."""
    if not isinstance(table, dict):
        raise ProjectError("[sprites] must be a table", field_path=("sprites",))
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key == "tiles" and isinstance(value, dict):
            out[key] = {tile: (None if name is False else name) for tile, name in value.items()}
        elif key == "back":
            out[key] = grid_from_toml(value, ("sprites", "back"))
        else:
            out[key] = value
    return out


# ----------------------------------------------------------------------------- body ⇄ game


def body_to_game(body: Body, name: str) -> Game:
    """The authored game a project body holds (raises :class:`ProjectError` if malformed)."""
    from studio.engines.btree.model.reshape import Game

    tree = nodes_to_tree(body.get("node"))
    sprites = sprites_from_toml(body["sprites"]) if "sprites" in body else None
    return Game(name=name, tree=tree, sprites=sprites)


def game_to_body(
    game: Game,
    missing_links: str = "error",
    seats: dict[str, str] | None = None,
    provenance: dict[str, str] | None = None,
    warnings: list[str] | None = None,
) -> Body:
    """A project body for an authored game (canonical key order)."""
    body: Body = {"btree": {"seed": 0, "missing_links": missing_links}}
    if seats:
        body["seats"] = dict(seats)
    body["display"] = {"cell_width": 0, "show_hidden": False}
    if provenance:
        body["provenance"] = dict(provenance)
    if game.sprites is not None:
        body["sprites"] = sprites_to_toml(game.sprites, warnings)
    if game.tree is not None:
        body["node"] = tree_to_nodes(game.tree, warnings)
    return body


def pids_of(compiled: Compiled) -> list[str]:
    """The pids of the compiled game's player/win/lose nodes, as strings, in tree order."""
    out: list[str] = []
    for node in compiled.nodes:
        if node.get("type") in ("player", "win", "lose") and node.get("pid") not in (None, ""):
            pid = node["pid"]
            text = str(int(pid)) if isinstance(pid, float) and pid == int(pid) else str(pid)
            if text not in out:
                out.append(text)
    return out


# -------------------------------------------------------------------------------- validation


def validate(body: Body) -> None:
    """Check a btree body; raises :class:`ProjectError` with the field path of the first problem."""
    _check_table(body, "btree", _BTREE_KEYS)
    settings = body.get("btree", {})
    seed = settings.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0 or seed >= 2**53:
        raise ProjectError("seed must be a whole number, 0 or more", field_path=("btree", "seed"))
    if settings.get("missing_links", "error") not in ("error", "empty"):
        raise ProjectError("missing_links must be \"error\" or \"empty\"", field_path=("btree", "missing_links"))
    seats = body.get("seats", {})
    if not isinstance(seats, dict):
        raise ProjectError("[seats] must be a table", field_path=("seats",))
    for pid, seat in seats.items():
        if not is_seat(seat):
            raise ProjectError(f"a seat is {SEAT_HINT}", field_path=("seats", pid))
    _check_table(body, "display", _DISPLAY_KEYS)
    display = body.get("display", {})
    width = display.get("cell_width", 0)
    if not isinstance(width, int) or isinstance(width, bool) or width < 0:
        raise ProjectError("cell_width must be a whole number, 0 or more", field_path=("display", "cell_width"))
    for flag in ("show_hidden", "images"):
        if not isinstance(display.get(flag, False), bool):
            raise ProjectError(f"{flag} must be true or false", field_path=("display", flag))
    glyphs = display.get("glyphs", {})
    if not isinstance(glyphs, dict) or not all(isinstance(v, str) for v in glyphs.values()):
        raise ProjectError("glyphs maps tiles to text", field_path=("display", "glyphs"))
    colors = display.get("colors", {})
    if not isinstance(colors, dict):
        raise ProjectError("colors maps tiles to #rrggbb colours", field_path=("display", "colors"))
    for tile, color in colors.items():
        if not isinstance(color, str) or not _COLOR.match(color):
            raise ProjectError(
                f"colour of tile {tile!r} must look like #rrggbb", field_path=("display", "colors", tile)
            )
    if "sprites" in body:
        sprites_from_toml(body["sprites"])
    tree = nodes_to_tree(body.get("node"))
    for index, table in enumerate(body.get("node") or ()):
        if table["type"] not in ALL_TYPES:
            raise ProjectError(f"unknown node type {table['type']!r}", field_path=("node", index, "type"),
                               hint=node_types_hint(table["type"]))
    del tree


def _check_table(body: Body, name: str, keys: set[str]) -> None:
    table = body.get(name, {})
    if not isinstance(table, dict):
        raise ProjectError(f"[{name}] must be a table", field_path=(name,))
    for key in table:
        if key not in keys:
            raise ProjectError(f"unknown key {key!r} in [{name}]", field_path=(name, key),
                               hint=f"[{name}] holds {', '.join(sorted(keys))}")


# ----------------------------------------------------------------------------------- summary


def summarize(body: Body) -> dict[str, Any]:
    """What ``studio inspect`` and the home screen show about a btree project."""
    try:
        game = body_to_game(body, "")
    except ProjectError as exc:
        return {"nodes": len(body.get("node") or ()), "error": exc.message}
    summary: dict[str, Any] = {"nodes": count_nodes(game.tree)}
    if game.tree is None:
        return {**summary, "error": "no tree"}
    from studio.engines.btree.compiling.compiler import compile_game
    from studio.engines.btree.model.errors import BtreeError

    missing = body.get("btree", {}).get("missing_links", "error")
    try:
        compiled = compile_game(game, missing_links=missing)
    except BtreeError as exc:
        return {**summary, "error": str(exc)}
    summary["compiled"] = len(compiled.nodes)
    summary["players"] = pids_of(compiled)
    board = next((n for n in compiled.nodes if n.get("type") == "set-board"), None)
    if board is not None:
        rows, cols = pattern_size(board["pattern"])
        layers = len(board["pattern"])
        summary["board"] = f"{rows}×{cols}" + (f"×{layers}" if layers > 1 else "")
    summary["warnings"] = len(compiled.warnings)
    return summary


def new_body(name: str) -> Body:
    """A new project: the smallest valid game (a 3×3 board, shown once).

    Kept byte-identical to the studio's first template so existing new projects stay canonical.
    """
    tree = {
        "type": "order",
        "children": [
            {"type": "set-board", "pattern": {"main": [["_", "_", "_"]] * 3}},
            {"type": "display-board"},
        ],
    }
    return {"btree": {"seed": 0, "missing_links": "error"}, "node": tree_to_nodes(tree)}


def check(body: Body) -> list[str]:
    """Compile the game (``studio validate``): authoring errors name the node; returns warnings."""
    from studio.engines.btree.compiling.compiler import compile_game
    from studio.engines.btree.model.errors import BtreeError

    game = body_to_game(body, "")
    if game.tree is None:
        raise ProjectError("the game has no tree", field_path=("node",), hint="add a root [[node]] with at = []")
    try:
        compiled = compile_game(game, missing_links=body.get("btree", {}).get("missing_links", "error"))
    except BtreeError as exc:
        raise ProjectError(str(exc), hint="fix the node in the editor or the file") from None
    return [str(warning) for warning in compiled.warnings]


def register() -> None:
    """Install the btree storage functions on ``KINDS["btree"]``."""
    spec = KINDS["btree"]
    spec.validate = validate
    spec.check = check
    spec.summarize = summarize
    spec.new_body = new_body


register()
