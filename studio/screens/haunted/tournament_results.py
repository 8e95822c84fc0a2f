"""The results pane of the tournament screen (haunted.md §13.7), drawn from a run's
``index.json``: a bracket for single elimination (one column per stage, each match's winner
highlighted, byes shown) or a standings table with Elo and the match list for round robin.

:func:`draw` returns the picture's lines and the places the cursor can stand on (one per bracket
cell or match line), so the screen only keeps an index into them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip

from studio.engines.haunted.tournament import SINGLE, TBD, BracketMatch
from studio.screens.formatting import fit, inert
from studio.sessions.haunted.results import Results
from studio.widgets.canvas import Canvas, UIStyles

CELL = 24
"""Width of a bracket cell: seed, name, rounds won."""
GAP = 1
NAME = CELL - 6


@dataclass(frozen=True)
class Spot:
    """A place the cursor can stand on."""

    column: int
    """Bracket column (0 for the round-robin match list)."""
    region: Region
    """Where it is in the picture."""
    match: dict[str, Any] | None
    """The match played there (None for a bye or a match not played yet)."""
    why: str = ""
    """Why there is no replay ("a bye", "not played yet")."""


BRACKET_HEADINGS = 2
"""A bracket's first lines name its rounds: they stay in view while the bracket scrolls."""


def _tops(columns: list[list[BracketMatch]]) -> list[list[int]]:
    """The first line of every cell: the first column stacked, later ones between their two
    feeders, so the bracket reads left to right."""
    tops = [[2 + 3 * j for j in range(len(columns[0]))]]
    for column in columns[1:]:
        before = tops[-1]
        if len(before) == 2 * len(column):
            tops.append([(before[2 * j] + before[2 * j + 1] + 1) // 2 for j in range(len(column))])
        else:  # the third-place match sits level with the final
            tops.append(list(tops[-1][:len(column)]))
    return tops


def _bracket(results: Results, styles: UIStyles, cursor: int) -> tuple[list[Strip], list[Spot]]:
    columns = results.columns()
    tops = _tops(columns)
    seeds = (results.document.get("plan") or {}).get("seeds") or results.names
    seed_of = {results.names.index(name): k for k, name in enumerate(seeds, 1)}
    height = max(max(t) for t in tops) + 2
    canvas = Canvas(len(columns) * (CELL + GAP) - GAP, height)
    spots: list[Spot] = []
    for c, column in enumerate(columns):
        x = c * (CELL + GAP)
        canvas.put(x, 0, fit(column[0].stage, CELL), styles.primary)
        canvas.put(x, BRACKET_HEADINGS - 1, "─" * CELL, styles.muted)
        for cell, top in zip(column, tops[c]):
            played = None
            if cell.away is not None and TBD not in (cell.home, cell.away):
                played = results.find(cell.stage, cell.home, cell.away)
            for row, entrant in enumerate((cell.home, cell.away)):
                canvas.put(x, top + row, _line(results, seed_of, entrant, played),
                           _style(styles, entrant, cell))
            why = "a bye" if cell.away is None else "not played yet" if played is None else ""
            spots.append(Spot(c, Region(x, top, CELL, 2), played, why))
    if 0 <= cursor < len(spots):
        canvas.restyle(spots[cursor].region, styles.cursor)
    return canvas.strips(), spots


def _line(results: Results, seed_of: dict[int, int], entrant: int | None,
          played: dict[str, Any] | None) -> str:
    if entrant is None:
        return f"{'':>3}bye".ljust(CELL)
    if entrant == TBD:
        return f"{'':>3}?".ljust(CELL)
    name = results.names[entrant]
    score = "" if played is None else str(played["wins"][name])
    return f"{seed_of.get(entrant, 0):>2} {fit(name, NAME):<{NAME}}{score:>3}"


def _style(styles: UIStyles, entrant: int | None, cell: BracketMatch) -> Style:
    if entrant is None or entrant == TBD:
        return styles.muted
    if cell.winner is None:
        return styles.text
    return styles.success + Style(bold=True) if cell.winner == entrant else styles.muted


def _round_robin(results: Results, styles: UIStyles, cursor: int) -> tuple[list[Text], list[Spot]]:
    lines: list[Text] = [Text.assemble((f"{'#':>3}  {'team':<20}{'W':>3}{'L':>3}  "
                                        f"{'rounds W-L-T':>12}{'Elo':>7}", styles.primary))]
    for standing in results.standings():
        r = standing.record
        rank = "" if standing.rank is None else str(standing.rank)
        rounds = f"{r.round_wins}-{r.round_losses}-{r.round_ties}"
        lines.append(Text(f"{rank:>3}  {fit(inert(standing.name), 20):<20}{r.match_wins:>3}"
                          f"{r.match_losses:>3}  {rounds:>12}{r.elo:>7.0f}"))
    lines += [Text(""), Text("matches", styles.primary)]
    spots: list[Spot] = []
    for match in results.matches:
        home, away = match["home"], match["away"]
        line = Text(f"{match.get('number', len(spots) + 1):>3} {fit(match['stage'], 15):<15} ")
        tally = f" {match['wins'][home]}–{match['wins'][away]}–{match['ties']} "
        for name, sep in ((home, tally), (away, "")):
            line.append(fit(inert(name), 20), styles.success + Style(bold=True)
                        if name == match["winner"] else styles.muted)
            line.append(sep)
        if match.get("coin_toss"):
            line.append("  (coin toss)", styles.muted)
        spots.append(Spot(0, Region(0, len(lines), max(line.cell_len, 1), 1), match))
        lines.append(line)
    left = results.scheduled - len(results.matches)
    if left > 0:
        lines.append(Text(f"    {left} more to play", styles.muted))
    if 0 <= cursor < len(spots):
        lines[spots[cursor].region.y].stylize(styles.cursor)
    return lines, spots


def draw(results: Results | None, styles: UIStyles, cursor: int,
         empty: str = "") -> tuple[list, list[Spot]]:
    """The results picture (lines for a LinesView) and the cursor's places, in reading order;
    ``empty`` is what to say when there are no results."""
    if results is None:
        return [Text(empty, styles.muted)], []
    if results.mode == SINGLE:
        return _bracket(results, styles, cursor)
    return _round_robin(results, styles, cursor)


def step(spots: list[Spot], cursor: int, dx: int, dy: int) -> int:
    """The cursor after an arrow: up/down within a column, left/right to the nearest cell of
    the next column (by line)."""
    if not spots:
        return 0
    cursor = min(max(cursor, 0), len(spots) - 1)
    here = spots[cursor]
    if dy:
        same = [k for k, s in enumerate(spots) if s.column == here.column]
        position = same.index(cursor) + dy
        return same[min(max(position, 0), len(same) - 1)]
    others = [k for k, s in enumerate(spots) if s.column == here.column + dx]
    if not others:
        return cursor
    return min(others, key=lambda k: (abs(spots[k].region.y - here.region.y), k))
