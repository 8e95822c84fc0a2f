"""The breadth-first solver: shortest wins, reachable sets equal to the reference's (T3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio import cli
from studio.engines.btree.runtime.engine import Engine
from studio.engines.btree.search.solver import StateLimit, enumerate_reachable, solve
from tests.btree.corpus import BTREE, load_json, normalise, read_jsonl
from tests.btree.trees import node, pat, set_board

GAMES = Path(__file__).resolve().parents[2] / "games"


def corridor(length: int = 4, goal: bool = True) -> dict:
    """A hero in a corridor who can step right or left; wins on reaching the right end."""
    moves = node(
        "player",
        node("rewrite", lhs=pat("P _"), rhs=pat("_ P"), button="right", desc="right"),
        node("rewrite", lhs=pat("_ P"), rhs=pat("P _"), button="left", desc="left"),
        pid="hero",
    )
    end = " ".join(["_"] * (length - 1) + ["P"])
    win = node("win", node("match", pattern=pat(end if goal else "Q")), pid="hero")
    start = " ".join(["P"] + ["_"] * (length - 1))
    return {"name": "corridor", "tree": node("order", set_board(start), node("loop-until-all", moves, win))}


def test_shortest_win_and_engine_left_unchanged() -> None:
    engine = Engine(corridor(5))
    before = engine.key()
    found = solve(engine)
    assert found.found and found.result == {"result": "win", "player": "hero"}
    assert len(found.choices) == 4
    assert engine.key() == before
    engine.run_to_choice()
    for index in found.choices:
        assert engine.choices[index].desc == "right"
        engine.choose(index)
        engine.run_to_choice()
    assert engine.result == found.result


def test_no_win_is_exhaustive_and_limits_are_reported() -> None:
    found = solve(Engine(corridor(5, goal=False)))
    # 5 positions, and the start position twice: before any move the loop has not yet seen a
    # true child, which is part of the state (its locals)
    assert not found.found and found.exhausted and found.states == 6
    limited = solve(Engine(corridor(9)), max_states=3)
    assert not limited.found and not limited.exhausted and limited.states == 3


def test_win_of_another_player_does_not_count() -> None:
    assert solve(Engine(corridor(3)), player="villain").found is False
    assert solve(Engine(corridor(3)), player="hero").found is True


def test_enumeration_depths_and_limit() -> None:
    reached = list(enumerate_reachable(Engine(corridor(4))))
    assert [r.depth for r in reached] == [0, 1, 2, 3]
    assert reached[-1].result == {"result": "win", "player": "hero"}
    assert reached[0].board == {"main": [["P", "_", "_", "_"]]}
    with pytest.raises(StateLimit):
        list(enumerate_reachable(Engine(corridor(9)), max_states=4))


def _canonical(board: dict | None, result: dict | None) -> str:
    value = {"board": board, "result": normalise(result) if result else None}
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


REACHABLE = sorted(p.name for p in (BTREE / "reachable").glob("*.jsonl")) if BTREE.exists() else []


@pytest.mark.parametrize("name", REACHABLE or ["(corpus absent)"])
def test_reachable_sets_equal_the_reference(name: str) -> None:
    lines = read_jsonl(BTREE / "reachable" / name) if REACHABLE else []
    if not lines:
        pytest.skip("needs ../shared/corpus/btree/reachable (test data beside the checkout), absent here")
    header, expected = lines[0], lines[1:]
    engine = Engine(load_json(header["expanded"]))
    engine.seed(0)
    ours = {_canonical(r.board, r.result): r.depth for r in enumerate_reachable(engine)}
    theirs = {_canonical(line["board"], line["result"]): line["depth"] for line in expected}
    assert len(ours) == header["count"]
    assert ours == theirs


def test_cli_solve_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["solve", str(GAMES / "sokoban.toml"), "--json", "--strategy", "bfs"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["found"] and data["result"] == {"result": "win", "player": "keeper"}
    assert len(data["moves"]) == 29 and data["moves"][0]["choice"].startswith("walk")
    assert cli.main(["solve", str(GAMES / "tic-tac-toe.toml"), "--max-states", "10", "--strategy", "bfs"]) == 0
    out = capsys.readouterr().out
    assert "No winning line found within 10 states" in out and "--strategy astar" in out


def test_cli_solve_refuses_to_print_a_line_that_does_not_replay_to_its_result(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.engines.btree.search import solver
    from studio.engines.btree.search.solver import SolveResult

    wrong = SolveResult(found=True, choices=[0], result={"result": "win", "player": "keeper"},
                        reason="found")
    from studio.engines.btree.search import portfolio

    # the command's import, and the portfolio's (the default): every member returns the bad line
    monkeypatch.setattr(solver, "solve", lambda engine, *args, **options: wrong)
    monkeypatch.setattr(portfolio, "solve", lambda engine, *args, **options: wrong)
    for strategy in ("bfs", "auto"):
        assert cli.main(["solve", str(GAMES / "sokoban.toml"), "--strategy", strategy]) != 0
        captured = capsys.readouterr()
        assert "when replayed" in captured.err and "Game not over" in captured.err
        assert "Solved" not in captured.out
