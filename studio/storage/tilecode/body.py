"""Reading a TileCode project body (spec tilecode.md §4.1) into a :class:`Game`.

Only the *shape* of the file is checked here (keys, types, grids, codes), because nothing
sensible can be built otherwise; the authoring constraints of §3.4 are checked on the built
game by :mod:`studio.storage.tilecode.check`. Every error names its field path.
"""

from __future__ import annotations

from typing import Any

from studio.engines.tilecode.art_edit import HEX, is_color, is_glyph
from studio.engines.tilecode.map_edit import ROUND_MS
from studio.engines.tilecode.model import (
    ART_SIZE, BUTTONS, DIR_PREDICATES, KIND_CODES, MAX_MAP, MAX_SEED, MIN_MAP, RENDER_MODES,
    RULE_TYPES, SPRITE_CODES, TRANSFORMS, ArtKind, Command, Game, Rule, SpritePlacement, TileMap, TileRecord,
)
from studio.storage.errors import FieldPath, ProjectError

TOP_KEYS = ("game", "provenance", "backgrounds", "sprites", "map", "rules")
GAME_KEYS = ("player_kind", "help", "round_ms", "high_score", "seed", "render")
ART_KEYS = ("name", "glyph", "color", "art")
MAP_KEYS = ("width", "height", "background", "sprites", "extra_sprites")
RULE_KEYS = ("id", "type", "button", "transforms", "enabled", "tiles")
TILE_KEYS = ("col", "row", "include", "include2", "exclude", "dir", "do")
SETS = ("include", "include2", "exclude")
UNSUPPORTED = {"move u-turn": "u-turn", "game next-level": "next-level"}


def fail(message: str, path: FieldPath, hint: str = "") -> ProjectError:
    return ProjectError(message, field_path=path, hint=hint)


def check_keys(table: Any, allowed: tuple[str, ...], path: FieldPath, what: str) -> dict:
    """The table itself; unknown keys are errors because they usually are typos."""
    if not isinstance(table, dict):
        raise fail(f"{what} must be a table", path)
    for key in table:
        if key not in allowed:
            raise fail(f"unknown key {key!r} in {what}", (*path, key),
                       f"{what} holds {', '.join(allowed)}")
    return table


def _int(table: dict, key: str, path: FieldPath, default: int | None, low: int, high: int) -> int:
    value = table.get(key, default)
    if value is None:
        raise fail(f"{key!r} is missing", path, f"add {key} = a whole number")
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise fail(f"{key} must be a whole number from {low} to {high}, not {value!r}", (*path, key))
    return value


def _str(table: dict, key: str, path: FieldPath, choices: tuple[str, ...], default: str | None) -> str:
    value = table.get(key, default)
    if value is None:
        raise fail(f"{key!r} is missing", path, f"use one of: {', '.join(choices)}")
    if value not in choices:
        raise fail(f"{key} {value!r} is not one of {', '.join(choices)}", (*path, key))
    return value


def grid_rows(value: Any, path: FieldPath, width: int, height: int) -> list[str]:
    """The rows of a multi-line grid: lines stripped, a final empty line ignored, shape checked."""
    if not isinstance(value, str):
        raise fail("a grid is a multi-line string, one row per line", path)
    rows = [line.strip() for line in value.split("\n")]
    if rows and rows[-1] == "":
        rows.pop()
    if len(rows) != height:
        raise fail(f"the grid has {len(rows)} rows; it needs {height}", path,
                   "one line per row between the triple quotes")
    for y, row in enumerate(rows):
        if len(row) != width:
            raise fail(f"row {y} has {len(row)} cells; it needs {width}", path)
    return rows


# ------------------------------------------------------------------------------------ art


def read_art(table: Any, path: FieldPath) -> ArtKind:
    table = check_keys(table, ART_KEYS, path, "an art kind")
    name = table.get("name")
    if not isinstance(name, str) or not name.strip():
        raise fail("every kind needs a name", (*path, "name"), 'add name = "…"')
    glyph = table.get("glyph")
    if glyph is not None and not is_glyph(glyph):
        raise fail(f"glyph {glyph!r} must fill 1 or 2 terminal cells", (*path, "glyph"))
    color = table.get("color")
    if color is not None and not is_color(color):
        raise fail(f"color {color!r} must look like \"#91463d\"", (*path, "color"))
    art = None
    if "art" in table:
        rows = grid_rows(table["art"], (*path, "art"), ART_SIZE, ART_SIZE)
        for y, row in enumerate(rows):
            if any(c not in HEX for c in row.lower()):
                raise fail(f"art row {y} holds a character that is not a hex digit", (*path, "art"),
                           "each pixel is a palette index 0-f")
        art = tuple(row.lower() for row in rows)
    return ArtKind(name, art, glyph, None if color is None else color.lower())


def _art_list(body: dict, key: str) -> tuple[ArtKind, ...]:
    items = body.get(key)
    if not isinstance(items, list) or len(items) != 4:
        count = len(items) if isinstance(items, list) else 0
        raise fail(f"a game has exactly 4 [[{key}]] tables, this one has {count}", (key,),
                   f"one [[{key}]] per kind, in kind order")
    return tuple(read_art(item, (key, i)) for i, item in enumerate(items))


# ------------------------------------------------------------------------------------ map


def read_map(table: Any) -> TileMap:
    path: FieldPath = ("map",)
    table = check_keys(table, MAP_KEYS, path, "[map]")
    width = _int(table, "width", path, None, MIN_MAP, MAX_MAP)
    height = _int(table, "height", path, None, MIN_MAP, MAX_MAP)
    background: list[tuple[int, ...]] = []
    for y, row in enumerate(grid_rows(table.get("background"), (*path, "background"), width, height)):
        for x, char in enumerate(row):
            if char not in "0123":
                raise fail(f"tile ({x},{y}) has background {char!r}: a kind index must be 0 to 3",
                           (*path, "background"))
        background.append(tuple(int(c) for c in row))
    placed: list[tuple[int, int, int, SpritePlacement]] = []
    if "sprites" in table:
        rows = grid_rows(table["sprites"], (*path, "sprites"), width, height)
        for y, row in enumerate(rows):
            for x, char in enumerate(row):
                if char == ".":
                    continue
                if char not in "0123":
                    raise fail(f"tile ({x},{y}) has sprite {char!r}: use '.' or a kind index 0 to 3",
                               (*path, "sprites"))
                placed.append((y, x, -1, SpritePlacement(x, y, int(char))))
    extras = table.get("extra_sprites", [])
    if not isinstance(extras, list):
        raise fail("extra_sprites is a list of [x, y, kind]", (*path, "extra_sprites"))
    for i, item in enumerate(extras):
        where = (*path, "extra_sprites", i)
        if not (isinstance(item, list) and len(item) == 3 and item[2] in SPRITE_CODES
                and all(isinstance(v, int) and not isinstance(v, bool) for v in item[:2])):
            raise fail(f"extra sprite {item!r} must be [x, y, \"sN\"]", where)
        x, y = item[0], item[1]
        if not (0 <= x < width and 0 <= y < height):
            raise fail(f"extra sprite at ({x},{y}) is outside the {width}×{height} map", where)
        placed.append((y, x, i, SpritePlacement(x, y, SPRITE_CODES.index(item[2]))))
    # Initial ids follow §3.5: row-major tiles; the grid's sprite first, then extras in file order.
    placed.sort(key=lambda entry: entry[:3])
    return TileMap(width, height, tuple(background), tuple(p for *_, p in placed))


# ---------------------------------------------------------------------------------- rules


def read_command(text: Any, path: FieldPath) -> Command:
    if not isinstance(text, str):
        raise fail("a command is a string such as \"move right\"", path)
    words = " ".join(text.split())
    if words in UNSUPPORTED:
        raise fail(f"{UNSUPPORTED[words]} is not supported (it never worked in the original)", path,
                   "remove the command")
    try:
        return Command.parse(text)
    except ValueError as exc:
        raise fail(str(exc), path) from None


def _kinds(record: dict, key: str, path: FieldPath) -> frozenset[str]:
    codes = record.get(key, [])
    if not isinstance(codes, list):
        raise fail(f"{key} is a list of kind codes such as [\"s0\", \"b1\"]", (*path, key))
    for code in codes:
        if code not in KIND_CODES:
            raise fail(f"{code!r} in {key} is not a kind: use b0..b3 or s0..s3", (*path, key))
    if len(set(codes)) != len(codes):
        raise fail(f"a kind is listed twice in {key}", (*path, key))
    return frozenset(codes)


def read_record(table: Any, path: FieldPath) -> TileRecord:
    table = check_keys(table, TILE_KEYS, path, "a tile record")
    col = _int(table, "col", path, None, 1, 3)
    row = _int(table, "row", path, None, 1, 3)
    sets = {key: _kinds(table, key, path) for key in SETS}
    direction = _str(table, "dir", path, DIR_PREDICATES, "any")
    do = table.get("do", [])
    if not isinstance(do, list):
        raise fail("do is a list of commands such as [\"move right\"]", (*path, "do"))
    commands = tuple(read_command(text, (*path, "do", i)) for i, text in enumerate(do))
    return TileRecord(col, row, sets["include"], sets["include2"], sets["exclude"], direction, commands)


def read_rule(table: Any, path: FieldPath) -> Rule:
    table = check_keys(table, RULE_KEYS, path, "a rule")
    rule_id = _int(table, "id", path, None, 0, 2**31 - 1)
    kind = _str(table, "type", path, RULE_TYPES, None)
    button = table.get("button")
    if kind == "press":
        if button == "B":
            raise fail(f"rule {rule_id}: button B is not supported", (*path, "button"),
                       "use left, up, right, down or A")
        button = _str(table, "button", path, BUTTONS, None)
    elif button is not None:
        raise fail(f"rule {rule_id}: only press rules have a button", (*path, "button"),
                   "remove the button line")
    transforms = _str(table, "transforms", path, TRANSFORMS, "none")
    enabled = table.get("enabled", True)
    if not isinstance(enabled, bool):
        raise fail("enabled must be true or false", (*path, "enabled"))
    tiles = table.get("tiles", [])
    if not isinstance(tiles, list):
        raise fail("tiles is a list of [[rules.tiles]] tables", (*path, "tiles"))
    records = tuple(read_record(t, (*path, "tiles", j)) for j, t in enumerate(tiles))
    seen: set[tuple[int, int]] = set()
    for j, record in enumerate(records):
        if record.position in seen:
            raise fail(f"rule {rule_id} has two records for tile ({record.col},{record.row})",
                       (*path, "tiles", j), "merge them into one [[rules.tiles]]")
        seen.add(record.position)
    return Rule(rule_id, kind, records, button, transforms, enabled)


# ----------------------------------------------------------------------------------- game


def read_game(body: dict[str, Any], name: str) -> Game:
    """The typed game of a body; raises :class:`ProjectError` at the first malformed field."""
    check_keys(body, TOP_KEYS, (), "a TileCode project")
    settings = check_keys(body.get("game", {}), GAME_KEYS, ("game",), "[game]")
    player_kind = _int(settings, "player_kind", ("game",), 0, 0, 3)
    help_on = settings.get("help", True)
    if not isinstance(help_on, bool):
        raise fail("help must be true or false", ("game", "help"))
    round_ms = _int(settings, "round_ms", ("game",), 150, *ROUND_MS)
    high_score = _int(settings, "high_score", ("game",), 0, 0, 2**53)
    seed = None if "seed" not in settings else _int(settings, "seed", ("game",), None, 0, MAX_SEED)
    render = _str(settings, "render", ("game",), RENDER_MODES, "glyph")
    provenance = body.get("provenance", {})
    if not isinstance(provenance, dict) or not all(
        isinstance(v, (str, int)) for v in provenance.values()
    ):
        raise fail("[provenance] holds text values (source, commit, license, copyright)",
                   ("provenance",))
    backgrounds, sprites = _art_list(body, "backgrounds"), _art_list(body, "sprites")
    if "map" not in body:
        raise fail("the game has no [map]", ("map",), "add [map] with width, height and grids")
    tile_map = read_map(body["map"])
    tables = body.get("rules", [])
    if not isinstance(tables, list):
        raise fail("rules is a list of [[rules]] tables", ("rules",))
    rules = [read_rule(t, ("rules", i)) for i, t in enumerate(tables)]
    ids: dict[int, int] = {}
    for i, rule in enumerate(rules):
        if rule.id in ids:
            raise fail(f"two rules have id {rule.id}", ("rules", i, "id"),
                       "give each rule its own id (new rules take the smallest free id)")
        ids[rule.id] = i
    return Game(name, backgrounds, sprites, tile_map, tuple(sorted(rules, key=lambda r: r.id)),
                player_kind, help_on, round_ms, high_score, dict(provenance), seed, render)
