"""The step-mode debugger (§11.4): steps, actions, choices, their undos, breakpoints, the stack."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.commands.btree.formats import load_compiled
from studio.engines.btree.runtime.debugger import Debugger
from studio.engines.btree.runtime.engine import STEP_LIMIT, Engine, Program
from studio.engines.btree.runtime.nodes import TILE_TYPES
from studio.engines.btree.play.session import ChoiceWait, PlaySession
from studio.engines.btree.runtime.trace import run_trace
from tests.btree.trees import game, node, pat, set_board

GAMES = Path(__file__).resolve().parents[2] / "games"
SOKO_LEVEL_CHECK = "tree/children[1]/children[1]/children[0]/children[1]"  # match-times: boxes left
SOKO_LEVEL_ALL = "tree/children[1]/children[1]/children[0]"  # all: level 1 token and no box left
TTT_LINE = "tree/children[1]/children[0]/children[1]/children[0]/children[0]/children[0]"  # three in a row
TTT_LINK = "tree/children[1]/children[1]"  # O's turn: a link to X's turn with X and O swapped


def program(name: str) -> Program:
    return Program(load_compiled(GAMES / f"{name}.toml"))


def sokoban() -> tuple[Engine, Debugger]:
    engine = Engine(program("sokoban"))
    engine.seed(0)
    return engine, Debugger(engine)


def test_single_steps_and_their_undo() -> None:
    engine, debug = sokoban()
    assert debug.undo_step() == 0  # nothing yet
    start = engine.key()
    first = debug.step()
    assert first.node == 0 and not first.counted and engine.path() == [0]
    keys = [start, engine.key()]
    for _ in range(3):
        event = debug.step()
        assert event.counted
        keys.append(engine.key())
    assert debug.step_count == 3 and debug.steps_left == STEP_LIMIT - 4
    assert [frame.id for frame in debug.stack()] == engine.path()
    for expected in reversed(keys[:-1]):
        assert debug.undo_step() == 1 and engine.key() == expected
    assert debug.undo_step() == 0 and engine.key() == start


def test_next_action_stops_when_a_tile_node_returns_and_undo_action_goes_back() -> None:
    engine, debug = sokoban()
    before = engine.key()
    events = debug.next_action()
    assert events[-1].type == "set-board" and events[-1].returned is True
    assert all(e.type not in TILE_TYPES or e.returned is None for e in events[:-1])
    after = engine.key()
    debug.step()
    debug.step()  # into the loop, mid-action
    assert debug.undo_action() == 2 and engine.key() == after  # back to the last boundary
    assert debug.undo_action() == len(events) and engine.key() == before
    debug.next_choice()
    debug.choose(0)
    events = debug.next_action()  # the player returning is not an action: a tile node is
    assert events[0].type == "player" and events[0].returned is True
    assert len(events) > 2 and events[-1].type in TILE_TYPES and events[-1].returned is not None


def test_next_choice_reaches_the_wait_studio_trace_sees() -> None:
    engine, debug = sokoban()
    events = debug.next_choice()
    assert engine.waiting == "choice" and events[-1].wait == "choice" and events[-1].type == "player"
    first_wait = next(line for line in run_trace(program("sokoban"), engine_seed=0) if line["type"] == "choice")
    assert debug.step_count == first_wait["loop_check"] == len([e for e in events if e.counted])
    assert engine.board_dict() == first_wait["board"]
    assert debug.next_choice() == [] and debug.step().node is None  # halted at the wait
    at_wait = engine.key()
    debug.choose(0)
    debug.next_choice()
    assert engine.waiting == "choice" and engine.key() != at_wait
    steps = debug.undo_choice()
    assert steps > 1 and engine.key() == at_wait and engine.waiting == "choice"
    assert debug.undo_choice() == len(events) and engine.path() == []  # the start: the oldest kept


def test_history_is_bounded_and_undo_falls_back_to_the_oldest_state() -> None:
    engine = Engine(program("sokoban"))
    debug = Debugger(engine, history=5)
    keys = [engine.key()]
    for _ in range(8):  # six steps up to the first choice wait, then two that do nothing
        debug.step()
        keys.append(engine.key())
    assert engine.waiting == "choice" and debug.history_size == 5
    assert debug.undo_choice() == 5 and engine.key() == keys[1]  # no wait kept: the oldest state
    assert debug.undo_step() == 0


def test_display_clear_is_a_step_to_undo_and_the_rng_state_is_shown() -> None:
    engine = Engine(program("connect-four"))
    engine.seed(42)
    debug = Debugger(engine)
    assert debug.rng_state == engine.rng.state != 0
    debug.next_choice()
    debug.choose(3)
    debug.next_choice()
    assert engine.waiting == "display"
    waiting = engine.key()
    with pytest.raises(ValueError):
        debug.choose(0)
    debug.clear_display()
    assert engine.waiting is None and debug.step_count == 0
    assert debug.undo_step() == 1 and engine.key() == waiting


def test_breakpoint_stops_before_the_compiled_node_of_the_authored_path() -> None:
    engine, debug = sokoban()
    assert debug.toggle_breakpoint(SOKO_LEVEL_CHECK)
    first = debug.run()
    assert first.reason == "wait" and engine.waiting == "choice"  # the first move comes before it
    debug.choose(0)
    stop = debug.run()
    assert stop.reason == "breakpoint" and stop.node == engine.path()[-1] == 15
    assert engine.nodes[15].type == "match-times"
    assert debug.at_breakpoint() and debug.stack()[-1].origin == ("", SOKO_LEVEL_CHECK)
    assert debug.step().node == 15  # it had not been called yet
    assert debug.run().reason == "wait"  # once past it, on to the next choice
    assert not debug.toggle_breakpoint(("", SOKO_LEVEL_CHECK)) and debug.breakpoints == set()
    debug.choose(0)
    assert debug.run().reason == "wait"


def test_breakpoint_on_a_control_node_stops_when_it_is_entered_not_when_resumed() -> None:
    engine, debug = sokoban()
    debug.toggle_breakpoint(SOKO_LEVEL_ALL)
    debug.run()
    debug.choose(0)
    stop = debug.run()
    assert stop.reason == "breakpoint" and stop.node == 13 and engine.nodes[13].type == "all"
    assert debug.run().reason == "wait"  # 13 calls its children and is resumed, but not entered again
    debug.choose(0)
    assert debug.run().node == 13


def test_breakpoint_on_a_transformed_node_and_stack_origins_through_a_link() -> None:
    engine = Engine(program("tic-tac-toe"))
    debug = Debugger(engine)
    debug.toggle_breakpoint(TTT_LINE)
    debug.run()
    debug.choose(4)
    stops = []
    while (stop := debug.run()).reason == "breakpoint":
        stops.append(stop.node)
    compiled = engine.program.compiled
    copies = [i for i, ref in enumerate(compiled.origin) if ref == ("", TTT_LINE)]
    assert stops and stops[0] == copies[0] and set(stops) <= set(copies)
    assert engine.waiting == "choice" and engine.choice_player == "O"
    frames = debug.stack()
    player = frames[-1]
    assert player.type == "player" and ("", TTT_LINK) in player.via  # O's turn comes via the link
    assert player.origin == ("", "tree/children[1]/children[0]/children[0]")  # X's authored player
    assert [f.origin for f in frames] == [engine.origin(f.id) for f in frames]
    debug.choose(0)
    stop = debug.run()
    assert stop.reason == "breakpoint" and ("", TTT_LINK) in debug.stack()[-1].via


def test_stack_shows_desc_and_authored_comments() -> None:
    _, debug = sokoban()
    debug.step()
    root = debug.stack()[0]
    assert root.id == 0 and root.type == "order" and root.origin == ("", "tree")
    assert root.comment and root.label == root.comment and root.via == ()
    flip = node("rewrite", lhs=pat("A"), rhs=pat("B"), desc="flip")
    plain = Debugger(Engine(game(node("order", set_board("A"), flip))))  # no authored map: no origin
    plain.step()
    assert plain.stack()[0].origin is None and plain.stack()[0].label == ""
    plain.next_action()
    plain.step()  # the order pushes the rewrite
    top = plain.stack()[-1]
    assert top.type == "rewrite" and top.desc == top.label == "flip" and top.comment is None


def test_budget_runs_out_at_the_step_limit() -> None:
    endless = game(node("order", set_board("A"), node("loop-times", node("match", pattern=pat("A")), times=0)))
    debug = Debugger(Engine(endless), history=3)
    stop = debug.run()
    assert stop.reason == "end" and debug.engine.result == {"result": "stepout"}
    assert debug.step_count == STEP_LIMIT and debug.steps_left == 0 and debug.history_size == 3


def test_session_follows_the_debugger_across_a_choice() -> None:
    session = PlaySession(program("sokoban"), 0)
    debug = Debugger(session.engine, session)
    debug.next_choice()
    debug.choose(1)
    assert session.choices_made == [1]
    debug.next_choice()
    debug.undo_choice()
    assert session.choices_made == [] and session.engine.waiting == "choice"
    assert session.redo() and session.choices_made == [1]
    assert isinstance(session.advance(), ChoiceWait) and session.undo() and session.choices_made == []
