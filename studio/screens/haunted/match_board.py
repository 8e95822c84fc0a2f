"""How a Haunted Tiles round looks on the shared :class:`~studio.widgets.board.Board`
(haunted.md §13.3): strength by shade and digit, monsters by team, the last hit tiles marked.

Wide cells are 4 columns × 2 lines (line 0: the monsters on the tile, or its shade; line 1: the
shade with the strength digit); narrow cells are 2 × 1 (a monster, else shade and digit). A dead
monster's last tile shows a faint ``x`` for the turn it died; a monster that walked off the board
is drawn on the edge tile it left from, struck through.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style

from studio.engines.haunted.rules import Death, Hit, RoundState, label
from studio.widgets.canvas import UIStyles

SHADES = {3: "█", 2: "▓", 1: "░", 0: " "}
MONSTER_COLOURS = {"bobo": "#f46969", "triclops": "#b383ff", "goldy": "#ffcc06",
                   "pinky": "#ff95bd", "spike": "#85de00", "grouchy": "#54d2ff"}
"""The original monsters' tint colours (names and colours only, §3)."""
WIDE, NARROW = (4, 2), (2, 1)


@dataclass(frozen=True)
class TeamLooks:
    """The styles of the two sides this round."""

    home: Style
    away: Style


def team_looks(styles: UIStyles, monsters: dict[str, str], home: str) -> TeamLooks:
    """Home and away styles from the teams' monsters (``{"A": "bobo", "B": "pinky"}``)."""
    away = "B" if home == "A" else "A"
    fallback = {home: "#f46969", away: "#54d2ff"}

    def look(team: str) -> Style:
        colour = MONSTER_COLOURS.get(monsters.get(team, ""), fallback[team])
        return Style(color=styles.colour(colour), bold=True)

    return TeamLooks(look(home), look(away))


class MatchCells:
    """The cell renderer of one board position.

    Args:
        state: the round state to draw.
        styles: the theme's styles.
        looks: the two sides' styles.
        events: the last turn's events (hit tiles are marked; deaths leave an ``x``).
        cell: ``WIDE`` or ``NARROW``.
    """

    def __init__(self, state: RoundState, styles: UIStyles, looks: TeamLooks,
                 events: tuple = (), cell: tuple[int, int] = WIDE) -> None:
        self.state = state
        self.size = state.size
        self.width = self.height = self.size
        self.cell_size = cell
        self._styles = styles
        self._looks = looks
        self.hits = {tuple(e.tile) for e in events if isinstance(e, Hit) and e.before > e.after}
        self.deaths: dict[tuple[int, int], list[str]] = {}
        self.monsters: dict[tuple[int, int], list[tuple[str, bool]]] = {}
        for e in events:
            if isinstance(e, Death):
                where = self._on_board(*e.pos)
                self.deaths.setdefault(where, []).append(f"{e.side[0].upper()}{e.index}")
        for k, (r, c) in enumerate(state.positions):
            if state.alive[k]:
                self.monsters.setdefault((r, c), []).append((label(k), k < 3))
        self._keys = [self._row_key(y) for y in range(self.size)]

    def _on_board(self, r: int, c: int) -> tuple[int, int]:
        """An off-board position is drawn on the nearest edge tile."""
        n = self.size
        return min(max(r, 0), n - 1), min(max(c, 0), n - 1)

    def _row_key(self, y: int) -> Hashable:
        row = tuple(self.state.strength(y, x) for x in range(self.size))
        marks = tuple(sorted((x, tuple(m)) for (r, x), m in self.monsters.items() if r == y))
        gone = tuple(sorted((x, tuple(d)) for (r, x), d in self.deaths.items() if r == y))
        hits = tuple(sorted(x for r, x in self.hits if r == y))
        return (row, marks, gone, hits, self.cell_size, id(self._styles), self._looks)

    def row_key(self, y: int) -> Hashable:
        return self._keys[y]

    # ------------------------------------------------------------------------------ drawing

    def _shade_style(self, strength: int, hit: bool) -> Style:
        styles = self._styles
        style = styles.warning if strength == 1 else styles.text if strength == 3 else styles.muted
        if hit:
            style = style + Style(bgcolor=self._styles.colour("#5f3a00"))
        return style

    def _tile(self, y: int, x: int, line: int) -> list[Segment]:
        columns = self.cell_size[0]
        strength = self.state.strength(y, x)
        hit = (y, x) in self.hits
        shade = self._shade_style(strength, hit)
        monsters = self.monsters.get((y, x), [])
        if line == 0 and (monsters or (y, x) in self.deaths):
            return self._monsters(monsters, self.deaths.get((y, x), []), columns, shade)
        if columns == NARROW[0]:
            return [Segment(SHADES[strength] + (str(strength) if strength else " "), shade)]
        if line == 0:
            return [Segment(SHADES[strength] * columns, shade)]
        body = SHADES[strength] * (columns - 1) + (str(strength) if strength else " ")
        return [Segment(body, shade)]

    def _monsters(self, monsters: list[tuple[str, bool]], dead: list[str], columns: int,
                  shade: Style) -> list[Segment]:
        if not monsters:
            text = "x".center(columns)
            return [Segment(text, self._styles.muted)]
        if len(monsters) * 2 > columns:
            home = sum(1 for _, is_home in monsters if is_home)
            style = self._looks.home if home >= len(monsters) - home else self._looks.away
            return [Segment(f"{len(monsters)}×".ljust(columns), style)]
        out = [Segment(name, self._looks.home if is_home else self._looks.away)
               for name, is_home in monsters]
        used = 2 * len(monsters)
        if used < columns:
            out.append(Segment(" " * (columns - used), shade))
        return out

    def render_row(self, y: int, x0: int, x1: int, line: int) -> list[Segment]:
        segments: list[Segment] = []
        for x in range(x0, x1):
            segments.extend(self._tile(y, x, line))
        return segments

    def render_cursor(self, y: int, x: int, line: int, segments: list[Segment]) -> list[Segment]:
        return list(Segment.apply_style(segments, post_style=Style(underline=True)))
