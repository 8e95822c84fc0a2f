"""``studio run GAME.toml`` for TileCode projects: headless rounds from an input list.

    studio run MineRocks.toml --seed 7 --inputs "right right - A up+A" --rounds 40 --dump-every 10

Round 0 runs first with no buttons (§6.1); token *k* of ``--inputs`` is the button set of round
*k + 1*: a button (left, up, right, down, A), ``-`` or ``none`` for no button, several joined
with ``+``. ``--rounds K`` counts every round run, round 0 included (as in replay files).

``--inputs`` may instead name a replay file (§4.4): its seed, inputs and rounds are used unless
``--seed`` / ``--rounds`` say otherwise, and the result is checked against the recording
(exit 1 on a mismatch). ``--save-replay FILE`` records the run. The rounds are run by the play
screen's own :class:`~studio.engines.tilecode.session.PlaySession`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from studio.storage import ProjectError, load_project
from studio.storage.tilecode.check import blocking_play

NO_BUTTON = ("-", "none", "")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The TileCode options of ``studio run``."""
    group = parser.add_argument_group("TileCode games")
    group.add_argument("--inputs", default="", metavar="TOKENS|FILE",
                       help="one token per round after round 0: a button (left up right down A),"
                            " '-' or 'none', or several joined with '+'; or a replay file"
                            " (NAME.tcreplay.toml): its seed, inputs and rounds, then the"
                            " result is verified")
    group.add_argument("--rounds", type=int, default=None, metavar="K",
                       help="rounds to run, round 0 included (default: 1 + number of tokens,"
                            " or the replay's)")
    group.add_argument("--save-replay", default=None, metavar="FILE",
                       help="write the run as a replay file (NAME.tcreplay.toml)")
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


def replay_argument(text: str) -> Path | None:
    """The replay file ``--inputs`` names, or None when it holds button tokens.

    A replay is meant when the text names an existing file or ends with ``.tcreplay.toml``
    (then a missing file is an error rather than a bad token).
    """
    from studio.storage.tilecode.replay import is_replay_name

    if not text.strip():
        return None
    if is_replay_name(text):
        return Path(text)
    try:
        return Path(text) if Path(text).is_file() else None
    except (OSError, ValueError):  # token strings can be too long or odd for a path
        return None


def run_tilecode(args: argparse.Namespace) -> int:
    """Run the rounds and print dumps or JSON.

    Returns:
        0 when the run finished (won, lost or stopped); 1 when a replay given to ``--inputs``
        did not reproduce its recorded result, score and rounds.

    Raises:
        ProjectError: a bad project, replay file, option or input token.
    """
    from studio.engines.tilecode.engine import dump_state
    from studio.engines.tilecode.errors import TilecodeError
    from studio.engines.tilecode.replay import Replay, Verdict, verify_outcome
    from studio.engines.tilecode.session import PlaySession, result_of
    from studio.storage.tilecode.kind import play_errors, project_to_game
    from studio.storage.tilecode.replay import (
        load_replay,
        project_changed,
        project_sha256,
        save_replay,
    )

    project = load_project(args.project)
    game = project_to_game(project)
    errors = play_errors(game)
    if errors:
        raise ProjectError(str(errors[0]), file=Path(args.project),
                           hint=f"{blocking_play(len(errors))}; 'studio validate' lists them")
    replay_file = replay_argument(args.inputs or "")
    replay: Replay | None = None
    if replay_file is not None:
        replay = load_replay(replay_file)
        inputs = replay.input_list()[1:]
        if project_changed(replay, project):
            print(f"studio: warning: {args.project} changed since {replay_file} was recorded "
                  "(project_sha256 differs); the replay may not reproduce", file=sys.stderr)
    else:
        inputs = parse_inputs(args.inputs or "")
    if args.rounds is not None:
        rounds = args.rounds
    else:
        rounds = replay.rounds if replay is not None else len(inputs) + 1
    if rounds < 0:
        raise ProjectError("--rounds must be at least 0")
    if args.seed is not None:
        seed = args.seed
    elif replay is not None:
        seed = replay.seed
    else:
        seed = game.seed if game.seed is not None else 0
    every = args.dump_every
    if every is not None and every < 1:
        raise ProjectError("--dump-every must be at least 1")
    try:
        # The play screen's own session: round 0 runs at once, buttons are pressed, rounds
        # stepped; only the clock differs.
        session = PlaySession(game, seed, record=False)
    except TilecodeError as exc:
        raise ProjectError(str(exc), file=Path(args.project)) from None

    records: list[dict[str, Any]] = []
    dumped_round = None
    state = session.previous  # before round 0: what --rounds 0 ends with

    def show(buttons: tuple[str, ...] | None) -> None:
        nonlocal dumped_round
        if buttons is not None and args.json and args.every:
            records.append({"buttons": list(buttons), **state_json(state)})
        if every is not None and (buttons is None or state.round % every == 0):
            if not args.json:
                print(dump_state(state))
            dumped_round = state.round

    show(None)
    if rounds >= 1:
        state = session.state
        show(())
        for index in range(1, rounds):
            if session.over:
                break
            for button in inputs[index - 1] if index - 1 < len(inputs) else ():
                session.press(button)
            session.step()
            state = session.state
            show(session.inputs[-1])
    result = result_of(state)

    verdict: Verdict | None = None
    if replay is not None:
        if (seed, rounds) == (replay.seed, replay.rounds):
            verdict = verify_outcome(replay, result, state.score, state.round)
        else:
            print("studio: replay not verified: --seed or --rounds differ from the recording",
                  file=sys.stderr)
    if args.save_replay:
        name = Path(args.project).name
        if rounds >= 1:
            recording = session.replay(name, project_sha256(project))
        else:
            recording = Replay.from_rounds(name, project_sha256(project), seed, [], result,
                                           state.score)
        path = save_replay(recording, args.save_replay)
        print(f"studio: replay saved to {path}", file=sys.stderr)

    if args.json:
        out: dict[str, Any] = {
            "game": game.name, "seed": seed, "rounds": state.round, "result": result,
            "score": state.score, "high_score": state.high_score, "final": state_json(state),
        }
        if args.every:
            out["every"] = records
        if verdict is not None:
            out["replay"] = {"file": str(replay_file), "verified": verdict.ok,
                             "message": verdict.message}
            if not verdict.ok:
                print(f"studio: {verdict.message}", file=sys.stderr)
        print(json.dumps(out, ensure_ascii=False))
    else:
        if dumped_round != state.round:
            print(dump_state(state))
        print(f"result {result} rounds {state.round} score {state.score} high {state.high_score}")
        if verdict is not None:
            print(verdict.message)
    return 1 if verdict is not None and not verdict.ok else 0
