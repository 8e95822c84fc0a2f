"""The engine's plain-Python path (reference matcher) plays exactly like the fast path."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.commands.btree.formats import load_compiled
from studio.engines.btree.runtime.engine import Engine, Program
from tests.btree.corpus import load_json

GAMES = Path(__file__).resolve().parents[2] / "games"


def _play_both(program: Program, seed: int, turns: int) -> int:
    """Random-but-scripted play on both paths; returns the number of waits compared."""
    fast, plain = Engine(program), Engine(program, reference=True)
    fast.seed(seed)
    plain.seed(seed)
    compared = 0
    for turn in range(turns):
        fast.run_to_choice()
        plain.run_to_choice()
        assert fast.key() == plain.key()
        assert [c.to_json() for c in fast.choices] == [c.to_json() for c in plain.choices]
        compared += 1
        if fast.result is not None or fast.waiting != "choice":
            break
        index = (7 * turn + 3) % len(fast.choices)
        fast.choose(index)
        plain.choose(index)
    return compared


@pytest.mark.parametrize("name", ["crypt", "sokoban", "connect-four", "eight-puzzle"])
def test_bundled_games_same_on_both_paths(name: str) -> None:
    program = Program(load_compiled(GAMES / f"{name}.toml"))
    assert _play_both(program, seed=11, turns=40) > 3


@pytest.mark.parametrize(
    "name", ["games_yaml__checkers", "games_json__sweeper", "games_json__trogue", "games_yaml__dungeon_chase"]
)
def test_corpus_games_same_on_both_paths(name: str) -> None:
    program = Program(load_json(f"expanded/{name}.json"))
    assert _play_both(program, seed=5, turns=25) >= 2
