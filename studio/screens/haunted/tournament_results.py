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
from studio.screens.formatting import fit, inert, pad_text, text_width
from studio.sessions.haunted.results import Results
from studio.widgets.canvas import Canvas, UIStyles

NAME = 18
"""Columns of a name in a bracket cell, at least: a longer one takes the room the pane has."""
AROUND = 6
"""Columns of a bracket cell beside the name: its seed before it, the rounds won after it."""
GAP = 1
TEAM = 20
"""Columns of a name in the standings and the match list, at least."""


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


def name_width(names: list[str], room: int, least: int) -> int:
    """Columns for names: enough for the longest (inert, in terminal columns) where ``room``
    allows, never fewer than ``least`` (narrower, a name shows its "…" sooner than the pane
    would need to scroll)."""
    needed = max((text_width(inert(name)) for name in names), default=0)
    return min(max(needed, least), max(room, least))


def _bracket(results: Results, styles: UIStyles, cursor: int,
             width: int) -> tuple[list[Strip], list[Spot]]:
    columns = results.columns()
    tops = _tops(columns)
    seeds = (results.document.get("plan") or {}).get("seeds") or results.names
    seed_of = {results.names.index(name): k for k, name in enumerate(seeds, 1)}
    height = max(max(t) for t in tops) + 2
    name = name_width(results.names, (width + GAP) // len(columns) - GAP - AROUND, NAME)
    cell_width = name + AROUND
    canvas = Canvas(len(columns) * (cell_width + GAP) - GAP, height)
    spots: list[Spot] = []
    for c, column in enumerate(columns):
        x = c * (cell_width + GAP)
        canvas.put(x, 0, fit(column[0].stage, cell_width), styles.primary)
        canvas.put(x, BRACKET_HEADINGS - 1, "─" * cell_width, styles.muted)
        for cell, top in zip(column, tops[c]):
            played = None
            if cell.away is not None and TBD not in (cell.home, cell.away):
                played = results.find(cell.stage, cell.home, cell.away)
            for row, entrant in enumerate((cell.home, cell.away)):
                canvas.put(x, top + row, _line(results, seed_of, entrant, played, name),
                           _style(styles, entrant, cell))
            why = "a bye" if cell.away is None else "not played yet" if played is None else ""
            spots.append(Spot(c, Region(x, top, cell_width, 2), played, why))
    if 0 <= cursor < len(spots):
        canvas.restyle(spots[cursor].region, styles.cursor)
    return canvas.strips(), spots


def _line(results: Results, seed_of: dict[int, int], entrant: int | None,
          played: dict[str, Any] | None, width: int) -> str:
    if entrant is None:
        return f"{'':>3}bye".ljust(width + AROUND)
    if entrant == TBD:
        return f"{'':>3}?".ljust(width + AROUND)
    name = results.names[entrant]
    score = "" if played is None else str(played["wins"][name])
    # Names come from the project and its CSV imports: inert, and cut by the columns they take.
    return f"{seed_of.get(entrant, 0):>2} {pad_text(inert(name), width)}{score:>3}"


def _style(styles: UIStyles, entrant: int | None, cell: BracketMatch) -> Style:
    if entrant is None or entrant == TBD:
        return styles.muted
    if cell.winner is None:
        return styles.text
    return styles.success + Style(bold=True) if cell.winner == entrant else styles.muted


def _round_robin(results: Results, styles: UIStyles, cursor: int,
                 width: int) -> tuple[list[Text], list[Spot]]:
    team = name_width(results.names, width - 32, TEAM)  # 32: rank, wins, losses, rounds, Elo
    lines: list[Text] = [Text.assemble((f"{'#':>3}  {'team':<{team}}{'W':>3}{'L':>3}  "
                                        f"{'rounds W-L-T':>12}{'Elo':>7}", styles.primary))]
    for standing in results.standings():
        r = standing.record
        rank = "" if standing.rank is None else str(standing.rank)
        rounds = f"{r.round_wins}-{r.round_losses}-{r.round_ties}"
        lines.append(Text(f"{rank:>3}  {pad_text(inert(standing.name), team)}{r.match_wins:>3}"
                          f"{r.match_losses:>3}  {rounds:>12}{r.elo:>7.0f}"))
    lines += [Text(""), Text("matches", styles.primary)]
    spots: list[Spot] = []
    team = name_width(results.names, (width - 28) // 2, TEAM)  # 28: number, stage and tally
    for match in results.matches:
        home, away = match["home"], match["away"]
        line = Text(f"{match.get('number', len(spots) + 1):>3} {fit(match['stage'], 15):<15} ")
        tally = f" {match['wins'][home]}–{match['wins'][away]}–{match['ties']} "
        for name, sep in ((home, tally), (away, "")):
            line.append(fit(inert(name), team), styles.success + Style(bold=True)
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
         empty: str = "", width: int = 0) -> tuple[list, list[Spot]]:
    """The results picture (lines for a LinesView) and the cursor's places, in reading order;
    ``empty`` is what to say when there are no results. Names are whole where the pane's
    ``width`` has room for them, else cut with "…"."""
    if results is None:
        return [Text(empty, styles.muted)], []
    if results.mode == SINGLE:
        return _bracket(results, styles, cursor, width)
    return _round_robin(results, styles, cursor, width)


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
