"""The solver's progress reports (by count and by time) and cancelling it from another thread."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path

from studio.commands.btree.formats import load_compiled
from studio.engines.btree.runtime.engine import Engine, Program
from studio.engines.btree.play.session import PlaySession
from studio.engines.btree.search.solver import solve

GAMES = Path(__file__).resolve().parents[2] / "games"
SOKOBAN_LINE = [0, 2, 2, 0, 2, 2, 1, 0, 0, 0, 0, 2, 2, 0, 2, 3, 0, 0, 0, 3, 0, 0, 0, 2, 3, 1, 1, 2, 3]
EIGHT_LINE = [0, 2, 1, 1, 1, 1, 1, 2]


def engine(name: str) -> Engine:
    return Engine(Program(load_compiled(GAMES / f"{name}.toml")))


def test_progress_at_least_every_thousand_states_and_the_shortest_line_still_found() -> None:
    reports: list[tuple[int, int]] = []
    sokoban = engine("sokoban")
    before = sokoban.key()
    found = solve(sokoban, progress=lambda states, depth: reports.append((states, depth)),
                  cancel=threading.Event(), interval=3600)
    assert found.found and found.choices == SOKOBAN_LINE and not found.cancelled
    assert sokoban.key() == before
    assert reports[0] == (0, 0)  # at once, before the first state
    counts = [states for states, _ in reports]
    assert len(reports) >= found.states // 1000
    assert all(0 < later - earlier <= 1000 for earlier, later in itertools.pairwise(counts))
    assert found.states - counts[-1] <= 1000
    depths = [depth for _, depth in reports]
    assert depths == sorted(depths) and depths[-1] <= found.depth <= len(SOKOBAN_LINE)
    assert found.elapsed > 0 and found.rate == found.states / found.elapsed


def test_eight_puzzle_shortest_line() -> None:
    found = solve(engine("eight-puzzle"), progress=lambda s, d: None, cancel=lambda: False)
    assert found.found and found.choices == EIGHT_LINE
    assert found.result == {"result": "win", "player": "solver"}


def test_progress_on_a_time_basis_for_a_slow_game() -> None:
    ticks = itertools.count()
    reports: list[int] = []
    # a fake clock that moves one second per reading: every edge is "slow"
    found = solve(engine("eight-puzzle"), progress=lambda states, depth: reports.append(states),
                  interval=0.5, clock=lambda: float(next(ticks)))
    assert found.found and found.states < 1000
    assert len(reports) >= found.states  # far more often than every 1,000 states
    quiet: list[int] = []
    solve(engine("eight-puzzle"), progress=lambda states, depth: quiet.append(states), interval=3600,
          clock=lambda: 0.0)
    assert quiet == [0]  # only the opening report: fewer than 1,000 states and no time passing


def test_cancel_from_another_thread_stops_within_a_bounded_time() -> None:
    board = engine("peg-solitaire")  # millions of states: the search cannot finish on its own
    before = board.key()
    cancel = threading.Event()
    started = threading.Event()
    out = {}

    def reported(states: int, depth: int) -> None:
        if states > 1:  # under way (a fixed sleep raced the thread's start on a loaded machine)
            started.set()

    def work() -> None:
        out["result"] = solve(board, max_states=10**8, progress=reported, cancel=cancel,
                              interval=0.01)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    assert started.wait(30)
    cancel.set()
    asked = time.monotonic()
    thread.join(10)
    assert not thread.is_alive() and time.monotonic() - asked < 5
    result = out["result"]
    assert result.cancelled and not result.found and not result.exhausted and result.states > 1
    assert board.key() == before


def test_cancel_callable_and_cancel_before_starting() -> None:
    calls = itertools.count()
    # checked between chunks of work (each about a quarter of the progress interval), not per edge
    result = solve(engine("peg-solitaire"), max_states=10**8, cancel=lambda: next(calls) >= 50,
                   interval=0.01)
    assert result.cancelled and not result.exhausted and 1 < result.states
    assert next(calls) == 51
    early = threading.Event()
    early.set()
    result = solve(engine("sokoban"), cancel=early)
    assert result.cancelled and result.states == 0


def test_session_solver_job_runs_in_a_worker_and_can_be_cancelled() -> None:
    session = PlaySession(load_compiled(GAMES / "peg-solitaire.toml"), 0)
    session.advance()
    job = session.solver_job(max_states=10**8)
    cancel = threading.Event()
    thread = threading.Thread(target=job.run, kwargs={"cancel": cancel}, daemon=True)
    thread.start()
    time.sleep(0.3)
    session.choose(3)  # the screen may go on playing while the worker searches its own copy
    cancel.set()
    thread.join(10)
    assert not thread.is_alive() and job.result is not None and job.result.cancelled
    assert session.adopt_solution(job) is None and session.solution is None
    assert session.choices_made == [3]


def test_solver_job_defaults_to_the_solver_seat_player() -> None:
    session = PlaySession(load_compiled(GAMES / "tic-tac-toe.toml"), 0, {"O": "solver"})
    assert session.solver_job().player == "O"
    assert PlaySession(load_compiled(GAMES / "tic-tac-toe.toml"), 0).solver_job().player is None
    assert session.solver_job(player="X").player == "X"


def test_a_session_job_searches_by_the_method_asked_for() -> None:
    session = PlaySession(load_compiled(GAMES / "peg-solitaire.toml"), 0)
    session.advance()
    tiny = session.solver_job(max_states=10**8, strategy="best", max_memory=1)
    assert tiny.run().reason == "memory"  # the limit reaches the search
    job = session.solver_job(max_states=10**6, strategy="best")
    found = job.run()
    assert (found.strategy, found.found, found.shortest) == ("best", True, False)
    assert session.adopt_solution(job).line == tuple(found.choices)
    sokoban = PlaySession(load_compiled(GAMES / "sokoban.toml"), 0)
    sokoban.advance()
    weighted = sokoban.solver_job(strategy="astar", weight=3).run()
    assert (weighted.strategy, weighted.found, weighted.shortest) == ("astar", True, False)
