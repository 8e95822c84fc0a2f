"""A tournament's results read back from its ``index.json`` (haunted.md §11, §13.7): standings
with Elo, the single-elimination bracket, the match behind a bracket cell, and the CSV export.

Everything works on partial runs too (a run that was cancelled, or one being played): the
bracket shows the matches not played yet as open, and round-robin standings are provisional.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.engines.haunted.standings import Record, Score, records, round_robin_order
from studio.engines.haunted.tournament import (
    DOUBLE_ROUND_ROBIN,
    SEMI_FINAL,
    SINGLE,
    TBD,
    THIRD_PLACE,
    BracketMatch,
    bracket,
    round_robin_schedule,
)
from studio.storage.atomic import atomic_write
from studio.storage.errors import ProjectError

STANDINGS_COLUMNS = ("rank", "team", "match_wins", "match_losses", "round_wins", "round_losses",
                     "round_ties", "elo")
MATCH_COLUMNS = ("number", "stage", "home", "away", "winner", "home_rounds", "away_rounds",
                 "ties", "coin_toss", "seed", "replay")


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    rank: int | None
    """None while a single-elimination run is not finished (places are not known yet)."""
    entrant: int
    name: str
    record: Record


class Results:
    """The results of one tournament run, as saved in its ``index.json``."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.names: list[str] = list(document.get("entrants", []))
        self.matches: list[dict[str, Any]] = list(document.get("matches", []))
        self._index = {name: i for i, name in enumerate(self.names)}

    @property
    def mode(self) -> str:
        return str(self.document.get("mode", SINGLE))

    @property
    def complete(self) -> bool:
        return bool(self.document.get("complete"))

    @property
    def scheduled(self) -> int:
        return int(self.document.get("scheduled", len(self.matches)))

    def _score(self, match: dict[str, Any]) -> Score:
        home, away = match["home"], match["away"]
        return Score(self._index[home], self._index[away], self._index[match["winner"]],
                     match["wins"][home], match["wins"][away], match["ties"])

    def records(self) -> list[Record]:
        """Totals and Elo per entrant (registration order), over the matches played."""
        return records(len(self.names), (self._score(m) for m in self.matches))

    def find(self, stage: str, home: int, away: int) -> dict[str, Any] | None:
        """The played match of ``stage`` between two entrants (either side), if any."""
        pair = {self.names[home], self.names[away]}
        return next((m for m in self.matches
                     if m["stage"] == stage and {m["home"], m["away"]} == pair), None)

    # ------------------------------------------------------------------------------ bracket

    def columns(self) -> list[list[BracketMatch]]:
        """The single-elimination bracket as far as it was played, one column per stage; the
        third-place match, once its players are known, as a last column of its own."""
        seeds = (self.document.get("plan") or {}).get("seeds") or self.names
        seeding = [self._index[name] for name in seeds]

        def decide(stage: str, home: int, away: int) -> int | None:
            match = self.find(stage, home, away)
            return None if match is None else self._index[match["winner"]]

        columns = bracket(seeding, decide)
        third = next((m for m in self.matches if m["stage"] == THIRD_PLACE), None)
        if third is not None:
            home, away = self._index[third["home"]], self._index[third["away"]]
            columns.append([BracketMatch(THIRD_PLACE, home, away, self._index[third["winner"]])])
        elif (self.document.get("plan") or {}).get("third_place") and len(self.names) >= 4:
            semis = next(c for c in columns if c[0].stage == SEMI_FINAL)
            losers = [TBD if m.winner is None else m.away if m.winner == m.home else m.home
                      for m in semis]  # who plays it is known as the semi-finals end
            columns.append([BracketMatch(THIRD_PLACE, *sorted(losers, key=self._seed), None)])
        return columns

    def _seed(self, entrant: int) -> int:
        seeds = (self.document.get("plan") or {}).get("seeds") or self.names
        return len(seeds) if entrant == TBD else seeds.index(self.names[entrant])

    # ---------------------------------------------------------------------------- standings

    def standings(self) -> list[Standing]:
        """Best first. Round robin: match wins, round-win difference, Elo, registration order.
        Single elimination (finished): champion, runner-up, third-place winner, then by the
        stage each went out in, sharing a rank within a stage."""
        table = self.records()
        if self.mode != SINGLE:
            order = round_robin_order(table)
            return [Standing(place, i, self.names[i], table[i]) for place, i in enumerate(order, 1)]
        if not self.complete:
            order = sorted(range(len(self.names)), key=lambda i: (-table[i].match_wins, i))
            return [Standing(None, i, self.names[i], table[i]) for i in order]
        top = [self._index[name] for name in self.document.get("standings", [])]
        stages = [column[0].stage for column in self.columns()]
        went_out = {}
        for match in self.matches:
            if match["stage"] != THIRD_PLACE:
                loser = match["away"] if match["winner"] == match["home"] else match["home"]
                went_out[self._index[loser]] = stages.index(match["stage"])

        def key(i: int) -> tuple[int, int]:
            return (0, top.index(i)) if i in top else (1, -went_out.get(i, 0))

        keys = {i: key(i) for i in range(len(self.names))}
        order = sorted(keys, key=lambda i: (keys[i], i))
        return [Standing(1 + sum(k < keys[i] for k in keys.values()), i, self.names[i], table[i])
                for i in order]

    def champion(self) -> str | None:
        standings = self.document.get("standings") or []
        return standings[0] if self.complete and standings else None


def next_match(document: dict[str, Any] | None, playing: int) -> str:
    """The match after the one numbered ``playing``: "final: Alpha vs ?" ("" when none)."""
    if document is None:
        return ""
    results = Results(document)
    names = results.names
    upcoming: list[tuple[str, int, int]] = []
    if results.mode == SINGLE:
        for column in results.columns():
            for cell in column:
                if cell.away is not None and cell.winner is None:
                    upcoming.append((cell.stage, cell.home, cell.away))
    else:
        rounds = round_robin_schedule(len(names), results.mode == DOUBLE_ROUND_ROBIN)
        schedule = [(f"round robin {k}", h, a) for k, pairs in enumerate(rounds, 1)
                    for h, a in pairs]
        upcoming = schedule[len(results.matches):]
    if playing and playing > len(results.matches):
        upcoming = upcoming[1:]  # the first open one is being played
    if not upcoming:
        return ""
    stage, home, away = upcoming[0]

    def who(k: int) -> str:
        return "?" if k == TBD else names[k]

    return f"{stage}: {who(home)} vs {who(away)}"


def replay_of(folder: Path, match: dict[str, Any]) -> Path | None:
    """The replay file of a listed match (None when the run saved none)."""
    name = match.get("replay")
    return Path(folder) / name if name else None


def is_open(match: BracketMatch) -> bool:
    """A bracket cell whose players are not both known yet."""
    return TBD in (match.home, match.away)


# ------------------------------------------------------------------------------------ CSV


def _csv(rows: list[tuple[Any, ...]], header: tuple[str, ...]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue().encode("utf-8")


def standings_csv(results: Results) -> bytes:
    """rank, team, match wins/losses, round wins/losses/ties, Elo (one decimal)."""
    rows = [("" if s.rank is None else s.rank, s.name, s.record.match_wins, s.record.match_losses,
             s.record.round_wins, s.record.round_losses, s.record.round_ties,
             f"{s.record.elo:.1f}") for s in results.standings()]
    return _csv(rows, STANDINGS_COLUMNS)


def matches_csv(results: Results) -> bytes:
    """One row per match played, in schedule order, with its replay file."""
    rows = [(m.get("number", k), m["stage"], m["home"], m["away"], m["winner"],
             m["wins"][m["home"]], m["wins"][m["away"]], m["ties"],
             "yes" if m.get("coin_toss") else "no", m["seed"], m.get("replay", ""))
            for k, m in enumerate(results.matches, 1)]
    return _csv(rows, MATCH_COLUMNS)


def matches_path(path: Path) -> Path:
    """Where the per-match CSV goes beside the standings CSV ``path``."""
    return path.with_name(f"{path.stem}-matches{path.suffix or '.csv'}")


def write_csv(document: dict[str, Any], path: Path) -> tuple[Path, Path]:
    """Write the standings to ``path`` and every match to :func:`matches_path`.

    Raises:
        ProjectError: a file could not be written.
    """
    results = Results(document)
    path = Path(path)
    written = []
    files = ((path, standings_csv(results)), (matches_path(path), matches_csv(results)))
    for target, data in files:
        try:
            atomic_write(target, data, backup=False)
        except OSError as exc:
            raise ProjectError(f"cannot write the CSV: {exc.strerror or exc}",
                               file=target) from None
        written.append(target)
    return written[0], written[1]
