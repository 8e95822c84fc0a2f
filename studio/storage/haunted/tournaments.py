"""The ``[[tournament]]`` tables of a Haunted Tiles project (haunted.md §4.1): checked, with
their defaults filled in, and whether a new match or tournament swaps sides."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from studio.engines.haunted.standings import MODES
from studio.storage.folder import slug
from studio.storage.haunted.submissions import deadline_of
from studio.storage.haunted.tables import fail, is_int, keys, list_of_tables, match_table
from studio.storage.kinds import Body
from studio.storage.names import check_name_characters

SEEDINGS = ("registration", "school-size")
TOURNAMENT_KEYS = {"name", "mode", "seeding", "entrants", "third_place", "seed",
                   "require_confinement", "swap_sides", "pace"}
MAX_PACE = 60.0
"""Seconds per turn at most (as ``studio tournament --pace``)."""


def tournaments_of(body: Body, teams: Sequence[Any]) -> list[dict[str, Any]]:
    """The ``[[tournament]]`` tables, checked, with defaults filled in (``teams``: the
    registry's :class:`~studio.storage.haunted.kind.TeamEntry` list; entrants name them), and
    the project's submission deadline as ``submission_deadline`` (None when it has none)."""
    names = [t.name for t in teams]
    # Every tournament plays the submissions made before it (§ Submissions of the README): the
    # plan of a table is made from the table alone, so the table carries the deadline.
    deadline = deadline_of(body)
    out = []
    for index, table in enumerate(list_of_tables(body, "tournament")):
        keys(table, TOURNAMENT_KEYS, "tournament", index)
        name = table.get("name")
        if not isinstance(name, str) or not name.strip():
            raise fail("a tournament needs a name", "tournament", index, "name")
        check_name_characters(name, "tournament name", ("tournament", index, "name"))
        if any(t["name"] == name for t in out):
            raise fail(f"two tournaments are named {name!r}", "tournament", index, "name")
        same = next((t["name"] for t in out if slug(t["name"]) == slug(name)), None)
        if same is not None:
            raise fail(f"{name!r} and {same!r} would keep their results in one folder "
                        f"(replays/{slug(name)}/): rename one", "tournament", index, "name")
        mode = table.get("mode", "single-elimination")
        if mode not in MODES:
            raise fail(f"mode is one of {', '.join(MODES)}", "tournament", index, "mode")
        seeding = table.get("seeding", "registration")
        if seeding not in SEEDINGS:
            raise fail(f"seeding is one of {', '.join(SEEDINGS)}", "tournament", index, "seeding")
        entrants = table.get("entrants", names)
        if not isinstance(entrants, list) or len(entrants) < 2:
            raise fail("entrants lists at least two team names", "tournament", index, "entrants")
        for i, entrant in enumerate(entrants):
            if entrant not in names:
                raise fail(f"no team named {entrant!r}", "tournament", index, "entrants", i)
        if len(set(entrants)) != len(entrants):
            raise fail("a team is entered twice", "tournament", index, "entrants")
        third = table.get("third_place", False)
        if not isinstance(third, bool):
            raise fail("third_place must be true or false", "tournament", index, "third_place")
        seed = table.get("seed", 0)
        if not is_int(seed) or not 0 <= seed < 2**63:
            raise fail("seed must be a whole number, 0 or more", "tournament", index, "seed")
        required = table.get("require_confinement", False)
        if not isinstance(required, bool):
            raise fail("require_confinement must be true or false", "tournament", index,
                        "require_confinement")
        # A tournament that does not say plays as the project's matches always did.
        swap = table.get("swap_sides", match_table(body).get("swap_sides", False))
        if not isinstance(swap, bool):
            raise fail("swap_sides must be true or false", "tournament", index, "swap_sides")
        # Seconds between turns, so that spectators can follow; it changes no result.
        pace = table.get("pace", 0.0)
        if isinstance(pace, bool) or not isinstance(pace, (int, float)) \
                or not 0 <= pace <= MAX_PACE:
            raise fail(f"pace is seconds per turn, from 0 (full speed) to {MAX_PACE:g}",
                       "tournament", index, "pace")
        out.append({"name": name, "mode": mode, "seeding": seeding, "entrants": list(entrants),
                    "third_place": third, "seed": seed, "require_confinement": required,
                    "swap_sides": swap, "pace": float(pace), "submission_deadline": deadline})
    return out


def new_match_swaps(body: Body) -> bool:
    """Whether a new match or tournament swaps sides: yes, unless ``[match]`` says otherwise
    (home acts first in each phase, so a fixed home is an advantage)."""
    value = match_table(body).get("swap_sides", True)
    return value if isinstance(value, bool) else True
