"""Which matches a cluster run sends next: the dearest first (issue 31).

A run keeps only as many matches out as the cluster plays at once and picks each next one by what
its entrants' matches have taken so far, longest first. Sent in schedule order, a class's slow AI
(one that thinks its whole time, or simulates, as the built-in ``montecarlo`` does: 5–8 s a
match against 0.5 s for the rest) could play last, alone, while every other worker stood idle:
on 2 workers that tail cost a tenth of a round robin of 16. What a match cost each entrant is its
own AI's thinking (the answers' ``ms`` in the replay) and half the rest, so a fast AI that met the
slow one is not taken for slow. An entrant not yet seen counts as dearer than any seen, so every
entrant is measured early. The order decides nothing but when a
match is played: each is seeded by the schedule.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Sequence
from typing import Any

from studio.engines.haunted.tournament import Fixture


class Costs:
    """Seconds the matches of each entrant (by index) took so far."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[float, int]] = {}

    def learn(self, fixture: Fixture, seconds: float, replay: Any = None) -> None:
        """``fixture`` took ``seconds`` on its worker; ``replay`` (team A the home entrant)
        says how long each AI thought."""
        thought = thinking(replay)
        rest = max(0.0, seconds - thought["A"] - thought["B"]) / 2
        for entrant, team in ((fixture.home, "A"), (fixture.away, "B")):
            total, count = self._seen.get(entrant, (0.0, 0))
            self._seen[entrant] = (total + thought[team] + rest, count + 1)

    def _rank(self, fixture: Fixture) -> tuple[int, float, int]:
        unseen, known = 0, 0.0
        for entrant in (fixture.home, fixture.away):
            if entrant in self._seen:
                total, count = self._seen[entrant]
                known += total / count
            else:
                unseen += 1
        return (-unseen, -known, fixture.number)

    def dearest(self, fixtures: Iterable[Fixture], count: int) -> Sequence[Fixture]:
        """The ``count`` of ``fixtures`` to play first (ties in schedule order)."""
        if count <= 0:
            return []
        # Not a sort: a 64-team round robin has 2,016 fixtures open and picks one or two a time.
        return heapq.nsmallest(count, fixtures, key=self._rank)


def thinking(replay: Any) -> dict[str, float]:
    """Seconds each team's AI took to load and answer over a match's replay (0 for both when
    the replay does not say, or says what no clock does: the match's time is then shared
    evenly). A replay comes from a worker: an order it skews is all it could get."""
    thought = {"A": 0.0, "B": 0.0}
    try:
        for record in replay["rounds"]:
            home = record["home"]
            side = {home: "home", ("B" if home == "A" else "A"): "away"}
            for team in ("A", "B"):
                thought[team] += _seconds(record["load"][team]["ms"])
                thought[team] += sum(_seconds(turn[side[team]]["ms"])
                                     for turn in record["turns"] if side[team] in turn)
    except (AttributeError, KeyError, TypeError, ValueError):
        return {"A": 0.0, "B": 0.0}
    return thought


def _seconds(ms: Any) -> float:
    seconds = float(ms or 0) / 1000
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"not a time: {ms!r}")
    return seconds
