"""The live feed of a running tournament or match (issue 30, "Watch it live"): JSON lines appended
beside the results, so that any process (a spectator's session, a second terminal, a projector)
can follow the match being played. The format is in ``docs/live-feed.md``.

A line is written and flushed per event (no fsync: a reader on the same machine sees it at
once, and a power cut loses a spectator's view, not a result). What a line carries is what the
replay already records: the turn record of ``replay.json`` as it is, the round record without the
turns already sent, so :func:`studio.sessions.haunted.watch.replay_bodies` rebuilds every replay
from the feed alone. Writing never stops a match: a feed that cannot be written is given up
(``broken`` says why) and the match plays on.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import threading
import time
from pathlib import Path
from typing import IO, Any

from studio.engines.haunted import replay as replays
from studio.engines.haunted.board import Map
from studio.engines.haunted.match import Entrant, MatchConfig, MatchResult, RoundResult, worn_monsters
from studio.engines.haunted.rules import RoundState

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)
"""One encoder for every line: ``json.dumps`` with options builds a new one per call."""
FEED_FORMAT = "studio-haunted-live"
FEED_VERSION = 1
MAX_LINE_BYTES = 256 * 1024
"""One line of a feed, at most. A turn record holds at most 4 KiB of each AI's output and of each
error (``TURN_LOG_LIMIT``), a round's load record as much again: the longest honest line is some
40 KB. A reader drops a longer one unread (and counts it)."""
FEED_NAME = "live.jsonl"
"""A tournament's feed, beside its ``index.json``."""
MATCH_SUFFIX = ".live.jsonl"
"""A single match's feed: its replay's name with this suffix instead of ``.json.gz``."""


def match_feed_path(replay_path: Path) -> Path:
    """Where a single match whose replay goes to ``replay_path`` writes its feed."""
    name = replay_path.name.removesuffix(".gz").removesuffix(".json")
    return replay_path.with_name(name + MATCH_SUFFIX)


def board_json(state: RoundState) -> dict[str, Any]:
    """A position as the feed carries it (the replay re-simulates it; a reader needs no engine to
    draw it)."""
    return {"strengths": list(state.strengths), "positions": [list(p) for p in state.positions],
            "alive": list(state.alive), "broken": list(state.broken), "turn": state.turn}


class FeedWriter:
    """Appends events to one feed file; the hooks match the engine's (``RoundStart``,
    ``Observer``, ``RoundEnd``) so they are passed to it as they are.

    Args:
        path: the feed file; it is started afresh (a new run is a new feed).
        kind: ``tournament`` or ``match``.
        clock: wall-clock seconds, written with every event (a reader measures its delay by it).
    """

    def __init__(self, path: Path, kind: str, clock=None) -> None:
        self.path = Path(path)
        self.kind = kind
        self._clock = clock or time.time
        self._lock = threading.Lock()
        self._file: IO[str] | None = None
        self._sent: int = 0
        """Turns of the round being played already written (the round's end sends the rest)."""
        self._entrants: dict[str, Entrant] = {}
        self.broken: str = ""
        """Why the feed stopped being written ("" while it is written)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # A new file (not truncated in place): a reader holding the old one sees it replaced.
            tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
            self._file = open(tmp, "w", encoding="utf-8")  # noqa: SIM115 - closed by close()
            os.replace(tmp, self.path)
        except OSError as exc:
            self.broken = f"cannot write the live feed {self.path}: {exc.strerror or exc}"
            self._file = None
            return
        self._emit("feed", format=FEED_FORMAT, version=FEED_VERSION, kind=kind, pid=os.getpid(),
                   started=_dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))

    def _emit(self, event: str, **fields: Any) -> None:
        if self._file is None:
            return
        line = _ENCODER.encode({"event": event, "t": round(self._clock(), 3), **fields})
        if len(line) > MAX_LINE_BYTES // 4 and len(line.encode("utf-8")) > MAX_LINE_BYTES:
            # Not written whole (a reader would drop it): said instead, so the gap is known.
            line = json.dumps({"event": "too_long", "t": round(self._clock(), 3), "was": event})
        with self._lock:
            try:
                self._file.write(line + "\n")
                self._file.flush()
            except (OSError, ValueError) as exc:
                self.broken = f"cannot write the live feed {self.path}: {exc}"
                self._close()

    def _close(self) -> None:
        if self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass
            self._file = None

    def close(self) -> None:
        with self._lock:
            self._close()

    # ------------------------------------------------------------------------ tournament

    def tournament_started(self, document: dict[str, Any]) -> None:
        """``document``: the run's ``index.json`` before any match (its plan and entrants)."""
        header = {k: v for k, v in document.items() if k not in ("matches", "replays")}
        self._emit("tournament", **header)

    def tournament_ended(self, document: dict[str, Any]) -> None:
        self._emit("tournament_end", byes=document.get("byes", []),
                   ratings=document.get("ratings", {}), standings=document.get("standings", []))

    def match_reused(self, entry: dict[str, Any]) -> None:
        """A match of an earlier run, taken as it was (a resumed run): listed, not played."""
        self._emit("match_end", result=None, teams=None, log=[], entry=entry, aborted_round=None,
                   reused=True)

    def stopped(self, why: str) -> None:
        """The run or match stopped before its end (cancelled, an error)."""
        self._emit("stopped", why=why)

    # ------------------------------------------------------------------------ one match

    def match_started(self, teams: dict[str, Entrant], config: MatchConfig, seed: int,
                      maps: dict[str, Map], number: int = 0, stage: str = "") -> None:
        self._entrants = dict(teams)
        self._emit("match", number=number, stage=stage, seed=seed, config=config.to_json(),
                   teams={t: e.to_json() for t, e in teams.items()},
                   maps={name: maps[name].to_json() for name in dict.fromkeys(config.maps)})

    def round_started(self, index: int, board: Map, home: str, state: RoundState) -> None:
        self._sent = 0
        monsters = worn_monsters(self._entrants, home) if self._entrants else {}
        self._emit("round", index=index, map=board.name, home=home, monsters=monsters)

    def turn_played(self, index: int, state: RoundState, events: list,
                    record: dict[str, Any]) -> None:
        self._sent += 1
        self._emit("turn", round=index, record=record, board=board_json(state))

    def round_ended(self, result: RoundResult) -> None:
        self._emit("round_end", record=self._rest(result.record))

    def _rest(self, record: dict[str, Any]) -> dict[str, Any]:
        """A round record with only the turns not written yet (a failed turn is not observed)."""
        return {**record, "turns": list(record.get("turns", []))[self._sent:]}

    def replayed(self, teams: dict[str, Entrant], config: MatchConfig, seed: int,
                 maps: dict[str, Map], number: int, stage: str, result: MatchResult) -> None:
        """A match played elsewhere (a cluster's worker), from its start to its last round,
        written as a match played here writes it turn by turn (re-simulated from the replay):
        a spectator follows the same feed, only all at once when the result comes. The match's
        end is the caller's (:meth:`match_ended`, with what it enters in an index)."""
        self.match_started(teams, config, seed, maps, number, stage)
        body = result.replay
        boards = replays.maps_of(body)
        for index, played in enumerate(result.rounds, 1):
            for frame in replays.frames(body, index):
                if frame.record is None:
                    self.round_started(index, boards[played.map], played.home, frame.state)
                else:
                    self.turn_played(index, frame.state, list(frame.events), frame.record)
            self.round_ended(played)

    def match_ended(self, result: MatchResult, entry: dict[str, Any] | None = None) -> None:
        """``entry``: the match as ``index.json`` lists it (in a tournament)."""
        body = result.replay
        rounds = body.get("rounds", [])
        interrupted = rounds[-1] if rounds and rounds[-1].get("aborted") else None
        self._emit("match_end", result=body.get("result"), teams=body.get("teams"),
                   log=body.get("log", []), entry=entry,
                   aborted_round=self._rest(interrupted) if interrupted is not None else None)
