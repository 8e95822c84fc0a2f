"""An AI played behind a veil: its moves count, its words never leave it.

A student's test match against another team's submission must not show a line of that team's
code. A Python traceback quotes the lines it passed through; an exception's text, what the AI
printed, or an odd value in its answer can be anything the AI chose, its own source included;
and all of these reach the match view's log, the replay and the live feed. A veiled player drops
what it printed, reports a failure by its kind only, and blanks any text in its answer, which
the referee reads the same way (an unknown move is a jump either way), so the match is the same.
"""

from __future__ import annotations

from typing import Any

from studio.engines.haunted.players import AIReply, Player
from studio.engines.haunted.rules import MOVES

VEILED = "what it raised or printed is not shown (another team's code)"
"""A veiled failure's whole text: the match view and the replay already name the team and the
failure's kind beside it."""


def _blank(value: Any) -> Any:
    """An answer with the same meaning to the referee and no text of the AI's in it."""
    if isinstance(value, (list, tuple)):
        return [v if isinstance(v, str) and v in MOVES else "?" for v in value]
    if isinstance(value, str):
        return ""
    if isinstance(value, dict):
        return {}
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return 0
    return value


class VeiledPlayer:
    """A player whose words are withheld: its moves count, its text never leaves it."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name
        self.confined = inner.confined

    def _veil(self, reply: AIReply) -> AIReply:
        error = "" if reply.ok else VEILED
        return AIReply(reply.ok, _blank(reply.result) if reply.ok else None, reply.failure,
                       error, reply.ms)

    def load(self, seed: int, side: str) -> AIReply:
        return self._veil(self.inner.load(seed, side))

    def request(self, turn: int, state: dict[str, Any], side: str) -> None:
        self.inner.request(turn, state, side)

    def collect(self) -> AIReply:
        return self._veil(self.inner.collect())

    def close(self) -> None:
        self.inner.close()

    def interrupt(self) -> None:
        stop = getattr(self.inner, "interrupt", None)
        if stop is not None:
            stop()

    def __getattr__(self, name: str) -> Any:
        # What the match view asks a worker besides the contract (its pid, confinement notes).
        return getattr(self.inner, name)


# -- what a replay or a live feed shows of a team to someone who may not read its code ------------

HIDDEN_WARNING = "a warning (not shown: another team's code)"


def veiled_answer(answer: dict[str, Any]) -> dict[str, Any]:
    """A recorded answer (a turn's, or a load's) with no text of the AI's: its moves, timing and
    failure's kind stay; what it printed goes; its error and warnings become :data:`VEILED`."""
    out = dict(answer)
    if "raw" in out:
        out["raw"] = _blank(out["raw"])
    for stream in ("stdout", "stderr"):
        if stream in out:
            out[stream] = ""
    if "error" in out:
        out["error"] = VEILED
    if out.get("warnings"):
        out["warnings"] = [HIDDEN_WARNING] * len(out["warnings"])
    return out


def _sides(home: Any) -> dict[str, str]:
    home = "A" if home not in ("A", "B") else home
    return {"home": home, "away": "B" if home == "A" else "A"}


def veiled_turn(turn: dict[str, Any], home: Any, hidden: set[str]) -> dict[str, Any]:
    sides = _sides(home)
    return {key: veiled_answer(value) if key in sides and sides[key] in hidden
            and isinstance(value, dict) else value for key, value in turn.items()}


def veiled_round(record: dict[str, Any], hidden: set[str]) -> dict[str, Any]:
    """A round's record (a replay's, or a feed's round end) with the hidden teams' words gone."""
    if not hidden:
        return record
    out = dict(record)
    home = record.get("home")
    out["turns"] = [veiled_turn(t, home, hidden) if isinstance(t, dict) else t
                    for t in record.get("turns", [])]
    load = record.get("load")
    if isinstance(load, dict):
        out["load"] = {team: veiled_answer(e) if team in hidden and isinstance(e, dict) else e
                       for team, e in load.items()}
    result = record.get("result")
    if isinstance(result, dict) and isinstance(result.get("failures"), dict):
        failures = {team: {**f, "error": VEILED} if team in hidden and isinstance(f, dict) else f
                    for team, f in result["failures"].items()}
        out["result"] = {**result, "failures": failures}
    return out


def veiled_replay(document: dict[str, Any], person: Any) -> dict[str, Any]:
    """A replay as ``person`` (an ``access.Access``) may see it (the same document for a
    teacher)."""
    hidden = person.hidden_teams(document.get("teams") or {})
    if not hidden:
        return document
    return {**document, "rounds": [veiled_round(r, hidden) if isinstance(r, dict) else r
                                   for r in document.get("rounds", [])]}


class FeedVeil:
    """Applied to each live-feed event before a spectator's screen reads it (see
    ``watch.Spectator``): the feed file keeps everything, a restricted person sees no team's
    words but their own."""

    def __init__(self, person: Any) -> None:
        self.person = person
        self.hidden: set[str] = set()
        self.home: Any = "A"

    def __call__(self, event: dict[str, Any]) -> dict[str, Any]:
        kind = event.get("event")
        if kind == "match" and isinstance(event.get("teams"), dict):
            self.hidden = self.person.hidden_teams(event["teams"])
        elif kind == "round":
            self.home = event.get("home")
        elif kind == "turn" and self.hidden and isinstance(event.get("record"), dict):
            return {**event, "record": veiled_turn(event["record"], self.home, self.hidden)}
        elif kind == "round_end" and self.hidden and isinstance(event.get("record"), dict):
            return {**event, "record": veiled_round(event["record"], self.hidden)}
        return event
