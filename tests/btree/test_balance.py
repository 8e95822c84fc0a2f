"""`studio balance` (issue 32): the computer against itself, each seat's record with Wilson
intervals, on Tic-tac-toe with a small playout budget (the same report on any machine)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio import cli
from studio.commands.btree.formats import load_compiled
from studio.engines.btree.play.balance import balance, player_pids, wilson
from studio.engines.btree.runtime.engine import Program

GAMES = Path(__file__).resolve().parents[2] / "games"


def test_wilson_intervals() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(5, 10)
    assert (low, high) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    low, high = wilson(20, 20)
    assert high == 1.0 and low == pytest.approx(0.8389, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_balance_of_tic_tac_toe_is_reproducible() -> None:
    prog = Program(load_compiled(GAMES / "tic-tac-toe.toml"))
    assert player_pids(prog) == ["X", "O"]
    seen = []
    report = balance(prog, 4, seconds=None, playouts=300, progress=lambda n, _r: seen.append(n))
    again = balance(prog, 4, seconds=None, playouts=300)
    assert seen == [1, 2, 3, 4]
    assert report.lengths == again.lengths and report.results == again.results
    assert report.games == 4 and set(report.seats) == {"X", "O"}
    x, o = report.seats["X"], report.seats["O"]
    assert x.first == 4 and o.first == 0  # the tree lets X start
    assert x.games == o.games == 4 and x.wins == o.losses and x.draws == o.draws
    assert all(5 <= n <= 9 for n in report.lengths)
    rate, low, high = x.rate("draw")
    assert low <= rate <= high


def test_studio_balance_prints_and_writes_json(capsys: pytest.CaptureFixture[str]) -> None:
    game = str(GAMES / "tic-tac-toe.toml")
    assert cli.main(["balance", game, "--games", "2", "--playouts", "200", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Tic-tac-toe: 2 games, the computer on every seat (200 playouts a move, seeds 0–1)" in out
    assert out.splitlines()[2].startswith("X ") and "mean length" in out
    assert cli.main(["balance", game, "--games", "2", "--playouts", "200", "--quiet", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and set(data["seats"]) == {"X", "O"}
    assert data["seats"]["X"]["win"]["low"] <= data["seats"]["X"]["win"]["rate"]
    assert cli.main(["balance", game, "--games", "0"]) == 1
