"""Reading the original competition's team list (spec haunted.md §4.4).

A Microsoft Forms CSV export with the columns ``ID, Start time, Completion time, Email, Name,
Team Name, School, Home Monster Choice, Away Monster Choice, URL/Code``. Only the team name, the
school, the two monsters (lower-cased) and the code are read: the personal columns (Email, Name)
and the form's bookkeeping are never looked at, so they cannot end up in a project. A code cell
that is a web address is kept as the address: nothing is downloaded.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import Any

from studio.engines.common.limits import MAX_AI_SOURCE_BYTES
from studio.storage.errors import ProjectError
from studio.storage.haunted.kind import MONSTERS
from studio.storage.names import check_name_characters

COLUMNS = {"team name": "team", "school": "school", "home monster choice": "monster",
           "away monster choice": "alternate", "url/code": "code"}
"""Header (compared without case and surrounding spaces) -> what it holds; others are ignored."""
REQUIRED = ("team name", "url/code")
DEFAULT_MONSTERS = ("bobo", "pinky")
_URL = re.compile(r"^https?://\S+$", re.IGNORECASE)


@dataclass(frozen=True)
class CsvTeam:
    """One registration of the team list."""

    team: str
    school: str
    monster: str
    alternate: str
    code: str
    """The script as pasted (empty when a URL was given)."""
    url: str
    """The address of a hosted script (not downloaded)."""
    line: int
    """The line of the CSV where the row starts (for messages)."""
    notes: tuple[str, ...] = ()
    """What was changed on the way in (an unknown monster replaced, …)."""


def _monster(value: str, default: str, team: str, column: str) -> tuple[str, list[str]]:
    name = value.strip().lower()
    if name in MONSTERS:
        return name, []
    if not name:
        return default, []
    return default, [f"{team}: unknown {column} {value.strip()!r}, using {default}"]


def teams_from_csv(text: str) -> list[CsvTeam]:
    """The registrations of a team-list CSV, in file (registration) order.

    Raises:
        ProjectError: not such a CSV (a required column is missing, a row has no team name, a
            team or school name holds a control or bidi character, a quote left open, a cell
            longer than an AI file may be), with the line.
    """
    # A cell holds a team's whole script: allow what an AI file may hold (csv's default is
    # 128 KiB). The limit is the module's, shared: it is only ever raised here, never lowered.
    csv.field_size_limit(max(csv.field_size_limit(), MAX_AI_SOURCE_BYTES))
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    try:
        return _teams(reader)
    except csv.Error as exc:
        raise ProjectError(f"not a readable CSV: {exc}", line=reader.line_num or None,
                           hint="export the team list from the form as CSV again") from None


def _teams(reader: Any) -> list[CsvTeam]:
    header = next(reader, None)
    if header is None:
        raise ProjectError("the file is empty", hint="export the team list from the form as CSV")
    names = [cell.strip().lower() for cell in header]
    missing = [column for column in REQUIRED if column not in names]
    if missing:
        raise ProjectError(f"not the original team list: no column {missing[0]!r}", line=1,
                           hint="expected: " + ", ".join(column.title() for column in COLUMNS))
    where = {COLUMNS[name]: index for index, name in enumerate(names) if name in COLUMNS}
    teams = []
    while True:
        line = reader.line_num + 1
        row = next(reader, None)
        if row is None:
            return teams
        if not any(cell.strip() for cell in row):
            continue

        def cell(key: str, row: list[str] = row) -> str:
            index = where.get(key)
            return row[index] if index is not None and index < len(row) else ""

        team = cell("team").strip()
        if not team:
            raise ProjectError("a registration has no team name", line=line)
        check_name_characters(team, "team name", ("Team Name",), line)
        check_name_characters(cell("school").strip(), "school name", ("School",), line)
        monster, notes = _monster(cell("monster"), DEFAULT_MONSTERS[0], team, "home monster")
        alternate, more = _monster(cell("alternate"), DEFAULT_MONSTERS[1], team, "away monster")
        code = cell("code").strip("\ufeff")
        url = code.strip() if _URL.match(code.strip()) else ""
        if not url and not code.strip():
            notes.append(f"{team}: no code given")
        teams.append(CsvTeam(team, cell("school").strip(), monster, alternate,
                             "" if url else code, url, line, tuple(notes + more)))
