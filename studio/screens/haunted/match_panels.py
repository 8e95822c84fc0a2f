"""The text panels beside a Haunted Tiles board, shared by the match view and the replay viewer:
the scoreboard (§13.3: round k of N, the tally, per team living monsters, hits on tiles, answer
time) and the turn panel (this turn's moves per monster, warnings, failures)."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text

from studio.engines.haunted.match import MatchConfig
from studio.engines.haunted.rules import RoundState
from studio.screens.formatting import inert, pad_text, text_width
from studio.widgets.canvas import UIStyles

ARROWS = {"north": "↑", "south": "↓", "east": "→", "west": "←", "none": "●", None: "·"}
"""A move as the turn panel shows it (● a jump on the spot, · a dead monster)."""


def round_title(index: int, config: MatchConfig, extra: bool, coin: bool) -> str:
    if index == 0:
        return "waiting for round 1"
    if index > config.rounds:
        return f"Round {index} of {config.rounds} · extra round"
    title = f"Round {index} of {config.rounds}"
    return title + (" · coin toss" if coin else "")


def scoreboard(names: tuple[str, str], home: str, config: MatchConfig, round_index: int,
               state: RoundState | None, wins: dict[str, int], ties: int,
               record: dict[str, Any] | None, looks: dict[str, Style], styles: UIStyles,
               coin: bool = False, width: int = 46) -> list[Text]:
    """Lines of the scoreboard: the round (and the tied rounds), a column header, then a line a
    team, team A first, with the rounds it won beside its name. Names take the room the
    panel's ``width`` leaves (16 columns where there is room; a wide panel showed "Cautious
    Creepe…"; a narrow one keeps its figures and cuts the names)."""
    title = round_title(round_index, config, round_index > config.rounds, coin)
    room = max(16, min(width - 2 - 25, max(text_width(inert(name)) for name in names)))
    room = min(room, max(4, width - 2 - 25))  # a narrow panel (60 columns) cuts names first
    lines = [Text(title + (f" · {ties} tied" if ties else ""), style=styles.accent),
             Text(f"{'':{room + 2}} {'won':>3} {'alive':>5} {'hits':>6} {'answer':>7}",
                  style=styles.muted)]
    for team, name in zip("AB", names):
        side = "home" if team == home else "away"
        living = broken = "-"
        if state is not None:
            living = str(sum(state.living(side)))
            broken = str(state.broken[0 if side == "home" else 1])
        ms = (record or {}).get(side, {}).get("ms")
        answer = f"{ms:.0f} ms" if isinstance(ms, (int, float)) else "-"
        line = Text()
        line.append("H " if side == "home" else "A ", looks.get(side, styles.text))
        # Cut to the column ("Cautious Creeper" read as whole) as it shows: escapes and all.
        line.append(pad_text(inert(name), room), styles.text)
        line.append(f" {wins[team]:>3}", styles.text)
        line.append(f" {living:>5} {broken:>6} {answer:>7}", styles.muted)
        lines.append(line)
    return lines


def turn_panel(record: dict[str, Any] | None, state: RoundState | None,
               looks: dict[str, Style], styles: UIStyles) -> list[Text]:
    """This turn's moves per monster, then warnings and failures."""
    if record is None:  # as tall as a turn's lines: a round's start moves nothing below
        return [Text("no turn played yet", style=styles.muted), Text(""), Text("")]
    lines = [Text(f"turn {record.get('turn', '?')}", style=styles.accent)]
    # A failure ends the round before the turn is made: the other side's answer was not played.
    failed = any((record.get(side) or {}).get("moves") is None for side in ("home", "away"))
    for side, letter in (("home", "H"), ("away", "A")):
        answer = record.get(side) or {}
        line = Text()
        moves = answer.get("moves")
        if moves is None:
            line.append(f"{side}: ", looks.get(side, styles.text))
            error = [x for x in str(answer.get("error", "")).splitlines() if x.strip()]
            line.append(f"{answer.get('failure', 'no answer')}: {error[-1].strip() if error else ''}",
                        styles.error)
        else:
            for k, move in enumerate(moves):
                line.append(f"{letter}{k}", looks.get(side, styles.text))
                line.append(f" {ARROWS.get(move, '?')}  ", styles.text)
            if failed:
                line.append("(answered, not played)", styles.muted)
        lines.append(line)
        for warning in answer.get("warnings", []):
            lines.append(Text(f"! {warning}", style=styles.warning))
    return lines  # whole: the panel folds them to its width (why an AI failed must be read)
