"""Following a live feed (issue 30, "Watch it live"): what a spectator sees, rebuilt from the
feed's events, and the replays the feed holds.

:class:`Spectator` reads what was appended since its last :meth:`~Spectator.poll` (through
:class:`~studio.sessions.haunted.feed_tail.FeedTail`) and keeps the picture the spectator screen
draws: the match being played as the match view shows it (board, scoreboard, turn, log), the
tournament's results so far as its ``index.json`` would hold them, and the match after this one.
Nothing in a feed is trusted: a line that is not an event the studio writes, or that does not
fit what came before, is skipped and counted; names are made inert before they leave here.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from studio.engines.common.inert import inert
from studio.engines.common.limits import MAX_NESTING, too_deep
from studio.engines.haunted.board import Map
from studio.engines.haunted.match import MatchConfig, MatchResult, RoundResult
from studio.engines.haunted.rules import Round, step
from studio.sessions.haunted.feed import FEED_FORMAT, FEED_VERSION
from studio.sessions.haunted.feed_tail import FeedTail
from studio.sessions.haunted.index_check import check_index
from studio.sessions.haunted.live import result_line, round_line, turn_lines
from studio.sessions.haunted.results import next_match
from studio.sessions.haunted.watched import Watched, board_state, inert_document
from studio.storage.errors import ProjectError

LOG_LINES = 500
"""Log lines kept of the match being watched (the log panel shows as many)."""
MAX_ROUNDS = 1000
"""Rounds of one match kept; a feed with more is not one the studio wrote."""

_SKIPPED = (KeyError, TypeError, ValueError, IndexError, AttributeError, AssertionError,
            RecursionError, ProjectError)
"""What a line that does not fit raises on its way in: it is skipped and counted."""


STEP_WITHIN = 0.3
"""Seconds: turns written more recently than this are shown one poll each (one_turn_at_a_time);
older ones, of a spectator behind, together."""
MAX_HELD = 64
"""Lines held for the next poll at most: more pending than this are taken together, whatever
their times say (a feed's times are the writer's word, and a flood must not pile up here)."""

NOTHING_YET = "nothing is being played yet — this screen follows the next tournament as it starts"
"""What a spectator reads before any feed is found (the screen switches by itself once one is)."""


class Spectator:
    """Follows one feed, or whichever feed ``locate`` names now (a newer run, a new match).

    Args:
        locate: the feed file, or a function returning it (None: none yet), asked again every
            ``relocate`` seconds.
        clock: wall-clock seconds (the feed's events carry the writer's).
        keep_replays: also rebuild every match's replay body (:attr:`bodies`).
        one_turn_at_a_time: a poll that finds several recent turns takes the first and holds
            the rest for the next poll (:attr:`more`), so a screen drawing after each poll
            shows every turn; turns written over ``STEP_WITHIN`` seconds ago are taken
            together, so a spectator behind catches up. A match's end is always taken alone,
            so the results are drawn as each match ends.
    """

    def __init__(self, locate: Path | Callable[[], Path | None], clock: Callable[[], float] = time.time,
                 keep_replays: bool = False, relocate: float = 1.0,
                 veil: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
                 one_turn_at_a_time: bool = False) -> None:
        self._locate = locate if callable(locate) else (lambda: Path(locate))
        self._one_turn = one_turn_at_a_time
        self._held: list[bytes] = []
        self._framed = ""
        """What the line just taken was, when it is worth a frame of its own (turn, match end)."""
        self._veil = veil  # what a restricted person may not read, taken out of each event
        self._clock = clock
        self._keep = keep_replays
        self._relocate = relocate
        self._located_at = float("-inf")
        self._tail: FeedTail | None = None
        self._skipped = 0
        self.bodies: list[dict[str, Any]] = []
        """With ``keep_replays``: each match's replay body (without the file header), in order;
        the last one unfinished while its match is played."""
        self._reset()
        self._view = Watched("waiting", NOTHING_YET)

    @property
    def path(self) -> Path | None:
        return self._tail.path if self._tail is not None else None

    @property
    def file(self) -> tuple[Path, int, int] | None:
        """The feed file being read (path, device, inode), for a wake on its writes."""
        return self._tail.file if self._tail is not None else None

    @property
    def more(self) -> bool:
        """Lines are there already that the last poll left for the next (a backlog)."""
        return bool(self._held) or (self._tail is not None and self._tail.more)

    def _reset(self) -> None:
        self._kind = ""
        self._status, self._about = "live", ""
        self._document: dict[str, Any] | None = None
        self._match: dict[str, Any] = {}
        self._maps: dict[str, Map] = {}
        self._body: dict[str, Any] | None = None
        self._turns: list[dict[str, Any]] = []
        self._round_record: dict[str, Any] = {}
        self._delay: float | None = None
        self._shown_source: tuple[dict[str, Any] | None, int] | None = None
        self._shown_document: dict[str, Any] | None = None
        self._shown_next = ""
        self.bodies = []

    def view(self) -> Watched:
        return self._view

    # ------------------------------------------------------------------------------ reading

    def poll(self) -> bool:
        """Read what was appended; True when the view changed."""
        now = self._clock()
        if now - self._located_at >= self._relocate or self._tail is None:
            self._located_at = now
            where = self._locate()
            if where is not None and (self._tail is None or Path(where) != self._tail.path):
                if self._tail is not None:
                    self._tail.close()
                self._tail = FeedTail(Path(where))
        tail = self._tail
        if tail is None:
            return self._show("waiting", NOTHING_YET)
        lines = tail.read()
        if tail.restarted:
            self._reset()
            self._held = []
        if tail.waiting:
            return self._show("waiting", f"waiting for {tail.path.name} to appear")
        if self._held:
            lines, self._held = self._held + lines, []
        changed = False
        for k, line in enumerate(lines):
            self._framed = ""
            changed = self._take(line) or changed
            if self._one_turn and 0 < len(lines) - k - 1 <= MAX_HELD and (
                    self._framed == "match_end" or self._framed == "turn" and
                    self._delay is not None and self._delay < STEP_WITHIN):
                self._held = lines[k + 1:]  # drawn first, this; the rest at the next poll
                break
        if not changed and not tail.restarted:
            return False
        return self._show()

    def _take(self, line: bytes) -> bool:
        try:
            event = json.loads(line)
            if too_deep(event, MAX_NESTING) is not None:
                raise ValueError("nested too deep")
            if not isinstance(event, dict) or not isinstance(event.get("event"), str):
                raise ValueError("not an event")
            handler = getattr(self, "_on_" + event["event"], None)
            if handler is None:
                raise ValueError("unknown event")
            handler(self._veil(event) if self._veil is not None else event)
        except _SKIPPED:
            self._skipped += 1
            return True
        stamp = event.get("t")
        if isinstance(stamp, (int, float)) and not isinstance(stamp, bool):
            self._delay = max(0.0, self._clock() - float(stamp))
        return True

    # ------------------------------------------------------------------------------ events

    def _on_feed(self, event: dict[str, Any]) -> None:
        if event.get("format") != FEED_FORMAT or event.get("version") != FEED_VERSION:
            raise ValueError("not a feed of this version")
        self._reset()
        self._kind = str(event.get("kind", ""))

    def _on_too_long(self, event: dict[str, Any]) -> None:
        self._skipped += 1

    def _on_tournament(self, event: dict[str, Any]) -> None:
        document = {k: v for k, v in event.items() if k not in ("event", "t")}
        document["matches"] = []
        self._document = check_index(document, Path("live feed"))
        self._kind = "tournament"

    def _on_tournament_end(self, event: dict[str, Any]) -> None:
        document = dict(self._document or {}, complete=True, byes=event["byes"],
                        ratings=event["ratings"], standings=event["standings"])
        self._document = check_index(document, Path("live feed"))
        self._status, self._about = "over", "the tournament is over"

    def _on_stopped(self, event: dict[str, Any]) -> None:
        self._status, self._about = "stopped", str(event.get("why", ""))[:200]

    def _on_match(self, event: dict[str, Any]) -> None:
        config = MatchConfig.from_json(event["config"])
        maps = {str(name): Map.from_json(str(name), data) for name, data in event["maps"].items()}
        if any(name not in maps for name in config.maps):
            raise ValueError("a map of the rotation is missing")
        teams = event["teams"]
        names = (str(teams["A"]["name"]), str(teams["B"]["name"]))
        self._maps = maps
        self._match = {"number": int(event.get("number", 0)), "stage": str(event.get("stage", "")),
                       "names": names, "config": config, "round_index": 0, "board": None,
                       "home": "A", "monsters": {}, "state": None, "events": (), "record": None,
                       "rounds": (), "wins": {"A": 0, "B": 0}, "ties": 0, "log": (),
                       "result": None}
        self._status, self._about = "live", ""
        if self._keep:
            self._body = {"config": event["config"], "seed": event["seed"], "teams": teams,
                          "maps": event["maps"], "log": [], "rounds": [],
                          "result": {"winner": None, "wins": {"A": 0, "B": 0}, "ties": 0,
                                     "rounds_played": 0, "coin_toss": None, "aborted": True}}
            self.bodies.append(self._body)

    def _on_round(self, event: dict[str, Any]) -> None:
        match = self._match
        index, home = int(event["index"]), str(event["home"])
        board = self._maps[str(event["map"])]
        if home not in ("A", "B") or not 0 < index <= MAX_ROUNDS:
            raise ValueError("not a round")
        names = match["names"]
        match.update(round_index=index, board=board, home=home, record=None, events=(),
                     monsters={k: str(v) for k, v in dict(event.get("monsters") or {}).items()},
                     state=Round(board).initial_state())
        self._log([f"— round {index} on {board.name}: {names[0 if home == 'A' else 1]} home —"])
        self._turns = []

    def _on_turn(self, event: dict[str, Any]) -> None:
        record = event["record"]
        self._play(record, event.get("board"))
        self._turns.append(record)
        self._log(turn_lines(record))
        self._framed = "turn"

    def _play(self, record: dict[str, Any], board: Any) -> None:
        """The position after a turn: re-simulated from the one before (the events light up
        the tiles hit), or, when that fails, the board the feed sent."""
        match = self._match
        state = match["state"]
        if state is None:
            raise ValueError("a turn before its round")
        home, away = record["home"].get("moves"), record["away"].get("moves")
        try:
            if home is None or away is None:
                raise ValueError("not played")
            after, events = step(state, home, away)
        except _SKIPPED:
            after, events = board_state(state, board), []
        match.update(state=after, events=tuple(events), record=record)

    def _on_round_end(self, event: dict[str, Any]) -> None:
        match = self._match
        tail = event["record"]
        record = {**tail, "turns": self._turns + list(tail["turns"])}
        end = record["result"]
        result = RoundResult(int(record["index"]), str(record["map"]), str(record["home"]),
                             end["winner"], str(end["reason"]),
                             (int(end["broken"]["home"]), int(end["broken"]["away"])),
                             int(end["turns"]), dict(end.get("failures") or {}), record)
        if result.winner not in ("home", "away", None) or len(match["rounds"]) >= MAX_ROUNDS:
            raise ValueError("not a round's end")
        wins = dict(match["wins"])
        if result.winner_team is None:
            match["ties"] += 1
        else:
            wins[result.winner_team] += 1
        failed = tail["turns"][-1] if tail["turns"] and result.failures else None
        match.update(rounds=match["rounds"] + (result,), wins=wins,
                     record=failed or match["record"])
        self._log([round_line(result, match["names"])])
        if self._body is not None:
            self._body["rounds"].append(record)
            self._body["result"].update(wins=dict(wins), ties=match["ties"],
                                        rounds_played=len(match["rounds"]))
        self._turns = []

    def _on_match_end(self, event: dict[str, Any]) -> None:
        self._framed = "match_end"  # the results with it are drawn, however far behind
        entry = event.get("entry")
        if entry is not None and self._document is not None:
            document = dict(self._document, matches=self._document["matches"] + [entry])
            self._document = check_index(document, Path("live feed"))
        if event.get("reused"):
            return
        summary = event["result"]
        match = self._match
        result = MatchResult(summary["winner"], dict(summary["wins"]), int(summary["ties"]),
                             list(match["rounds"]), summary.get("coin_toss"),
                             aborted=bool(summary.get("aborted")))
        match.update(result=result, wins=dict(result.wins), ties=result.ties)
        self._log([result_line(result, match["names"])])
        if self._body is not None:
            self._body.update(teams=event["teams"], log=list(event["log"]), result=summary)
            aborted = event.get("aborted_round")
            if aborted is not None:
                self._body["rounds"].append({**aborted, "turns": self._turns + aborted["turns"]})
            self._body = None
        if self._kind == "match":
            self._status, self._about = "over", "the match is over"

    def finish_partial(self) -> None:
        """End the replay body of a match the feed stopped in (its writer was killed): the
        round in progress is kept as an aborted round, as an aborted match's replay has it."""
        body, match = self._body, self._match
        if body is None or not match:
            return
        if match["round_index"] > len(match["rounds"]):
            board = match["board"]
            body["rounds"].append({"index": match["round_index"], "map": board.name,
                                   "home": match["home"], "turns": list(self._turns),
                                   "aborted": True})
        else:  # stopped between rounds: the next one is cut off before it began (run_match's way)
            body["rounds"].append({"index": len(body["rounds"]) + 1, "aborted": True,
                                   "turns": []})
        self._body = None

    def _log(self, lines: list[str]) -> None:
        match = self._match
        match["log"] = (match.get("log", ()) + tuple(lines))[-LOG_LINES:]

    # ------------------------------------------------------------------------------ the view

    def _show(self, status: str | None = None, about: str = "") -> bool:
        old = self._view
        match = self._match
        # Made again only when a match ended, not every turn: the screen redraws the bracket
        # when this object changes.
        number = match.get("number", 0)
        source = self._shown_source
        if source is None or source[0] is not self._document or source[1] != number:
            self._shown_source = (self._document, number)
            self._shown_document = (inert_document(self._document)
                                    if self._document is not None else None)
            self._shown_next = next_match(self._shown_document, number)
        document = self._shown_document
        fields: dict[str, Any] = {k: match[k] for k in (
            "number", "stage", "config", "round_index", "board", "home", "monsters", "state",
            "events", "record", "rounds", "wins", "ties", "log", "result")} if match else {}
        if match:
            fields["names"] = tuple(inert(n) for n in match["names"])
        new = Watched(status or self._status, about or self._about, self._kind, document,
                      next_match=self._shown_next,
                      skipped=self._skipped + (self._tail.too_long if self._tail else 0),
                      delay=self._delay, version=old.version, **fields)
        if new == old:  # still waiting, say: nothing to draw
            return False
        self._view = replace(new, version=old.version + 1)
        return True


def replay_bodies(path: Path, keep_replays: bool = True) -> list[dict[str, Any]]:
    """Every match's replay body as the feed at ``path`` tells it (an unfinished last match as
    an aborted one: the rounds decided and the round in progress, marked ``aborted``)."""
    spectator = Spectator(path, keep_replays=keep_replays)
    while spectator.poll():
        pass
    spectator.finish_partial()
    return spectator.bodies
