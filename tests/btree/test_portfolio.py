"""The solver's portfolio (issue 32): strategies side by side, the shortest line any finds, and
whether it is proven shortest; and ``studio solve`` with no strategy chosen."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from studio import cli
from studio.engines.btree.runtime.engine import Engine
from studio.engines.btree.search.portfolio import MEMBERS, Member, _better, solve_portfolio
from studio.engines.btree.search.solver import SolveResult, solve
from tests.btree.test_solver import corridor

GAMES = Path(__file__).resolve().parents[2] / "games"


def sokoban() -> Engine:
    from studio.storage.btree.trrbt import load_compiled

    return Engine(load_compiled(GAMES / "sokoban.toml"))


def test_breadth_first_s_line_is_kept_and_called_shortest() -> None:
    engine = sokoban()
    before = engine.key()
    lines = []
    found = solve_portfolio(engine, on_line=lines.append, max_seconds=None)  # a cold kernel compiles
    assert found.proven and found.reason == "proven" and found.found_by == "breadth first"
    assert found.best.found and len(found.best.choices) == 29
    assert engine.key() == before
    # every report is an improvement: shorter, or as short and now proven
    assert [line.moves for line in lines] == sorted(line.moves for line in lines)[::-1]
    assert lines[-1].proven and lines[-1].moves == 29


def test_a_line_of_a_greedy_member_alone_is_not_called_shortest() -> None:
    found = solve_portfolio(sokoban(), members=(Member("best"),), max_seconds=None)
    assert found.best.found and not found.proven and found.reason == "ended"
    assert found.found_by == "best first" and found.found_after is not None
    single = solve(sokoban(), strategy="best", max_states=10**9)
    assert found.best.choices == single.choices  # a member searches as the strategy alone does


def test_a_proof_that_there_is_no_line_stops_everything() -> None:
    found = solve_portfolio(Engine(corridor(5, goal=False)), max_seconds=None)
    assert not found.best.found and found.none_exists and found.reason == "none"
    assert found.best.exhausted


def test_a_cancel_stops_every_member_and_says_so() -> None:
    stop = threading.Event()
    stop.set()
    found = solve_portfolio(sokoban(), cancel=stop)
    assert found.reason == "cancelled" and not found.best.found
    assert all(out.reason == "cancelled" for _, out in found.members)


def test_the_time_limit_holds_for_every_member() -> None:
    found = solve_portfolio(sokoban(), max_seconds=0.0)
    assert all(out.reason in ("time", "found") for _, out in found.members)
    assert found.reason in ("time", "proven")


def test_a_member_with_a_share_of_the_time_leaves_the_rest_to_the_others() -> None:
    members = (Member("bfs", share=0.0), Member("best"))
    found = solve_portfolio(sokoban(), members=members, max_seconds=600)
    (_, alone), (_, greedy) = found.members
    assert alone.reason == "time" and alone.elapsed < 60  # its share: none of the 600 s
    assert greedy.found and found.found_by == "best first"


def test_the_default_members_leave_breadth_first_a_quarter_and_take_macro_moves_greedily() -> None:
    assert [m.name for m in MEMBERS] == ["breadth first", "A* weight 3", "best first (macro moves)"]
    assert MEMBERS[0].share == 0.25 and all(m.share == 1.0 for m in MEMBERS[1:])


def test_a_member_that_fails_raises_on_the_caller_s_thread() -> None:
    with pytest.raises(ValueError, match="unknown strategy"):
        solve_portfolio(Engine(corridor(3)), members=(Member("bfs"), Member("nope")))


def test_same_length_a_proven_line_replaces_an_unproven_one() -> None:
    greedy = SolveResult(found=True, choices=[0, 1], strategy="best")
    proof = SolveResult(found=True, choices=[1, 0], strategy="bfs")
    longer = SolveResult(found=True, choices=[0, 0, 0], strategy="bfs")
    assert _better(proof, greedy) and not _better(greedy, proof)
    assert not _better(longer, greedy) and _better(greedy, longer)


def test_cli_solve_runs_the_portfolio_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    # the time limit is raised: on a fresh clone the first search may compile kernels under load
    slow = ["--max-seconds", "900"]
    assert cli.main(["solve", str(GAMES / "sokoban.toml"), "--json", *slow]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["found"] and data["shortest"] and data["found_by"] == "breadth first"
    assert len(data["moves"]) == 29 and data["ended"] == "proven"
    assert [m["name"] for m in data["members"]] == ["breadth first", "A* weight 3", "best first (macro moves)"]
    assert cli.main(["solve", str(GAMES / "sokoban.toml"), *slow]) == 0
    captured = capsys.readouterr()
    assert "a shortest line" in captured.out and "Found by breadth first" in captured.out
    assert "found a 29-move line, the shortest (breadth first" in captured.err
    names = [member.name + ":" for member in MEMBERS]
    reports = [line for line in captured.out.splitlines() if line.startswith(tuple(names))]
    starts = {len(line) - len(line.split(":", 1)[1].lstrip()) for line in reports}
    assert len(reports) == 3 and len(starts) == 1  # one column, whatever the names' lengths
    assert min(starts) > max(len(name) for name in names)  # and a space after each


def test_cli_solve_says_when_the_line_is_not_known_to_be_shortest(capsys: pytest.CaptureFixture[str]) -> None:
    # 5,000 states each: breadth first needs some 11,000 for its 29 moves; best first finds 33
    assert cli.main(["solve", str(GAMES / "sokoban.toml"), "--max-states", "5000", "--max-seconds", "900"]) == 0
    captured = capsys.readouterr()
    assert "Solved in 33 moves" in captured.out and "not known to be shortest" in captured.out
    assert "Found by best first" in captured.out
    assert "found a 33-move line (best first" in captured.err and "ctrl+c keeps this one" in captured.err
