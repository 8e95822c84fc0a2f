"""The computer seat's search (issue 32): reproducible moves, proofs checked against a full
minimax on Tic-tac-toe, chance moves sampled, and never a loss against a random mover."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from studio.commands.btree.formats import load_compiled
from studio.engines.btree.runtime.engine import Engine, Program
from studio.engines.btree.search.mcts import Computer, move_seed
from studio.engines.btree.search.outcome import Proof, outcome_of, reward
from studio.engines.common.splitmix import SplitMix64
from tests.btree.trees import game, node, pat, rewrite, set_board

GAMES = Path(__file__).resolve().parents[2] / "games"


@lru_cache(maxsize=None)
def program(name: str) -> Program:
    return Program(load_compiled(GAMES / f"{name}.toml"))


def start(prog: Program, cells: list[int] = (), seed: int = 0) -> Engine:
    """A game after marks in these cells (row * cols + col of each choice), in turn."""
    engine = Engine(prog)
    engine.seed(seed)
    engine.run_to_choice()
    for cell in cells:
        places = [ch.row * engine.cols + ch.col for ch in engine.choices]
        engine.choose(places.index(cell))
        engine.run_to_choice()
    return engine


def minimax(engine: Engine, memo: dict) -> tuple[float, str | None]:
    """The exact value of the position for the seat to move there (and that seat), by brute force."""
    if engine.result is not None:
        return -1.0, None
    key = engine.key()
    if key in memo:
        return memo[key]
    mover = str(engine.choice_player)
    snap = engine.snapshot()
    best = -1.0
    for index in range(len(engine.choices)):
        engine.restore(snap)
        engine.choose(index)
        engine.run_to_choice()
        if engine.result is not None:
            value = reward(engine.result, mover)
        else:
            child, child_mover = minimax(engine, memo)
            value = child if child_mover == mover else 1.0 - child
        best = max(best, value)
    engine.restore(snap)
    memo[key] = (best, mover)
    return memo[key]


# ------------------------------------------------------------------------------ outcomes


def test_rewards_and_proof_words() -> None:
    assert reward({"result": "win", "player": "X"}, "X") == 1.0
    assert reward({"result": "win", "player": "X"}, "O") == 0.0
    assert reward({"result": "lose", "player": "X"}, "O") == 1.0
    assert reward({"result": "win"}, "O") == 1.0  # no player: a one-player puzzle solved
    assert reward({"result": "draw"}, "X") == reward({"result": "stalemate"}, "X") == reward(None, "X") == 0.5
    assert outcome_of({"result": "lose", "player": 1}, "1") == "loss"
    assert Proof({"result": "win", "player": "X"}, 3).text == "X wins in 3"
    assert Proof({"result": "lose", "player": "O"}, 2).text == "O loses in 2"
    assert Proof({"result": "draw"}, 9).text == "draw in 9"


# ------------------------------------------------------------------------------ the search


def test_the_same_seed_and_budget_choose_the_same_moves() -> None:
    prog = program("connect-four")
    snap = start(prog, [3, 3]).snapshot()
    runs = [Computer(prog).search(snap, seed=11, seconds=None, playouts=150) for _ in range(2)]
    assert runs[0] == runs[0] and runs[0].index == runs[1].index
    assert [m.visits for m in runs[0].moves] == [m.visits for m in runs[1].moves]
    assert runs[0].playouts == 150
    other = Computer(prog).search(snap, seed=12, seconds=None, playouts=150)
    assert [m.visits for m in other.moves] != [m.visits for m in runs[0].moves]


def test_move_seeds_differ_by_seat_and_ply() -> None:
    seeds = {move_seed(7, pid, ply) for pid in ("X", "O") for ply in range(5)}
    assert len(seeds) == 10 and move_seed(7, "X", 2) == move_seed(7, "X", 2)


def test_a_search_needs_a_limit_and_a_choice_wait() -> None:
    prog = program("tic-tac-toe")
    computer = Computer(prog)
    with pytest.raises(ValueError):
        computer.search(start(prog).snapshot(), seconds=None, playouts=None)
    over = start(prog, [0, 3, 1, 4, 2])
    assert over.result is not None
    with pytest.raises(ValueError):
        computer.search(over.snapshot(), playouts=10)


@pytest.mark.parametrize("moves", [
    [4, 0],          # X centre, O corner: a draw with best play
    [0, 3, 1],       # O must block the top row
    [0, 4, 8],       # O to move after X took opposite corners: O must take an edge
    [0, 1, 4],       # O to move, X threatens the diagonal
    [4, 1, 0, 8],    # X took the centre and a corner, O blocked: X to move
    [0, 4, 1, 2, 6], # O to move, X has two threats: O loses
    [1, 0, 4, 2],    # X to move, can win on the column
    [],              # the empty board: a draw
])
def test_proofs_on_tic_tac_toe_equal_a_full_minimax(moves: list[int]) -> None:
    prog = program("tic-tac-toe")
    engine = start(prog, moves)
    value, mover = minimax(engine, {})
    found = Computer(prog).search(engine.snapshot(), seed=3, seconds=None, playouts=200_000)
    assert found.proof is not None, "a Tic-tac-toe position is exhausted before the budget"
    assert found.player == mover
    assert reward(found.proof.result, mover) == value
    # the proven move keeps the value
    engine.choose(found.index)
    engine.run_to_choice()
    if engine.result is not None:
        after = reward(engine.result, mover)
    else:
        child, child_mover = minimax(engine, {})
        after = child if child_mover == mover else 1.0 - child
    assert after == value


def test_a_proven_win_is_played_and_named() -> None:
    prog = program("tic-tac-toe")
    engine = start(prog, [0, 3, 1, 4])  # X: 0 1, O: 3 4 — X completes the top row (cell 2)
    found = Computer(prog).search(engine.snapshot(), seed=1, seconds=None, playouts=5000)
    assert found.proof is not None and found.proof.text == "X wins in 1"
    engine.choose(found.index)
    engine.run_to_choice()
    assert engine.result == {"result": "win", "player": "X"}


def coin_game() -> dict:
    """A chance game: the player picks a cell; a coin (a random rewrite) then decides the result.

    Cell 0 wins on heads only; cell 1 always wins: only a search that samples the coin, instead of
    foreseeing it, must prefer cell 1.
    """
    pick = node("player", rewrite("_ _", "A _", desc="gamble"), rewrite("_ _", "_ B", desc="safe"), pid="P")
    coin = node("rewrite", lhs=pat("A"), rhs=pat("H"))
    flip = node("random-try", coin, node("rewrite", lhs=pat("A"), rhs=pat("T")))
    won = node("win", node("match", pattern=pat("H")), pid="P")
    safe = node("win", node("match", pattern=pat("B")), pid="P")
    lost = node("lose", node("match", pattern=pat("T")), pid="P")
    return game(node("order", set_board("_ _"), pick, flip, won, safe, lost))


def test_chance_is_sampled_not_foreseen() -> None:
    prog = Program(coin_game())
    for seed in range(6):
        engine = start(prog, seed=seed)
        found = Computer(prog).search(engine.snapshot(), seed=seed, seconds=None, playouts=200)
        assert found.index == 1, "the sure win beats a coin the search cannot see"
        # both moves draw from the engine RNG (random-try shuffles), so both are chance edges
        assert found.moves[1].value == 1.0 and found.moves[0].proof is None
        assert 0.2 < found.moves[0].value < 0.8


def play_against_random(prog: Program, computer_pid: str, seed: int, playouts: int) -> dict:
    engine = start(prog, seed=seed)
    computer = Computer(prog)
    chooser = SplitMix64(seed + 1000)
    ply = 0
    while engine.result is None:
        pid = str(engine.choice_player)
        if pid == computer_pid:
            found = computer.search(engine.snapshot(), seed=move_seed(seed, pid, ply), seconds=None,
                                    playouts=playouts)
            index = found.index
        else:
            index = chooser.below(len(engine.choices))
        engine.choose(index)
        engine.run_to_choice()
        ply += 1
    return engine.result


def test_the_computer_never_loses_tic_tac_toe_to_random() -> None:
    prog = program("tic-tac-toe")
    outcomes = [outcome_of(play_against_random(prog, pid, seed, 400), pid)
                for seed in range(10) for pid in ("X", "O")]
    assert "loss" not in outcomes
    assert outcomes.count("win") >= 12


def test_a_forced_move_is_played_at_once() -> None:
    prog = program("tic-tac-toe")
    engine = start(prog, [0, 1, 2, 4, 3, 5, 7, 6])  # one empty cell left
    found = Computer(prog).search(engine.snapshot(), seconds=5.0)
    assert found.index == 0 and found.playouts == 0 and found.seconds < 1.0


def test_the_time_per_move_holds_on_long_playouts() -> None:
    # Sokoban playouts wander for hundreds of moves (some 0.1 s each here): the clock is read
    # inside them too, so a move takes its time and not a playout more.
    prog = program("sokoban")
    found = Computer(prog).search(start(prog).snapshot(), seconds=0.2)
    assert found.seconds < 0.6 and found.proof is None  # loose: the machine may be loaded


def dice_game() -> dict:
    """Two coin flips with a choice after the first: the search must explore below a chance node.

    P picks "roll" or "quit" (a draw); a coin makes H or T; then P chooses "keep" (win on H, lose
    on T) or "swap" (win on T, lose on H). Best play wins always, whatever the coin.
    """
    roll = node("player", rewrite("_ _", "A _", desc="roll"), rewrite("_ _", "Q Q", desc="quit"),
                pid="P")
    quit_ = node("draw", node("match", pattern=pat("Q")))
    flip = node("random-try", node("rewrite", lhs=pat("A"), rhs=pat("H")),
                node("rewrite", lhs=pat("A"), rhs=pat("T")))
    pick = node("player", rewrite("_", "K", desc="keep"), rewrite("_", "S", desc="swap"), pid="P")
    won = node("win", node("match", pattern=pat("H K")), pid="P")
    won2 = node("win", node("match", pattern=pat("T S")), pid="P")
    lost = node("lose", node("match-times", pattern=pat("_"), times=0), pid="P")
    return game(node("order", set_board("_ _"), roll, quit_, flip, pick, won, won2, lost))


def test_moves_after_a_chance_are_searched_by_their_own_visits() -> None:
    prog = Program(dice_game())
    engine = start(prog, seed=2)
    found = Computer(prog).search(engine.snapshot(), seed=5, seconds=None, playouts=200)
    assert found.index == 0, "rolling wins whatever the coin; quitting draws"
    assert found.moves[0].value > 0.9 and found.moves[1].proof is not None
    engine.choose(0)
    engine.run_to_choice()  # the coin has fallen: H or T
    coin = engine.board.layers["main"][0][0]
    found = Computer(prog).search(engine.snapshot(), seed=5, seconds=None, playouts=50)
    assert found.proof is not None and found.proof.result["result"] == "win"
    assert found.index == (0 if coin == "H" else 1)
