"""The shape of a Haunted Tiles replay (spec haunted.md §4.5), checked field by field.

A replay may come from anyone (a competitor, a download), and its readers — the replay command,
the viewer, the browser, a tournament resuming — index into it freely. Checking every field they
use here, once, turns a missing or mistyped one into a :class:`ReplayError` that names it, where
it was a KeyError or a TypeError somewhere in a screen.
"""

from __future__ import annotations

from typing import Any

from studio.engines.haunted.board import MAX_SIZE, MIN_SIZE, Map

Path = tuple[str | int, ...]
TEAMS = ("A", "B")
SIDES = ("home", "away")


class ReplayError(ValueError):
    """The document is not a replay this studio can read; ``path`` is the field at fault."""

    def __init__(self, message: str, path: Path = ()) -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def __str__(self) -> str:
        where = _dotted(self.path)
        return f"{where}: {self.message}" if where else self.message


def _dotted(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + part
    return out


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _table(value: Any, path: Path) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ReplayError("must be an object", path)
    return value


def _list(value: Any, path: Path) -> list[Any]:
    if not isinstance(value, list):
        raise ReplayError("must be a list", path)
    return value


def _field(table: dict[str, Any], key: str, path: Path, test, what: str,
           required: bool = True) -> Any:
    if key not in table:
        if required:
            raise ReplayError(f"is missing ({what})", (*path, key))
        return None
    value = table[key]
    if not test(value):
        raise ReplayError(f"must be {what}, not {type(value).__name__}", (*path, key))
    return value


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def check_shape(document: dict[str, Any]) -> None:
    """Raise :class:`ReplayError` naming the first field the readers need that is missing or of
    the wrong type. The header (format, version) is checked by the caller."""
    config = _table(document.get("config"), ("config",)) if "config" in document else None
    if config is None:
        raise ReplayError("is missing (the match settings)", ("config",))
    for key, test, what in (("rounds", _is_int, "a whole number"),
                            ("max_rounds", _is_int, "a whole number"),
                            ("time_limit", _is_number, "a number"),
                            ("load_limit", _is_number, "a number"),
                            ("maps", _texts, "a list of map names"),
                            ("swap_sides", lambda v: isinstance(v, bool), "true or false"),
                            ("coin_toss_if_all_tied", lambda v: isinstance(v, bool),
                             "true or false")):
        _field(config, key, ("config",), test, what)
    _field(document, "seed", (), lambda v: v is None or _is_int(v), "a whole number", False)
    _field(document, "log", (), _texts, "a list of lines", False)
    teams = _table(_field(document, "teams", (), lambda v: True, "the two teams"), ("teams",))
    for team in TEAMS:
        entry = _table(_field(teams, team, ("teams",), lambda v: True, "a team"), ("teams", team))
        _field(entry, "name", ("teams", team), _text, "text")
        for key in ("runtime", "source", "source_sha256", "monster"):
            _field(entry, key, ("teams", team), _text, "text", required=False)
    maps = _table(_field(document, "maps", (), lambda v: True, "the boards played"), ("maps",))
    for name, data in maps.items():
        _check_map(name, data)
    rounds = _list(_field(document, "rounds", (), lambda v: True, "the rounds"), ("rounds",))
    for index, record in enumerate(rounds):
        _check_round(_table(record, ("rounds", index)), ("rounds", index), maps)
    _check_summary(_table(_field(document, "result", (), lambda v: True, "the match result"),
                          ("result",)))


def _check_map(name: str, data: Any) -> None:
    path: Path = ("maps", name)
    table = _table(data, path)
    size = _field(table, "size", path, _is_int, "a whole number")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ReplayError(f"must be from {MIN_SIZE} to {MAX_SIZE}", (*path, "size"))
    rows = _field(table, "tiles", path, _texts, "a list of rows of digits")
    if len(rows) != size or any(len(row) != size or set(row) - set("0123") for row in rows):
        raise ReplayError(f"must be {size} rows of {size} digits 0..3", (*path, "tiles"))
    for side in SIDES:
        starts = table.get(side)
        ok = starts is None or (isinstance(starts, list) and len(starts) == 3 and all(
            isinstance(p, list) and len(p) == 2 and all(_is_int(v) and 0 <= v < size for v in p)
            for p in starts))
        if not ok:
            raise ReplayError("must be three [row, col] tiles on the board", (*path, side))
    try:
        Map.from_json(name, table)
    except (ValueError, TypeError) as exc:
        raise ReplayError(str(exc), path) from None


def _check_round(record: dict[str, Any], path: Path, maps: dict[str, Any]) -> None:
    aborted = record.get("aborted", False)
    if not isinstance(aborted, bool):
        raise ReplayError("must be true or false", (*path, "aborted"))
    whole = not aborted  # an aborted round may stop before its map was even chosen
    _field(record, "index", path, _is_int, "a whole number", whole)
    board = _field(record, "map", path, _text, "a map name", whole)
    if board is not None and board not in maps:
        raise ReplayError(f"names no map of the replay ({board!r})", (*path, "map"))
    _field(record, "home", path, lambda v: v in TEAMS, '"A" or "B"', whole)
    turns = _field(record, "turns", path, lambda v: isinstance(v, list), "a list of turns")
    for number, turn in enumerate(turns):
        where = (*path, "turns", number)
        turn = _table(turn, where)
        _field(turn, "turn", where, _is_int, "a whole number")
        _field(turn, "events", where, _texts, "a list of lines", required=False)
        for side in SIDES:
            answer = _table(_field(turn, side, where, lambda v: True, "an answer"), (*where, side))
            moves = answer.get("moves")
            if moves is not None and not (isinstance(moves, list) and all(
                    m is None or isinstance(m, str) for m in moves)):
                raise ReplayError("must be a list of moves", (*where, side, "moves"))
            _field(answer, "warnings", (*where, side), _texts, "a list of lines", False)
            for key in ("failure", "error", "stdout", "stderr"):
                _field(answer, key, (*where, side), lambda v: v is None or _text(v), "text",
                       False)
            _field(answer, "ms", (*where, side), lambda v: v is None or _is_number(v),
                   "a number", False)
    load = _field(record, "load", path, lambda v: isinstance(v, dict), "an object", False)
    for team, entry in (load or {}).items():
        _table(entry, (*path, "load", team))
    if whole:
        result = _table(_field(record, "result", path, lambda v: True, "how the round ended"),
                        (*path, "result"))
        where = (*path, "result")
        _field(result, "winner", where, lambda v: v is None or v in SIDES,
               '"home", "away" or null')
        _field(result, "reason", where, _text, "text")
        _field(result, "turns", where, _is_int, "a whole number")
        broken = _table(_field(result, "broken", where, lambda v: True, "tiles broken"),
                        (*where, "broken"))
        for side in SIDES:
            _field(broken, side, (*where, "broken"), _is_int, "a whole number")
        _field(result, "failures", where, lambda v: isinstance(v, dict), "an object", False)


def _check_summary(summary: dict[str, Any]) -> None:
    path: Path = ("result",)
    _field(summary, "winner", path, lambda v: v is None or v in TEAMS, '"A", "B" or null')
    wins = _table(_field(summary, "wins", path, lambda v: True, "the rounds each team won"),
                  (*path, "wins"))
    for team in TEAMS:
        _field(wins, team, (*path, "wins"), _is_int, "a whole number")
    _field(summary, "ties", path, _is_int, "a whole number")
    _field(summary, "rounds_played", path, _is_int, "a whole number", False)
    _field(summary, "coin_toss", path, lambda v: v is None or v in TEAMS, '"A", "B" or null')
    _field(summary, "aborted", path, lambda v: isinstance(v, bool), "true or false", False)
