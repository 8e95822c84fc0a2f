"""The referee: rounds and matches above the rules (spec haunted.md §6, §7).

It asks both players for every turn (request both, then collect both, so a turn lasts as long as
the slower answer), validates the answers, applies them with :mod:`rules`, and records everything
a replay needs. The match RNG (SplitMix64, §6.3) is drawn in this order only: at the start of
every round team A's AI seed then team B's; ``below(2)`` for a coin toss.

No process or file handling here: players come from factories (worker runners or in-process
built-ins) and the replay is returned as data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from studio.engines.common.splitmix import SplitMix64
from studio.engines.haunted.answers import game_state, interpret
from studio.engines.haunted.board import Map
from studio.engines.haunted.match_data import (  # noqa: F401  (re-exported: callers import them here)
    Entrant,
    MatchConfig,
    MatchResult,
    RoundResult,
)
from studio.engines.haunted.players import AIReply, Player
from studio.engines.haunted.rules import Round, RoundState, describe, step

AI_FAILURE, BOTH_FAILED = "ai_failure", "both_failed"
TURN_LOG_LIMIT = 4 * 1024
"""Captured text kept per AI per turn (§8.1)."""
ROUND_LOG_LIMIT = 64 * 1024
"""Captured text kept per AI per round."""
TRUNCATED = "…truncated"


Observer = Callable[[int, RoundState, list, dict[str, Any]], None]
"""Called after every turn with (round index, new state, events, turn record)."""
RoundStart = Callable[[int, Map, str, RoundState], None]
"""Called before a round's AIs load with (round index, map, home team letter, start state)."""
RoundEnd = Callable[[RoundResult], None]
"""Called when a round is decided, failures included."""


class MatchAborted(Exception):
    """Raised by an observer to stop a match; :func:`run_match` then returns what was played.

    ``record`` carries the replay entry of the interrupted round (set on its way up).
    """

    def __init__(self, record: dict[str, Any] | None = None) -> None:
        super().__init__("the match was aborted")
        self.record = record


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, marked when cut."""
    return text if len(text) <= limit else text[:limit] + TRUNCATED


class _LogBudget:
    """What remains of one AI's captured-text allowance for the round."""

    def __init__(self) -> None:
        self.left = ROUND_LOG_LIMIT

    def take(self, text: str) -> str:
        text = clip(text, TURN_LOG_LIMIT)
        if len(text) > self.left:
            text = text[:self.left] + TRUNCATED
        self.left = max(0, self.left - len(text))
        return text


def _answer_record(reply: AIReply, budget: _LogBudget) -> dict[str, Any]:
    record: dict[str, Any] = {
        "raw": reply.result if reply.ok else None, "moves": None, "ms": round(reply.ms, 3),
        "warnings": [], "stdout": budget.take(reply.stdout), "stderr": budget.take(reply.stderr),
    }
    if not reply.ok:
        record["failure"] = reply.failure or "crash"
        record["error"] = clip(reply.error, TURN_LOG_LIMIT)
    return record


def _failed_round(
    index: int, board: Map, home: str, failed: list[str], side_of: dict[str, str],
    reasons: dict[str, dict[str, str]],
) -> RoundResult:
    """A round lost (or tied) by failure before or during play; ``failed`` holds team letters."""
    if len(failed) == 2:
        winner, reason = None, BOTH_FAILED
    else:
        winner = "away" if side_of[failed[0]] == "home" else "home"
        reason = AI_FAILURE
    return RoundResult(index, board.name, home, winner, reason, (0, 0), 0,
                       {t: reasons[t] for t in failed})


def play_round(
    index: int,
    board: Map,
    home: str,
    players: dict[str, Player],
    seeds: dict[str, int],
    names: dict[str, str],
    observer: Observer | None = None,
    on_start: RoundStart | None = None,
) -> RoundResult:
    """Play one round with fresh players; always closes them.

    Args:
        index: the 1-based round number.
        board: the map.
        home: the team letter (``A``/``B``) playing home.
        players: team letter -> a fresh, unloaded player.
        seeds: team letter -> the AI seed for this round.
        names: team letter -> team name (for warnings).
        observer: called after every turn; it may raise :class:`MatchAborted`.
        on_start: called before the AIs load, with the start position.

    Raises:
        MatchAborted: from the observer, with the round's record so far (marked ``aborted``).
    """
    side_of = {home: "home", ("B" if home == "A" else "A"): "away"}
    team_of = {side: team for team, side in side_of.items()}
    record: dict[str, Any] = {"index": index, "map": board.name, "home": home,
                              "ai_seeds": dict(seeds), "load": {}, "turns": []}
    budgets = {"A": _LogBudget(), "B": _LogBudget()}
    try:
        if on_start is not None:
            on_start(index, board, home, Round(board).initial_state())
        reasons: dict[str, dict[str, str]] = {}
        for team in ("A", "B"):
            reply = players[team].load(seeds[team], side_of[team])
            entry: dict[str, Any] = {"ok": reply.ok, "ms": round(reply.ms, 3)}
            if reply.stdout or reply.stderr:
                entry["stdout"] = budgets[team].take(reply.stdout)
                entry["stderr"] = budgets[team].take(reply.stderr)
            if not reply.ok:
                entry["failure"] = reply.failure or "exception"
                entry["error"] = clip(reply.error, TURN_LOG_LIMIT)
                reasons[team] = {"failure": entry["failure"], "error": entry["error"]}
            record["load"][team] = entry
        if reasons:
            result = _failed_round(index, board, home, sorted(reasons), side_of, reasons)
            return _finish(result, record, None)
        state = Round(board).initial_state()
        while True:
            turn = state.turn
            for side in ("home", "away"):
                players[team_of[side]].request(turn, game_state(state), side)
            replies = {side: players[team_of[side]].collect() for side in ("home", "away")}
            turn_record: dict[str, Any] = {"turn": turn}
            moves: dict[str, list[str | None]] = {}
            for side in ("home", "away"):
                team = team_of[side]
                reply = replies[side]
                answer = _answer_record(reply, budgets[team])
                if reply.ok:
                    label = f"{names[team]} ({side})"
                    reading = interpret(reply.result, state.living(side), label, turn)
                    if reading.moves is None:
                        answer["failure"], answer["error"] = "bad_shape", reading.error
                    else:
                        answer["moves"] = reading.moves
                        answer["warnings"] = reading.warnings
                        moves[side] = reading.moves
                if "failure" in answer:
                    reasons[team] = {"failure": answer["failure"], "error": answer["error"]}
                turn_record[side] = answer
            if reasons:  # the turn's moves are not applied (§5.2 step 3)
                turn_record["events"] = []
                record["turns"].append(turn_record)
                result = _failed_round(index, board, home, sorted(reasons), side_of, reasons)
                result.turns = turn
                result.broken = state.broken
                return _finish(result, record, state)
            state, events = step(state, moves["home"], moves["away"])
            turn_record["events"] = [describe(e) for e in events]
            record["turns"].append(turn_record)
            if observer is not None:
                observer(index, state, events, turn_record)
            if state.end is not None:
                end = state.end
                result = RoundResult(index, board.name, home, end.winner, end.reason,
                                     end.broken, end.turns)
                return _finish(result, record, state)
    except MatchAborted:
        record["aborted"] = True
        raise MatchAborted(record) from None
    finally:
        for player in players.values():
            player.close()


def _finish(result: RoundResult, record: dict[str, Any], state: RoundState | None) -> RoundResult:
    record["result"] = {
        "winner": result.winner, "reason": result.reason,
        "broken": {"home": result.broken[0], "away": result.broken[1]}, "turns": result.turns,
        "board_sha256": state.board_sha256() if state is not None else None,
    }
    if result.failures:
        record["result"]["failures"] = result.failures
    result.record = record
    return result


def worn_monsters(teams: dict[str, Entrant], home: str) -> dict[str, str]:
    """Which monster each team wears when ``home`` plays home: the away team switches to its
    alternate when both chose the same one (§3)."""
    away = "B" if home == "A" else "A"
    worn = {home: teams[home].monster, away: teams[away].monster}
    if worn[away] and worn[away] == worn[home] and teams[away].alternate:
        worn[away] = teams[away].alternate
    return worn


def decided(wins_a: int, wins_b: int, planned: int, played: int) -> bool:
    """True once the leader cannot be caught in the planned rounds (§6.2)."""
    return abs(wins_a - wins_b) > planned - played


def run_match(
    team_a: Entrant,
    team_b: Entrant,
    maps: dict[str, Map] | Sequence[Map],
    config: MatchConfig = MatchConfig(),
    seed: int = 0,
    observer: Observer | None = None,
    confined: dict[str, bool] | None = None,
    on_round_start: RoundStart | None = None,
    on_round_end: RoundEnd | None = None,
) -> MatchResult:
    """Play a match of best of ``config.rounds`` (§6.2); A is home in round 1.

    Args:
        team_a, team_b: the teams; each round gets fresh players from their factories.
        maps: the boards by name (every name of ``config.maps`` must be present).
        config: the match settings.
        seed: the match seed (unsigned 64-bit).
        observer: called after every turn; raising :class:`MatchAborted` stops the match, and
            the result then holds the rounds played so far and the interrupted one in its replay
            (``aborted`` is set; the winner is None).
        confined: reported confinement per team letter; by default read from the first round's
            players.
        on_round_start: called before each round's AIs load, with its start position.
        on_round_end: called with each round's result.
    """
    boards = maps if isinstance(maps, dict) else {m.name: m for m in maps}
    missing = [name for name in config.maps if name not in boards]
    if missing:
        raise ValueError(f"unknown map(s) in the rotation: {', '.join(missing)}")
    rng = SplitMix64(seed)
    teams = {"A": team_a, "B": team_b}
    names = {"A": team_a.name, "B": team_b.name}
    wins = {"A": 0, "B": 0}
    ties = 0
    rounds: list[RoundResult] = []
    log: list[str] = []
    seen_confined: dict[str, bool] = dict(confined or {})
    gaps: dict[str, str] = {}

    def play(k: int) -> None:
        nonlocal ties
        seeds = {"A": rng.next64(), "B": rng.next64()}
        home = "B" if config.swap_sides and k % 2 == 0 else "A"
        players = {t: teams[t].make() for t in ("A", "B")}
        for t, p in players.items():
            if t not in seen_confined:
                seen_confined[t] = bool(getattr(p, "confined", False))
                if not seen_confined[t]:
                    why = str(getattr(p, "unconfined_reason", "")).removeprefix("runs unconfined: ")
                    gaps[t] = why or "with the user's rights"
                    log.append(f"{names[t]} runs unconfined ({gaps[t]})")
        board = boards[config.maps[(k - 1) % len(config.maps)]]
        result = play_round(k, board, home, players, seeds, names, observer, on_round_start)
        result.record["monsters"] = worn_monsters(teams, home)
        rounds.append(result)
        if result.winner_team is None:
            ties += 1
        else:
            wins[result.winner_team] += 1
        if on_round_end is not None:
            on_round_end(result)

    k = 0
    coin = None
    interrupted: dict[str, Any] | None = None
    try:
        while k < config.rounds and not decided(wins["A"], wins["B"], config.rounds, k):
            k += 1
            play(k)
        if wins["A"] == wins["B"]:
            all_tied = ties == len(rounds)
            if not (config.coin_toss_if_all_tied and all_tied):
                while wins["A"] == wins["B"] and k < config.max_rounds:
                    k += 1
                    play(k)
            if wins["A"] == wins["B"]:
                coin = "A" if rng.below(2) == 0 else "B"
    except MatchAborted as stop:
        interrupted = stop.record or {"index": k, "aborted": True, "turns": []}
    winner = None if interrupted else coin or ("A" if wins["A"] > wins["B"] else "B")
    result = MatchResult(winner, wins, ties, rounds, coin, log, aborted=interrupted is not None)
    teams_json = {t: {**teams[t].to_json(), "confined": seen_confined.get(t, False)}
                  for t in ("A", "B")}
    for t, why in gaps.items():
        teams_json[t]["confinement"] = why  # what was missing, for whoever reads the replay
    records = [r.record for r in rounds] + ([interrupted] if interrupted else [])
    result.replay = replay_body(config, seed, teams_json, boards, log, records, wins, ties,
                                winner, coin)
    return result


def replay_body(config: MatchConfig, seed: int, teams: dict[str, dict[str, Any]],
                boards: dict[str, Map], log: list[str], records: list[dict[str, Any]],
                wins: dict[str, int], ties: int, winner: str | None,
                coin: str | None = None) -> dict[str, Any]:
    """The replay's content (§4.5) without its header; a last record marked ``aborted`` makes it
    the replay of an unfinished match (``winner`` None, ``result.aborted`` set)."""
    played = sum(1 for r in records if not r.get("aborted"))
    body = {
        "config": config.to_json(),
        "seed": seed,
        "teams": teams,
        "maps": {name: boards[name].to_json() for name in dict.fromkeys(config.maps)},
        "log": list(log),
        "rounds": list(records),
        "result": {"winner": winner, "wins": dict(wins), "ties": ties,
                   "rounds_played": played, "coin_toss": coin},
    }
    if played != len(records):
        body["result"]["aborted"] = True
    return body
