"""``studio run GAME.toml`` for TileCode projects: headless rounds from an input list.

    studio run MineRocks.toml --seed 7 --inputs "right right - A up+A" --rounds 40 --dump-every 10

Round 0 runs first with no buttons (§6.1); token *k* of ``--inputs`` is the button set of round
*k + 1*: a button (left, up, right, down, A), ``-`` or ``none`` for no button, several joined
with ``+``. ``--rounds K`` counts every round run, round 0 included (as in replay files).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from studio.storage import ProjectError, load_project

NO_BUTTON = ("-", "none", "")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The TileCode options of ``studio run``."""
    group = parser.add_argument_group("TileCode games")
    group.add_argument("--inputs", default="", metavar="TOKENS",
                       help="one token per round after round 0: a button (left up right down A),"
                            " '-' or 'none', or several joined with '+'")
    group.add_argument("--rounds", type=int, default=None, metavar="K",
                       help="rounds to run, round 0 included (default: 1 + number of tokens)")
    group.add_argument("--json", action="store_true",
                       help="print JSON: the final state, score and result")
    group.add_argument("--every", action="store_true",
                       help="with --json: one record per round")
    group.add_argument("--dump-every", type=int, default=None, metavar="N",
                       help="print the state dump every N rounds (and at the end)")


def parse_inputs(text: str) -> list[tuple[str, ...]]:
    """``"right - up+A"`` -> ``[("right",), (), ("up", "A")]``; raises ProjectError if bad."""
    from studio.engines.tilecode.model import BUTTONS

    rounds: list[tuple[str, ...]] = []
    for token in text.split():
        if token.lower() in NO_BUTTON:
            rounds.append(())
            continue
        buttons = []
        for part in token.split("+"):
            name = "A" if part in ("a", "A") else part.lower()
            if name not in BUTTONS:
                raise ProjectError(
                    f"bad input token {token!r}",
                    hint="use left, up, right, down, A, '-' or 'none'; join buttons with '+'",
                )
            if name not in buttons:
                buttons.append(name)
        rounds.append(tuple(buttons))
    return rounds


def state_json(state) -> dict[str, Any]:
    """A state as JSON: round, status, score, background rows, live sprites."""
    return {
        "round": state.round, "status": state.status, "score": state.score,
        "high_score": state.high_score,
        "background": ["".join(format(k, "x") for k in row) for row in state.background],
        "sprites": [list(s) for s in state.sprites],
    }


def run_tilecode(args: argparse.Namespace) -> int:
    """Run the rounds and print dumps or JSON; exit 0 (won, lost or stopped)."""
    from studio.engines.tilecode.engine import dump_state, load
    from studio.engines.tilecode.errors import TilecodeError
    from studio.storage.tilecode import play_errors, project_to_game

    project = load_project(args.project)
    game = project_to_game(project)
    errors = play_errors(game)
    if errors:
        raise ProjectError(str(errors[0]), file=Path(args.project),
                           hint=f"{len(errors)} error(s) block play; 'studio validate' lists them")
    inputs = parse_inputs(args.inputs or "")
    rounds = args.rounds if args.rounds is not None else len(inputs) + 1
    if rounds < 0:
        raise ProjectError("--rounds must be at least 0")
    seed = 0 if args.seed is None else args.seed
    try:
        engine = load(game)
        state = engine.initial_state(seed)
    except TilecodeError as exc:
        raise ProjectError(str(exc), file=Path(args.project)) from None
    every = args.dump_every
    if every is not None and every < 1:
        raise ProjectError("--dump-every must be at least 1")
    records: list[dict[str, Any]] = []
    dumped_round = None

    def dump() -> None:
        nonlocal dumped_round
        if not args.json:
            print(dump_state(state))
        dumped_round = state.round

    if every is not None:
        dump()
    for index in range(rounds):
        if state.status != "play":
            break
        buttons = () if index == 0 else (inputs[index - 1] if index - 1 < len(inputs) else ())
        state, _ = engine.step(state, buttons, record=False)
        if args.json and args.every:
            records.append({"buttons": list(buttons), **state_json(state)})
        if every is not None and state.round % every == 0:
            dump()
    result = state.status if state.status != "play" else "stopped"
    if args.json:
        out: dict[str, Any] = {
            "game": game.name, "seed": seed, "rounds": state.round, "result": result,
            "score": state.score, "high_score": state.high_score, "final": state_json(state),
        }
        if args.every:
            out["every"] = records
        print(json.dumps(out, ensure_ascii=False))
        return 0
    if dumped_round != state.round:
        print(dump_state(state))
    print(f"result {result} rounds {state.round} score {state.score} high {state.high_score}")
    return 0
