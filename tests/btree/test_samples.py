"""Golden playthroughs of the bundled behaviour-tree games: seed + choices -> boards and result.

Each golden file records, at every choice wait, the board, the number of choices and the one
made, then the result and the final board. Regenerate deliberately with
``STUDIO_UPDATE_GOLDEN=1 python3 dev.py test tests/btree/test_samples.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.commands.btree.formats import load_compiled
from studio.engines.btree.runtime.engine import Engine
from studio.engines.btree.model.text import board_lines, choice_text, result_text
from studio.storage import dumps_project, load_project

GAMES = Path(__file__).resolve().parents[2] / "games"
GOLDEN = Path(__file__).resolve().parent / "golden"

# A script is a list of choices, each a choice index or the (row, col) of the choice to take;
# "solve" takes the solver's shortest winning line; "pegs" the peg-solitaire solution below.
CRYPT_LINE = [1, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 1, 1, 1,
              0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]  # found by `studio solve games/crypt.toml`
PLAYTHROUGHS = {
    "tic-tac-toe": (
        "tic-tac-toe", 0, [(1, 1), (0, 0), (0, 2), (2, 0), (1, 0), (1, 2), (0, 1), (2, 1), (2, 2)],
        {"result": "draw"},
    ),
    "tic-tac-toe-x-wins": ("tic-tac-toe", 0, [0] * 7, {"result": "win", "player": "X"}),
    "connect-four": ("connect-four", 0, [(0, 3), (0, 3), (0, 4), (0, 4), (0, 5), (0, 5), (0, 6)],
                     {"result": "win", "player": "R"}),
    "sokoban": ("sokoban", 0, "solve", {"result": "win", "player": "keeper"}),
    "eight-puzzle": ("eight-puzzle", 7, "solve", {"result": "win", "player": "solver"}),
    "crypt": ("crypt", 0, CRYPT_LINE, {"result": "win", "player": "hero"}),
    "crypt-careless": ("crypt", 3, [0] * 12, None),
    "peg-solitaire": ("peg-solitaire", 0, "pegs", {"result": "win", "player": "solo"}),
}

# A solution of English peg solitaire (found by a depth-first search) as (row, col, direction):
# the jumping peg's cell and the way it jumps.
PEG_SOLUTION = [
    (1, 3, "down"), (2, 1, "right"), (0, 2, "down"), (0, 4, "left"), (2, 3, "left"),
    (2, 0, "right"), (2, 4, "up"), (2, 6, "left"), (3, 2, "up"), (0, 2, "down"), (3, 0, "right"),
    (3, 2, "up"), (3, 4, "up"), (0, 4, "down"), (3, 6, "left"), (3, 4, "up"), (5, 2, "up"),
    (4, 0, "right"), (4, 2, "up"), (1, 2, "down"), (3, 2, "right"), (4, 4, "up"), (1, 4, "down"),
    (4, 6, "left"), (4, 3, "right"), (6, 4, "up"), (3, 4, "down"), (6, 2, "right"), (6, 4, "up"),
    (4, 5, "left"), (4, 3, "down"),
]


def _peg_index(engine: Engine, move: tuple[int, int, str]) -> int:
    row, col, direction = move
    dr, dc = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}[direction]
    target = (row + 2 * dr, col + 2 * dc)
    for index, choice in enumerate(engine.choices):
        cells = _changed_cells(choice.to_json())
        if cells == {(row, col), (row + dr, col + dc), target}:
            return index
    raise AssertionError(f"no jump {move}")


def _index(engine: Engine, step: int | tuple[int, int]) -> int:
    if isinstance(step, int):
        return step
    for index, choice in enumerate(engine.choices):
        if (choice.row, choice.col) == step:
            return index
    raise AssertionError(f"no choice at {step}")


def _changed_cells(choice: dict) -> set[tuple[int, int]]:
    grid = choice["rhs"]["main"]
    return {(choice["row"] + r, choice["col"] + c) for r, line in enumerate(grid) for c, _ in enumerate(line)}


def play(name: str) -> tuple[str, dict | None]:
    game, seed, script, _expected = PLAYTHROUGHS[name]
    engine = Engine(load_compiled(GAMES / f"{game}.toml"))
    engine.seed(seed)
    if script == "solve":
        from studio.engines.btree.search.solver import solve

        found = solve(engine, max_states=100_000)
        assert found.found, f"{name} has no solution within the limit"
        script = found.choices
    lines = [f"# {name}: seed {seed}"]
    turn = 0
    while True:
        engine.run_to_choice()
        if engine.result is not None or engine.waiting != "choice":
            break
        if script == "pegs":
            if turn >= len(PEG_SOLUTION):
                break
            index = _peg_index(engine, PEG_SOLUTION[turn])
        else:
            if turn >= len(script):
                break
            index = _index(engine, script[turn])
        choice = engine.choices[index]
        lines += board_lines(engine.board_dict())
        lines.append(
            f"wait {turn}: player {engine.choice_player}, {len(engine.choices)} choices, "
            f"chose {index}: {choice_text(choice.to_json())}"
        )
        engine.choose(index)
        turn += 1
    lines.append(f"end: {result_text(engine.result)}")
    lines += board_lines(engine.board_dict())
    return "\n".join(lines) + "\n", engine.result


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_golden_playthrough(name: str) -> None:
    text, result = play(name)
    expected = PLAYTHROUGHS[name][3]
    if expected is not None:
        assert result == expected
    golden = GOLDEN / f"{name}.txt"
    if os.environ.get("STUDIO_UPDATE_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"no golden file {golden.name}: run with STUDIO_UPDATE_GOLDEN=1"
    assert text == golden.read_text(encoding="utf-8")


BTREE_GAMES = [p for p in sorted(GAMES.glob("*.toml")) if load_project(p).kind == "btree"]


def test_at_least_six_btree_games_are_bundled() -> None:
    assert len(BTREE_GAMES) >= 6
    covered = {game for game, *_ in PLAYTHROUGHS.values()}
    assert {p.stem for p in BTREE_GAMES} <= covered, "every bundled game has a golden playthrough"


@pytest.mark.parametrize("path", BTREE_GAMES, ids=lambda p: p.stem)
def test_bundled_btree_games_load_compile_and_save_canonically(path: Path) -> None:
    project = load_project(path)
    assert dumps_project(project) == path.read_text(encoding="utf-8")
    compiled = load_compiled(path)
    assert not compiled.warnings, compiled.warnings
