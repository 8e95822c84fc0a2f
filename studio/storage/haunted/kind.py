"""Haunted Tiles projects (spec haunted.md §4.1): maps, teams, match settings, tournaments
(the tournament tables are checked in :mod:`studio.storage.haunted.tournaments`).

Importing this module registers validation, checks, summary and the new-project template on
``KINDS["haunted"]``. The conversions to engine objects (:func:`maps_of`, :func:`config_of`,
:func:`teams_of`) are what the CLI and the UI use.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.engines.haunted.board import MAX_SIZE, MIN_SIZE, Map, default_starts
from studio.engines.haunted.builtin_ais import BUILTINS
from studio.engines.haunted.maps import DEFAULT_ROTATION, builtin_maps
from studio.engines.haunted.match_data import MatchConfig
from studio.storage.errors import ProjectError
from studio.storage.kinds import KINDS, Body
from studio.storage.haunted.tables import fail as _fail, is_int as _is_int, \
    is_number as _is_number, keys as _keys, list_of_tables as _list_of_tables
from studio.storage.haunted.submissions import check_table as check_submissions
from studio.storage.haunted.ladder import ladder_of
from studio.storage.haunted.tournaments import tournaments_of
from studio.storage.names import check_name_characters

MONSTERS = ("bobo", "triclops", "goldy", "pinky", "spike", "grouchy")
RUNTIMES = ("builtin", "python", "js")
_MATCH_KEYS = {"rounds", "max_rounds", "time_limit", "load_limit", "maps", "swap_sides",
               "coin_toss_if_all_tied", "require_confinement"}
_MAP_KEYS = {"name", "size", "tiles", "home", "away", "description", "provenance"}
_TEAM_KEYS = {"name", "team", "school", "school_size", "runtime", "source", "monster", "alternate"}
_TOP_KEYS = {"match", "submissions", "ladder", "map", "team", "tournament"}


@dataclass
class TeamEntry:
    """A ``[[team]]`` of the registry (§3)."""

    name: str
    runtime: str
    source: str
    monster: str = "bobo"
    alternate: str = "pinky"
    team: str = ""
    school: str = ""
    school_size: int = 0


def source_path(folder: Path, source: str, field_path: tuple[str | int, ...] = ("source",)) -> Path:
    """The AI file a team's ``source`` names: relative to the project's ``folder``, and inside it.

    A project file may come from anyone; its teams' sources are run (in a sandbox that may read
    them), opened in the AI editor and saved over. So a source may not leave the project folder:
    not by ``..``, not as an absolute path elsewhere, not through a link that points out. Links
    are followed before the check, and the path returned is the real one, with none left in it.

    Raises:
        ProjectError: the source leads outside ``folder``, naming the field and what to do.
    """
    root = Path(folder).resolve()
    given = Path(source)  # never expanduser: a "~" in a project is a name, not the reader's home
    real = (given if given.is_absolute() else root / given).resolve()
    if not real.is_relative_to(root):
        how = "by its path" if given.is_absolute() or ".." in given.parts else "through a link"
        raise ProjectError(f"the AI file {source!r} is outside the project's folder ({how})",
                           field_path=field_path,
                           hint=f"copy it into {root} (e.g. ais/) and name it from there")
    return real


# --------------------------------------------------------------------------------------- maps


def parse_tiles(text: Any, size: int, *path: str | int) -> list[list[int]]:
    """The digit grid of a ``tiles`` string: ``size`` rows of ``size`` digits 0..3."""
    if not isinstance(text, str):
        raise _fail("tiles must be a multi-line string of digits", *path)
    rows = [line.strip() for line in text.strip().splitlines()]
    if len(rows) != size:
        raise _fail(f"tiles has {len(rows)} rows, the map's size is {size}", *path)
    grid = []
    for r, line in enumerate(rows):
        if len(line) != size:
            raise _fail(f"row {r} has {len(line)} tiles, expected {size}", *path)
        if any(ch not in "0123" for ch in line):
            raise _fail(f"row {r} has a tile that is not a digit 0..3", *path)
        grid.append([int(ch) for ch in line])
    return grid


def _starts(value: Any, default: tuple, grid: list[list[int]], *path: str | int) -> list[tuple[int, int]]:
    if value is None:
        return list(default)
    if not isinstance(value, list) or len(value) != 3:
        raise _fail("a side needs three start tiles [[row, col], [row, col], [row, col]]", *path)
    size = len(grid)
    starts = []
    for i, coord in enumerate(value):
        if not (isinstance(coord, list) and len(coord) == 2 and all(_is_int(v) for v in coord)):
            raise _fail("a start tile is [row, col]", *path, i)
        r, c = coord
        label = f"{'H' if path[-1] == 'home' else 'A'}{i}"
        if not (0 <= r < size and 0 <= c < size):
            raise _fail(f"{label}'s start [{r}, {c}] is off the board", *path, i)
        if grid[r][c] < 1:
            raise _fail(f"{label}'s start [{r}, {c}] is on a broken tile (strength 0)", *path, i,
                        hint="starts must stand on a tile of strength 1 or more")
        starts.append((r, c))
    return starts


def map_of(table: dict[str, Any], index: int) -> Map:
    """The engine map of ``[[map]]`` number ``index``; raises ProjectError with its field path."""
    _keys(table, _MAP_KEYS, "map", index)
    name = table.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _fail("a map needs a name", "map", index, "name")
    check_name_characters(name, "map name", ("map", index, "name"))
    size = table.get("size")
    if not _is_int(size) or not MIN_SIZE <= size <= MAX_SIZE:
        raise _fail(f"size must be a whole number from {MIN_SIZE} to {MAX_SIZE}", "map", index, "size")
    try:
        grid = parse_tiles(table.get("tiles"), size, "map", index, "tiles")
        default_home, default_away = default_starts(size)
        home = _starts(table.get("home"), default_home, grid, "map", index, "home")
        away = _starts(table.get("away"), default_away, grid, "map", index, "away")
        for key in ("description", "provenance"):
            if not isinstance(table.get(key, ""), str):
                raise _fail(f"{key} must be text", "map", index, key)
    except ProjectError as error:
        # Named as the maps screen names it: "map[10].away[0]" alone left one counting maps.
        error.message = f"map {name!r}: {error.message}"
        error.args = (error.message,)
        raise
    return Map.from_rows(name, grid, home, away, table.get("description", ""), table.get("provenance", ""))


def map_table(board: Map) -> dict[str, Any]:
    """The ``[[map]]`` table of an engine map (starts written out even when they are defaults)."""
    table: dict[str, Any] = {"name": board.name, "size": board.size,
                             "tiles": "\n".join(board.rows()) + "\n",
                             "home": [list(p) for p in board.home],
                             "away": [list(p) for p in board.away]}
    if board.description:
        table["description"] = board.description
    if board.provenance:
        table["provenance"] = board.provenance
    return table


def maps_of(body: Body) -> dict[str, Map]:
    """Every map of the project by name, in file order."""
    maps: dict[str, Map] = {}
    for index, table in enumerate(_list_of_tables(body, "map")):
        board = map_of(table, index)
        if board.name in maps:
            raise _fail(f"two maps are named {board.name!r}", "map", index, "name",
                        hint="map names are unique within a project")
        maps[board.name] = board
    return maps


# ------------------------------------------------------------------------------ match, teams


def config_of(body: Body, maps: dict[str, Map] | None = None) -> MatchConfig:
    """The project's default match settings; rotation names must name project maps."""
    table = _keys(body.get("match", {}), _MATCH_KEYS, "match")
    known = maps if maps is not None else maps_of(body)
    rounds = table.get("rounds", 5)
    if not _is_int(rounds) or rounds < 1 or rounds % 2 == 0:
        raise _fail("rounds must be an odd whole number (1, 3, 5, …)", "match", "rounds")
    max_rounds = table.get("max_rounds", max(10, rounds))
    if not _is_int(max_rounds) or max_rounds < rounds:
        raise _fail("max_rounds must be a whole number, at least rounds", "match", "max_rounds")
    time_limit = table.get("time_limit", 2.0)
    if not _is_number(time_limit) or not 0.05 <= time_limit <= 60:
        raise _fail("time_limit must be from 0.05 to 60 seconds", "match", "time_limit")
    load_limit = table.get("load_limit", 5.0)
    if not _is_number(load_limit) or not 0 < load_limit <= 600:
        raise _fail("load_limit must be a positive number of seconds", "match", "load_limit")
    rotation = table.get("maps", list(DEFAULT_ROTATION) if set(DEFAULT_ROTATION) <= set(known)
                         else list(known)[:1])
    if isinstance(rotation, str):
        rotation = [rotation]
    if not isinstance(rotation, list) or not rotation or not all(isinstance(m, str) for m in rotation):
        raise _fail("maps is a map name or a list of map names", "match", "maps")
    for i, name in enumerate(rotation):
        if name not in known:
            raise _fail(f"no map named {name!r} in this project", "match", "maps", i)
    flags = {}
    for key, default in (("swap_sides", False), ("coin_toss_if_all_tied", True)):
        flags[key] = table.get(key, default)
        if not isinstance(flags[key], bool):
            raise _fail(f"{key} must be true or false", "match", key)
    return MatchConfig(rounds, max_rounds, float(time_limit), float(load_limit), tuple(rotation),
                       flags["swap_sides"], flags["coin_toss_if_all_tied"])


def requires_confinement(body: Body) -> bool:
    """``[match] require_confinement``: refuse to run AIs where the studio cannot confine them
    (no Landlock, no user namespaces, another OS) instead of running them with a warning."""
    table = _keys(body.get("match", {}), _MATCH_KEYS, "match")
    value = table.get("require_confinement", False)
    if not isinstance(value, bool):
        raise _fail("require_confinement must be true or false", "match", "require_confinement")
    return value


def teams_of(body: Body) -> list[TeamEntry]:
    """The team registry in registration order."""
    teams: list[TeamEntry] = []
    for index, table in enumerate(_list_of_tables(body, "team")):
        _keys(table, _TEAM_KEYS, "team", index)
        name = table.get("name")
        if not isinstance(name, str) or not name.strip():
            raise _fail("a team needs a name", "team", index, "name")
        check_name_characters(name, "team name", ("team", index, "name"))
        if any(t.name == name for t in teams):
            raise _fail(f"two teams are named {name!r}", "team", index, "name",
                        hint="team names are unique within a project")
        runtime = table.get("runtime", "builtin")
        if runtime not in RUNTIMES:
            raise _fail(f"runtime is one of {', '.join(RUNTIMES)}", "team", index, "runtime")
        source = table.get("source")
        if not isinstance(source, str) or not source:
            raise _fail("source is a file path or a built-in name", "team", index, "source")
        if runtime == "builtin" and source not in BUILTINS:
            raise _fail(f"no built-in AI named {source!r}", "team", index, "source",
                        hint=f"built-ins: {', '.join(BUILTINS)}")
        if runtime == "python" and not source.endswith(".py"):
            raise _fail("a python source is a .py file", "team", index, "source")
        if runtime == "js" and not source.endswith(".js"):
            raise _fail("a js source is a .js file", "team", index, "source")
        for key in ("monster", "alternate"):
            if table.get(key, "bobo") not in MONSTERS:
                raise _fail(f"{key} is one of {', '.join(MONSTERS)}", "team", index, key)
        for key in ("team", "school"):
            if not isinstance(table.get(key, ""), str):
                raise _fail(f"{key} must be text", "team", index, key)
            check_name_characters(table.get(key, ""), f"{key} name", ("team", index, key))
        size = table.get("school_size", 0)
        if not _is_int(size) or size < 0:
            raise _fail("school_size must be a whole number, 0 or more", "team", index, "school_size")
        teams.append(TeamEntry(name, runtime, source, table.get("monster", "bobo"),
                               table.get("alternate", "pinky"), table.get("team", ""),
                               table.get("school", ""), size))
    return teams


# ------------------------------------------------------------------------ the KindSpec hooks


def validate(body: Body) -> None:
    """Check a Haunted body; raises :class:`ProjectError` with the field path of the first problem."""
    for key in body:
        if key not in _TOP_KEYS:
            raise _fail(f"unknown table {key!r}", key, hint=f"a haunted project holds {', '.join(sorted(_TOP_KEYS))}")
    maps = maps_of(body)
    if not maps:
        raise _fail("the project has no map", "map", hint="add a [[map]]")
    config_of(body, maps)
    requires_confinement(body)
    check_submissions(body)
    ladder_of(body)
    tournaments_of(body, teams_of(body))


def check(body: Body) -> list[str]:
    """Warnings for ``studio validate``: shared start tiles and unfair (asymmetric) maps."""
    validate(body)
    warnings = []
    for board in maps_of(body).values():
        if len(set(board.starts)) < 6:
            warnings.append(f"map {board.name!r}: two monsters share a start tile (legal, but unusual)")
        if not board.is_symmetric():
            warnings.append(f"map {board.name!r}: not symmetric with home and away exchanged "
                            "(one side may have an advantage)")
    return warnings


def summarize(body: Body) -> dict[str, Any]:
    """What ``studio inspect`` and the home screen show about a Haunted project."""
    try:
        maps = maps_of(body)
        teams = teams_of(body)
        config = config_of(body, maps)
    except ProjectError as exc:
        return {"maps": len(body.get("map") or ()), "error": exc.message}
    return {"maps": len(maps), "teams": len(teams),
            "tournaments": len(body.get("tournament") or ()),
            "match": f"best of {config.rounds}"}


BUILTIN_TEAMS = [
    ("Lookahead Ghouls", "lookahead", "grouchy", "spike"),
    ("Greedy Ghosts", "greedy", "bobo", "pinky"),
    ("Cautious Creepers", "cautious", "goldy", "triclops"),
    ("Wandering Wisps", "wander", "triclops", "goldy"),
    ("Idle Imps", "idle", "pinky", "bobo"),
]


def new_body(name: str) -> Body:
    """A new project: the five original maps, our example maps, built-in teams, one tournament."""
    return {
        "match": {"rounds": 5, "max_rounds": 10, "time_limit": 2.0, "load_limit": 5.0,
                  "maps": list(DEFAULT_ROTATION), "swap_sides": True, "coin_toss_if_all_tied": True},
        "map": [map_table(board) for board in builtin_maps().values()],
        "team": [{"name": team, "runtime": "builtin", "source": source, "monster": monster,
                  "alternate": alternate} for team, source, monster, alternate in BUILTIN_TEAMS],
        "tournament": [{"name": "Built-in cup", "mode": "single-elimination",
                        "seeding": "registration", "entrants": [t[0] for t in BUILTIN_TEAMS],
                        "third_place": False, "seed": 1}],
    }


def register() -> None:
    """Install the Haunted storage functions on ``KINDS["haunted"]``."""
    spec = KINDS["haunted"]
    spec.validate = validate
    spec.check = check
    spec.summarize = summarize
    spec.new_body = new_body


register()
