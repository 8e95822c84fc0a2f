"""A round position as the shared Haunted board draws it (haunted.md §13.3): the living monsters
as markers in their team's colour, an ``x`` where a monster died this turn, the tiles hit this
turn flashed. The look itself is :mod:`studio.screens.haunted.board_render`'s, as in the map
editor, so a map looks the same while it is drawn and while it is played."""

from __future__ import annotations

from studio.engines.haunted.rules import Death, Event, Hit, RoundState, label
from studio.screens.haunted.board_render import WIDE, HauntedCells, haunted_styles
from studio.widgets.canvas import UIStyles

MONSTER_COLOURS = {"bobo": "#f46969", "triclops": "#b383ff", "goldy": "#ffcc06",
                   "pinky": "#ff95bd", "spike": "#85de00", "grouchy": "#54d2ff"}
"""The original monsters' tint colours (names and colours only, §3)."""
FALLBACK = ("#54d2ff", "#f46969")
"""Home and away colours when a team chose no monster."""


def team_colours(monsters: dict[str, str], home: str) -> tuple[str, str]:
    """Home and away colours from the monsters the teams wear this round (``{"A": "bobo"}``)."""
    away = "B" if home == "A" else "A"
    return (MONSTER_COLOURS.get(monsters.get(home, ""), FALLBACK[0]),
            MONSTER_COLOURS.get(monsters.get(away, ""), FALLBACK[1]))


def match_cells(state: RoundState, ui: UIStyles, colours: tuple[str, str] = FALLBACK,
                events: tuple[Event, ...] = (), cell: tuple[int, int] = WIDE) -> HauntedCells:
    """The board renderer of a round position after a turn's ``events``."""
    n = state.size
    markers: dict[tuple[int, int], list[str]] = {}
    for k, (row, col) in enumerate(state.positions):
        if state.alive[k]:
            markers.setdefault((row, col), []).append(label(k))
    hits = set()
    for event in events:
        if isinstance(event, Hit) and event.before > event.after:
            hits.add(tuple(event.tile))
        elif isinstance(event, Death):
            # A monster that walked off the board is marked on the edge tile beside where it went.
            row, col = event.pos
            markers.setdefault((min(max(row, 0), n - 1), min(max(col, 0), n - 1)), []).append("x")
    return HauntedCells(n, state.strengths, markers, hits,
                        styles=haunted_styles(ui, *colours), cell=cell)
