"""A match played live for the match view: paced, paused, stepped, sped up or aborted from the UI
while it runs on a worker thread (spec haunted.md §13.3).

:class:`LiveMatch.run` plays the whole match on the thread that calls it (a Textual thread worker);
the AI workers think there, so the UI's event loop never waits on an AI. The UI calls the control
methods (:meth:`toggle_pause`, :meth:`step`, …) from its own thread and reads :meth:`view`, an
immutable picture of the match so far. ``notify`` is called (on the match thread) after every
change; the UI should coalesce those calls into one repaint.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path, PurePath
from typing import Any

from studio.engines.common.words import counted
from studio.engines.haunted.board import Map
from studio.engines.haunted.match import (
    Entrant,
    MatchAborted,
    MatchResult,
    RoundResult,
    replay_body,
    run_match,
    worn_monsters,
)
from studio.engines.haunted.match_data import tally
from studio.engines.haunted.players import Player
from studio.engines.haunted.rules import Event, RoundState
from studio.sessions.haunted.entrants import MatchPlan
from studio.sessions.haunted.feed import FeedWriter
from studio.storage.errors import ProjectError

PACES = (0.0, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0)
"""Seconds per turn offered by ``+``/``-``; 3 s is the original's pace."""
BANNER_TURNS = 3
"""How many turn periods a round's end stays up before the next round starts."""


@dataclass(frozen=True)
class LiveView:
    """What the match view draws, as of the last change."""

    names: tuple[str, str]
    """Team A, team B."""
    round_index: int
    """The round on the board (0 before the first one starts)."""
    board: Map | None
    home: str
    """``A`` or ``B``: the team playing home this round."""
    monsters: dict[str, str]
    """The monster each team wears this round (its colours on the board)."""
    state: RoundState | None
    events: tuple[Event, ...]
    """What happened in the last turn."""
    record: dict[str, Any] | None
    """The last turn's record: answers, timings, warnings, captured output."""
    rounds: tuple[RoundResult, ...]
    """The rounds decided so far."""
    wins: dict[str, int]
    ties: int
    log: tuple[str, ...]
    """Events, AI output and round results, oldest first."""
    paused: bool
    pace: float
    fast: str | None
    """``round`` or ``match`` while finishing at full speed."""
    result: MatchResult | None
    """Set when the match is over (``aborted`` when stopped)."""
    error: str | None
    """Why the match could not start (an AI that cannot load, …)."""
    version: int


class LiveMatch:
    """One match being played for the match view.

    Args:
        plan: who plays, where, and the starting pace.
        notify: called on the match thread after every change of :meth:`view`.
        clock: the time source (tests may replace it).
        feed: where to write the match's live feed (None: nowhere).
    """

    def __init__(self, plan: MatchPlan, notify: Callable[[], None] = lambda: None,
                 clock: Callable[[], float] = time.monotonic, feed: Path | None = None) -> None:
        self.plan = plan
        self.feed_path = feed
        self._feed: FeedWriter | None = None
        self._notify = notify
        self._clock = clock
        self._cond = threading.Condition()
        self._paused = plan.start_paused
        self._steps = 0
        self._fast: str | None = None
        self._aborted = False
        self._held = False
        """The UI asks a question about the match (abort?): no turn is played meanwhile."""
        self._pace = plan.pace
        self._shown_at = 0.0
        self._teams: dict[str, dict[str, Any]] = {}
        self._current: dict[str, Any] | None = None
        """The replay record of the round being played, built from the turns seen."""
        self._banner_due = False
        """A round ended: its result stays in view a while before the next round starts."""
        names = plan.names()
        self._view = LiveView(names, 0, None, "A", {}, None, (), None, (), {"A": 0, "B": 0}, 0,
                              (), plan.start_paused, plan.pace, None, None, None, 0)
        self._entrants: dict[str, Entrant] = {}
        self._players: list[Player] = []
        """This match's players, so that an abort can end a move that has no time limit."""

    # ------------------------------------------------------------------------------ reading

    def view(self) -> LiveView:
        """The match as of the last change (safe from any thread)."""
        with self._cond:
            return self._view

    @property
    def running(self) -> bool:
        view = self.view()
        return view.result is None and view.error is None

    def _update(self, **changes: Any) -> None:
        with self._cond:
            old = self._view
            if "log" in changes:
                changes["log"] = old.log + tuple(changes["log"])
            self._view = LiveView(**{**old.__dict__, **changes, "paused": self._paused,
                                     "pace": self._pace, "fast": self._fast,
                                     "version": old.version + 1})
        self._notify()

    # ------------------------------------------------------------------------------ playing

    def run(self) -> MatchResult | None:
        """Play the match on this thread; returns the result (None when it could not start)."""
        plan = self.plan
        try:
            team_a, team_b = plan.entrants()
        except ProjectError as exc:
            self._update(error=str(exc))
            return None
        team_a, team_b = self._tracked(team_a), self._tracked(team_b)
        self._entrants = {"A": team_a, "B": team_b}
        self._teams = {"A": team_a.to_json(), "B": team_b.to_json()}
        self._update(names=(team_a.name, team_b.name))
        if self.feed_path is not None:
            self._feed = FeedWriter(self.feed_path, "match")
            self._feed.match_started(self._entrants, plan.config, plan.seed, plan.maps)
        try:
            result = run_match(team_a, team_b, plan.maps, plan.config, plan.seed,
                               observer=self._turn_played, on_round_start=self._round_started,
                               on_round_end=self._round_ended)
        except Exception as exc:  # noqa: BLE001 - shown in the view rather than lost in a thread
            self._update(error=f"the match stopped: {exc}")
            if self._feed is not None:
                self._feed.stopped(f"the match stopped: {exc}")
                self._feed.close()
            return None
        if self._feed is not None:
            self._feed.match_ended(result)
            self._feed.close()
        self._update(result=result, wins=dict(result.wins), ties=result.ties,
                     log=[self._result_line(result)])
        return result

    def _tracked(self, entrant: Entrant) -> Entrant:
        def make() -> Player:
            player = entrant.make()
            with self._cond:
                self._players = [p for p in self._players if p is not player][-1:] + [player]
            return player

        return replace(entrant, make=make)

    def _round_started(self, index: int, board: Map, home: str, state: RoundState) -> None:
        if self._feed is not None:
            self._feed.round_started(index, board, home, state)
        with self._cond:  # begun, as the feed says, even while the banner still holds it
            self._current = {"index": index, "map": board.name, "home": home, "turns": []}
        if self._banner_due:
            # Held here rather than when the round ended: after the last round nothing is held,
            # so a match paused at its end shows its result (it waited for a resume before).
            self._banner_due = False
            self._gate(periods=BANNER_TURNS)
        with self._cond:
            if self._fast == "round":
                self._fast = None
        self._update(round_index=index, board=board, home=home, state=state, events=(),
                     monsters=worn_monsters(self._entrants, home),
                     record=None, log=[f"— round {index} on {board.name}: "
                                       f"{self._view.names[0 if home == 'A' else 1]} home —"])
        self._shown_at = self._clock()
        self._gate()

    def _turn_played(self, index: int, state: RoundState, events: list, record: dict[str, Any]) -> None:
        if self._feed is not None:
            self._feed.turn_played(index, state, events, record)
        lines = turn_lines(record)
        with self._cond:
            if self._current is not None:
                self._current["turns"].append(record)
        self._update(state=state, events=tuple(events), record=record, log=lines)
        self._shown_at = self._clock()
        # An abort waits past a round's last turn: the round is over, and is counted.
        self._gate(abortable=not state.over)

    def _round_ended(self, result: RoundResult) -> None:
        if self._feed is not None:
            self._feed.round_ended(result)
        view = self._view
        wins = dict(view.wins)
        ties = view.ties
        if result.winner_team is None:
            ties += 1
        else:
            wins[result.winner_team] += 1
        turn = result.record.get("turns", [])
        failed = turn[-1] if turn and result.failures else None
        with self._cond:
            self._current = None
        self._update(rounds=view.rounds + (result,), wins=wins, ties=ties,
                     record=failed or view.record, log=[round_line(result, view.names)])
        self._shown_at = self._clock()
        self._banner_due = True

    def _result_line(self, result: MatchResult) -> str:
        return result_line(result, self._view.names)

    def _gate(self, periods: int = 1, abortable: bool = True) -> None:
        """Hold the match thread until the UI lets the next turn be played."""
        with self._cond:
            while True:
                if self._aborted:
                    if abortable:
                        raise MatchAborted()
                    return
                if self._held:
                    self._cond.wait()
                    continue
                if self._fast is not None:
                    return
                if self._paused:
                    if self._steps:
                        self._steps -= 1
                        return
                    self._cond.wait()
                    continue
                left = self._shown_at + self._pace * periods - self._clock()
                if left <= 0:
                    return
                self._cond.wait(left)

    def replay_so_far(self) -> dict[str, Any] | None:
        """The replay body of what has been played: the whole match once it is over, else the
        decided rounds and the round in progress (marked ``aborted``, as an interrupted match's
        replay is; between rounds, the next one, empty). None before the teams are known."""
        view = self.view()
        if view.result is not None:
            return view.result.replay
        with self._cond:
            if not self._teams:
                return None
            records = [r.record for r in view.rounds]
            if self._current is not None:
                records.append({**self._current, "turns": list(self._current["turns"]),
                                "aborted": True})
            else:  # between rounds: the next one is cut off before it began, as run_match has it
                records.append({"index": len(records) + 1, "aborted": True, "turns": []})
            return replay_body(self.plan.config, self.plan.seed, dict(self._teams),
                               self.plan.maps, [], records, view.wins, view.ties, None)

    # ------------------------------------------------------------------------------ controls

    def _control(self, **fields: Any) -> None:
        with self._cond:
            for name, value in fields.items():
                setattr(self, name, value)
            self._cond.notify_all()
        self._update()

    def toggle_pause(self) -> None:
        self._control(_paused=not self._paused, _steps=0)

    def step(self) -> None:
        """One more turn (pausing first if the match is running)."""
        with self._cond:
            was_paused = self._paused
        self._control(_paused=True, _steps=self._steps + 1 if was_paused else 0)

    def set_pace(self, seconds: float) -> None:
        self._control(_pace=max(0.0, seconds))

    def faster(self) -> None:
        slower = [p for p in PACES if p < self._pace]
        self.set_pace(slower[-1] if slower else 0.0)

    def slower(self) -> None:
        longer = [p for p in PACES if p > self._pace]
        self.set_pace(longer[0] if longer else self._pace)

    def finish_round(self) -> None:
        """Play the rest of this round at full speed, then go on at the pace."""
        self._control(_fast="round")

    def finish_match(self) -> None:
        """Play the rest of the match at full speed."""
        self._control(_fast="match")

    def hold(self, held: bool) -> None:
        """Hold the match at its next turn while the UI asks about it, or let it go on: behind
        the abort question it played on, and a round that ended there was thrown away."""
        self._control(_held=held)

    def abort(self) -> None:
        """Stop after the turn being played; :meth:`run` returns the partial result.

        With no time limit that turn may never end (an AI in an endless loop): its workers are
        killed, so the move ends as a crash and the match stops at once.
        """
        self._control(_aborted=True)
        if self.plan.no_time_limit:
            with self._cond:
                players = list(self._players)
            for player in players:
                interrupt = getattr(player, "interrupt", None)
                if interrupt is not None:
                    interrupt()


def result_line(result: MatchResult, names: tuple[str, str]) -> str:
    """The match's result in one line of the log."""
    if result.aborted:
        return f"match aborted after {counted(result.rounds_played, 'round')}"
    winner = names[0 if result.winner == "A" else 1]
    # With the rounds counted: "wins 0–0–1 after a coin toss" of a one-round test read as
    # a loss of something longer.
    played = f"{tally(result.wins, result.ties, result.winner)} in " \
             f"{counted(result.rounds_played, 'round')}"
    if result.coin_toss:
        return f"{winner} wins on a coin toss ({played}, tied)"
    return f"{winner} wins {played}"


def turn_lines(record: dict[str, Any]) -> list[str]:
    """The log's lines of one turn: what happened, then what each AI printed or was warned of."""
    lines = [f"turn {record.get('turn')}: {event}" for event in record.get("events", [])]
    for side in ("home", "away"):
        answer = record.get(side) or {}
        for stream in ("stdout", "stderr"):
            text = str(answer.get(stream) or "").rstrip()
            if text:
                lines += [f"  {side} {stream}: {line}" for line in text.splitlines()]
        lines += [f"  {side} warning: {w}" for w in answer.get("warnings", [])]
    return lines


def last_line(text: str) -> str:
    """The last non-empty line of a message (a traceback's "Error: what"), with the place in
    the AI's file where it went wrong when the traceback names one ("… (ai.py:12)"): the line
    alone did not say where to look."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    places = re.findall(r'File "([^"]+)", line (\d+)', text)
    where = f" ({PurePath(places[-1][0]).name}:{places[-1][1]})" if places else ""
    return (lines[-1] if lines else "") + where


# "broken" (the engine's and the replay's word) counts hits that weakened a tile, not tiles
# broken: said as hits, or "broken 32–32" read as 32 holes on a 7×7 board.
REASONS = {"eliminated": "the other side all fell", "tiebreak": "both fell at once, more hits",
           "tie": "both fell at once, as many hits", "ai_failure": "the other AI failed",
           "both_failed": "both AIs failed"}
"""A round result's reason code (the replay format's) as the log says it."""


def reason_text(reason: str) -> str:
    return REASONS.get(reason, reason)


def round_line(result: RoundResult, names: tuple[str, str]) -> str:
    """One line for a decided round: number, map, winner and why."""
    winner = result.winner_team
    who = "tie" if winner is None else f"{names[0 if winner == 'A' else 1]} wins"
    detail = reason_text(result.reason)
    if result.failures:
        detail += "; " + "; ".join(
            f"{names[0 if team == 'A' else 1]}: {f['failure']} — {last_line(f['error'])}"
            for team, f in result.failures.items())
    return (f"round {result.index} ({result.map}): {who} ({detail}), hits "
            f"{result.broken[0]}–{result.broken[1]}, {result.turns} turn{'' if result.turns == 1 else 's'}")
