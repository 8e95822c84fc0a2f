"""The columns of Teams & AIs: their headings and widths for the screen's width."""

from __future__ import annotations

from typing import Any

from studio.screens.haunted.team_submissions import WIDTH

COLUMNS = ("#", "Name", "Team", "School", "Runtime", "Monsters", "Last test")
SHORT = {"Last test": "Test", "Monsters": "Monster"}
"""Headings for a column narrowed below its heading's width (a screen under 80 columns)."""


def column_widths(teams: list[dict[str, Any]], width: int, submitted: bool) -> tuple[int, ...]:
    """Column widths from what the rows hold, fitted to ``width``: names shown whole first,
    then teams and schools (fixed widths cut "Lookahead Ghouls" with the Team and School
    columns empty beside it); 0 for a column left out. ``submitted``: with the Submitted
    column."""

    def need(label: str, values: list[str], cap: int) -> int:
        return min(max([len(v) for v in values] + [len(label)]), cap)

    fixed = [need("#", [str(len(teams))], 3), 8,
             need("Monsters", [f"{t.get('monster', 'bobo')}/{t.get('alternate', 'pinky')}"
                               for t in teams], 16), 11]
    name, team, school = (need(label, [str(t.get(key, "")) for t in teams], 30)
                          for label, key in (("Name", "name"), ("Team", "team"),
                                             ("School", "school")))
    if width < 80:
        # Below 80 columns an empty Team or School column (built-ins have neither) takes
        # room the names need: it is left out until a team has one.
        team = team if any(t.get("team") for t in teams) else 0
        school = school if any(t.get("school") for t in teams) else 0
    if submitted:
        fixed.append(WIDTH)
    shown = len(fixed) + 1 + bool(team) + bool(school)
    room = width - 2 * shown - 2 - sum(fixed)
    floor = 10 + 6 * (bool(team) + bool(school))
    # Too narrow for all of it: the test and monster columns give way (cut with "…", the
    # test's heading shortened) before the table runs past the screen's edge unmarked.
    for column, least in ((3, 4), (2, 7)):
        give = min(max(floor - room, 0), fixed[column] - least)
        fixed[column] -= give
        room += give
    room = max(room, floor)
    while name + team + school > room:  # take from the widest of team and school, then name
        if max(team, school) > 6:
            if team >= school:
                team -= 1
            else:
                school -= 1
        else:
            name -= 1
    return fixed[0], name, team, school, *fixed[1:]
