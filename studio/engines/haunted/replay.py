"""Replays of Haunted Tiles matches (spec haunted.md §4.5): build, check, verify, play back.

A replay is plain JSON data. Reading and writing files (and gzip) belongs to the caller
(``studio.storage.haunted.replay``); this module only deals with the document.

Playback re-simulates every board from the recorded ``moves`` with the rules engine (which has
no randomness); :func:`verify` checks that doing so reproduces every recorded round result and
``board_sha256``, and that the recorded tallies follow from the round results.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from studio.engines.haunted.board import Map
from studio.engines.haunted.match import AI_FAILURE, BOTH_FAILED, MatchResult
from studio.engines.haunted.replay_check import ReplayError, check_shape
from studio.engines.haunted.rules import Event, Round, RoundState, describe, step

FORMAT = "studio-haunted-replay"
VERSION = 1
MISMATCH = "replay does not match this engine version"


def build(result: MatchResult | dict[str, Any], studio_version: str,
          created: _dt.datetime | None = None) -> dict[str, Any]:
    """The full replay document of a match (or of a replay body from
    :func:`studio.engines.haunted.match.replay_body`)."""
    when = created or _dt.datetime.now(_dt.timezone.utc)
    body = result.replay if isinstance(result, MatchResult) else result
    return {
        "format": FORMAT,
        "version": VERSION,
        "created": when.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "studio_version": studio_version,
        **body,
    }


def check(document: Any) -> dict[str, Any]:
    """Raise :class:`ReplayError` unless ``document`` is a replay whose every field the readers
    use is there with its type (:func:`~studio.engines.haunted.replay_check.check_shape`);
    returns it."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ReplayError("not a Haunted Tiles replay (format is not studio-haunted-replay)")
    if document.get("version") != VERSION:
        raise ReplayError(f"replay version {document.get('version')!r} is not supported",
                          ("version",))
    check_shape(document)
    return document


@dataclass(frozen=True)
class Frame:
    """The board after one turn of a round (turn 0: the start position)."""

    round_index: int
    turn: int
    state: RoundState
    events: tuple[Event, ...]
    record: dict[str, Any] | None
    """The turn's record (answers, timings, logs); None for the start position."""


def maps_of(document: dict[str, Any]) -> dict[str, Map]:
    return {name: Map.from_json(name, data) for name, data in document["maps"].items()}


def frames(document: dict[str, Any], round_number: int) -> Iterator[Frame]:
    """Every board of round ``round_number`` (1-based), re-simulated from the recorded moves.

    Raises:
        ReplayError: a recorded turn cannot be applied (a tampered or foreign replay).
    """
    record = document["rounds"][round_number - 1]
    if "map" not in record:
        return  # a round aborted before it began
    board = maps_of(document)[record["map"]]
    state = Round(board).initial_state()
    yield Frame(round_number, 0, state, (), None)
    for turn in record["turns"]:
        home, away = turn["home"].get("moves"), turn["away"].get("moves")
        if home is None or away is None:
            return  # a failed turn: nothing was applied
        try:
            state, events = step(state, home, away)
        except (ValueError, AssertionError, KeyError, TypeError) as exc:
            raise ReplayError(f"round {round_number}, turn {turn.get('turn')}: {exc}") from None
        yield Frame(round_number, turn["turn"], state, tuple(events), turn)


def verify(document: dict[str, Any]) -> list[str]:
    """Re-simulate every round; returns the problems found (empty when the replay is sound)."""
    problems: list[str] = []
    try:
        check(document)
    except ReplayError as exc:
        return [str(exc)]
    wins = {"A": 0, "B": 0}
    ties = 0
    finished = 0
    for number, record in enumerate(document["rounds"], 1):
        where = f"round {number}"
        if record.get("aborted"):  # the match was stopped here: its turns must still apply
            if number != len(document["rounds"]):
                problems.append(f"{where}: only the last round can be the aborted one")
            try:
                for _ in frames(document, number):
                    pass
            except ReplayError as exc:
                problems.append(str(exc))
            continue
        finished += 1
        try:
            last = None
            for last in frames(document, number):
                if last.record is not None and last.record.get("events") != [describe(e) for e in last.events]:
                    problems.append(f"{where}, turn {last.turn}: the events differ")
        except ReplayError as exc:
            problems.append(str(exc))
            continue
        recorded = record["result"]
        state = last.state if last is not None else None
        if recorded["reason"] in (AI_FAILURE, BOTH_FAILED):
            if state is not None and state.end is not None:
                problems.append(f"{where}: the board ended the round before the recorded failure")
        elif state is None or state.end is None:
            problems.append(f"{where}: the recorded moves do not finish the round")
        else:
            end = state.end
            got = {"winner": end.winner, "reason": end.reason,
                   "broken": {"home": end.broken[0], "away": end.broken[1]}, "turns": end.turns,
                   "board_sha256": state.board_sha256()}
            for key, value in got.items():
                if recorded.get(key) != value:
                    problems.append(f"{where}: {key} is {value!r}, the replay says {recorded.get(key)!r}")
        winner = recorded.get("winner")
        if winner is None:
            ties += 1
        else:
            home = record["home"]
            wins[home if winner == "home" else ("B" if home == "A" else "A")] += 1
    summary = document["result"]
    if summary.get("wins") != wins or summary.get("ties") != ties:
        problems.append(f"the match tally {summary.get('wins')}/{summary.get('ties')} ties does "
                        f"not follow from the rounds ({wins}/{ties} ties)")
    if summary.get("rounds_played") != finished:
        problems.append("rounds_played does not match the recorded rounds")
    return problems


def without_timings(document: dict[str, Any]) -> dict[str, Any]:
    """A copy without the fields that vary between identical runs (times, creation date), for
    determinism checks."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("ms", "created")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(document)
