"""The replay viewer (haunted.md §13.4): a recorded match on the match view's layout, re-simulated
from its moves, with the recorded logs and timings of each turn and the verification status."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.timer import Timer

from studio.engines.haunted import replay as replays
from studio.engines.haunted.board import Map
from studio.engines.haunted.match import MatchConfig
from studio.screens.dialogs import NameDialog
from studio.screens.haunted.base import QUIET_DOCUMENT_KEYS
from studio.screens.haunted.match_layout import MatchLayout, Shown
from studio.screens.replay_keys import replay_bindings
from studio.sessions.haunted.live import PACES, reason_text
from studio.sessions import access
from studio.sessions.haunted.replays import describe_result
from studio.sessions.haunted.veil import veiled_replay
from studio.storage.errors import ProjectError
from studio.storage.haunted.replay import load_replay


def turn_log(record: dict[str, Any] | None) -> list[str]:
    """The recorded events, warnings, failures, output and timings of one turn."""
    if record is None:
        return ["the start position"]
    lines = [f"turn {record.get('turn')}: " + ", ".join(record.get("events", [])) or "no events"]
    for side in ("home", "away"):
        answer = record.get(side) or {}
        ms = answer.get("ms")
        timing = f"{ms:.1f} ms" if isinstance(ms, (int, float)) else "?"
        lines.append(f"{side}: answered {answer.get('raw')!r} in {timing}")
        if "failure" in answer:
            lines.append(f"{side}: {answer['failure']}: {answer.get('error', '')}")
        lines += [f"{side} warning: {w}" for w in answer.get("warnings", [])]
        for stream in ("stdout", "stderr"):
            text = (answer.get(stream) or "").rstrip()
            lines += [f"{side} {stream}: {line}" for line in text.splitlines()]
    return lines


class ReplayViewerScreen(MatchLayout):
    """Step through a recorded match."""

    SCREEN_TITLE = "replay"
    BINDINGS: ClassVar[list[BindingType]] = replay_bindings(
        "turn",
        *QUIET_DOCUMENT_KEYS,
        Binding("right_square_bracket", "round(1)", "Next round", key_display="]"),
        Binding("left_square_bracket", "round(-1)", "Previous round", key_display="["),
        Binding("l", "toggle_log", "Log"),
    )
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("go_to", "Go to a turn", "Jump to round.turn, e.g. 3.12"),
        ("verify", "Verify the replay", "Re-simulate every round and compare with the record"),
    ]

    def __init__(self, document, path: Path) -> None:
        super().__init__(document)
        self.path = Path(path)
        self.replay: dict[str, Any] | None = None
        self.error = ""
        try:
            # Another team's errors, prints and answers are its code's words: not a student's.
            self.replay = veiled_replay(load_replay(self.path), access.current())
        except ProjectError as exc:
            self.error = str(exc)
        self.round = 1
        self.frame = 0
        self.verdict = "not verified yet (v)"
        self.pace = 0.5
        self._frames: dict[int, list[replays.Frame] | str] = {}
        self._timer: Timer | None = None

    # ------------------------------------------------------------------------------ data

    def first_board(self) -> Map:
        if self.replay is None or not self.replay["rounds"]:
            return Map.from_rows("empty", [[3] * 5 for _ in range(5)])
        return replays.maps_of(self.replay)[self.replay["rounds"][0]["map"]]

    @property
    def round_count(self) -> int:
        return len(self.replay["rounds"]) if self.replay else 0

    def frames(self, number: int) -> list[replays.Frame] | str:
        """The re-simulated boards of a round, or why they cannot be made."""
        if number not in self._frames:
            try:
                self._frames[number] = list(replays.frames(self.replay, number))
            except (replays.ReplayError, KeyError, TypeError, ValueError) as exc:
                self._frames[number] = f"round {number} cannot be replayed: {exc}"
        return self._frames[number]

    def _tally(self, before: int) -> tuple[dict[str, int], int]:
        wins, ties = {"A": 0, "B": 0}, 0
        for record in self.replay["rounds"][:before]:
            result = record.get("result") or {}
            winner = result.get("winner")
            if record.get("aborted"):
                continue
            if winner is None:
                ties += 1
            else:
                home = record["home"]
                wins[home if winner == "home" else ("B" if home == "A" else "A")] += 1
        return wins, ties

    # ------------------------------------------------------------------------------ drawing

    def refresh_view(self) -> None:
        styles = self.styles_ui
        if self.replay is None or not self.round_count:
            self.query_one("#banner").set_lines([Text(f"✗ {self.error or 'the replay has no rounds'}",
                                                      style=styles.error)])
            return
        doc = self.replay
        record = doc["rounds"][self.round - 1]
        frames = self.frames(self.round)
        names = (doc["teams"]["A"].get("name", "A"), doc["teams"]["B"].get("name", "B"))
        config = MatchConfig.from_json(doc["config"])
        last_frame = isinstance(frames, list) and self.frame == len(frames) - 1
        wins, ties = self._tally(self.round if last_frame else self.round - 1)
        banner: list[Text] = []
        if isinstance(frames, str):
            banner.append(Text(f"✗ {frames}", style=styles.error))
            frame = None
        else:
            frame = frames[self.frame]
            if last_frame:
                banner.append(Text(self._round_result(record, names), style=styles.accent))
        if last_frame and self.round == self.round_count:
            banner.append(Text(describe_result(doc), style=styles.success))
        bad = self.verdict.startswith("✗")
        banner.append(Text(self.verdict, style=styles.error if bad else styles.muted))
        where = f"turn {frame.turn if frame else '?'} · {'playing' if self._timer else 'paused'}"
        self.show(Shown(names, config, self.round, record["home"], record.get("monsters", {}),
                        frame.state if frame else None, frame.events if frame else (),
                        frame.record if frame else None, wins, ties,
                        # A no-break space: "0.5 s" folded as "0.5" and "s" on the next line.
                        f"seed {doc.get('seed')} · {where} · {self.pace:g}\u00a0s", banner))
        self.show_log(turn_log(frame.record if frame else None))

    @staticmethod
    def _round_result(record: dict[str, Any], names: tuple[str, str]) -> str:
        if record.get("aborted"):
            return f"round {record['index']}: the match was aborted here"
        result = record["result"]
        winner = result.get("winner")
        if winner is None:
            who = "tie"
        else:
            home = record["home"]
            team = home if winner == "home" else ("B" if home == "A" else "A")
            who = f"{names[0 if team == 'A' else 1]} wins"
        return f"round {record['index']} ({record['map']}): {who} ({reason_text(result['reason'])})"

    # ------------------------------------------------------------------------------ moving

    def go(self, number: int, frame: int) -> None:
        """Show round ``number`` at frame ``frame`` (clamped; -1 is the round's last turn)."""
        if not self.round_count:
            return
        self.round = min(max(number, 1), self.round_count)
        frames = self.frames(self.round)
        count = len(frames) if isinstance(frames, list) else 1
        self.frame = count - 1 if frame < 0 else min(frame, count - 1)
        self.refresh_view()

    def action_step(self, delta: int) -> None:
        frames = self.frames(self.round)
        count = len(frames) if isinstance(frames, list) else 1
        target = self.frame + delta
        if target >= count and self.round < self.round_count:
            self.go(self.round + 1, 0)
        elif target < 0 and self.round > 1:
            self.go(self.round - 1, -1)
        else:
            self.go(self.round, max(target, 0))
            if delta > 0 and target >= count and self._timer:
                self.action_play()  # the end: stop playing

    def action_round(self, delta: int) -> None:
        self.go(self.round + delta, 0)

    def action_ends(self, end: int) -> None:
        self.go(self.round_count, -1) if end else self.go(1, 0)

    def action_play(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        else:
            self._timer = self.set_interval(max(self.pace, 0.02), lambda: self.action_step(1))
        self.refresh_view()

    def action_speed(self, direction: int) -> None:
        index = min(range(len(PACES)), key=lambda i: abs(PACES[i] - self.pace))
        self.pace = max(PACES[min(max(index + direction, 1), len(PACES) - 1)], 0.05)
        if self._timer is not None:
            self.action_play()
            self.action_play()
        else:
            self.refresh_view()

    @work(exclusive=True, group="dialog")
    async def action_go_to(self) -> None:
        text = await self.app.push_screen_wait(NameDialog("Go to round.turn (e.g. 3.12)",
                                                          f"{self.round}.0", "Go"))
        if not text:
            return
        number, _, turn = text.strip().partition(".")
        try:
            wanted = (int(number), int(turn or 0))
        except ValueError:
            self.notify(f"{text!r} is not round.turn", severity="error", timeout=3)
            return
        self.go(*wanted)
        if (self.round, self.frame) != wanted:  # clamped: say where it went instead
            self.notify(f"there is no turn {wanted[0]}.{wanted[1]}: showing "
                        f"{self.round}.{self.frame}", severity="warning", timeout=4)

    # ------------------------------------------------------------------------------ verify

    def action_verify(self) -> None:
        if self.replay is None:
            return
        self.verdict = "verifying…"
        self.refresh_view()
        self._verify()

    @work(thread=True, exclusive=True, group="verify")
    def _verify(self) -> None:
        problems = replays.verify(self.replay)
        verdict = "✓ verified: every round reproduced" if not problems else \
            f"✗ {replays.MISMATCH}: {problems[0]}" + (f" (+{len(problems) - 1} more)"
                                                      if len(problems) > 1 else "")
        self.app.call_from_thread(self._verified, verdict)

    def _verified(self, verdict: str) -> None:
        self.verdict = verdict
        self.refresh_view()

    def on_unmount(self) -> None:
        super().on_unmount()
        if self._timer is not None:
            self._timer.stop()
