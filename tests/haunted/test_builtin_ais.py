"""The built-in AIs (spec haunted.md §9) and the trusted in-process player."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from studio.engines.haunted.answers import game_state
from studio.engines.haunted.builtin_ais import BUILTINS, SIMULATING, builtin_name
from studio.engines.haunted.inprocess import InProcessPlayer
from studio.engines.haunted.match import Entrant, run_match
from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.rules import Round, step
from tests.haunted.helpers import board, open_map

STDLIB_OK = {"random", "math", "itertools", "collections", "functools", "heapq"}


def ask(name: str, state, side: str = "home", seed: int = 1):
    player = InProcessPlayer(name)
    assert player.load(seed, side).ok
    player.request(state.turn, game_state(state), side)
    reply = player.collect()
    player.close()
    assert reply.ok, reply.error
    return reply.result


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_builtin_is_a_standalone_stdlib_file_with_main(name: str) -> None:
    tree = ast.parse(Path(BUILTINS[name]).read_text())
    imports = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imports |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    if name in SIMULATING:  # runs the studio's simulator, and says so in its docstring
        assert imports <= STDLIB_OK | {"os", "sys", "site", "studio"}
        assert "not a standalone" in ast.get_docstring(tree)
    else:
        assert imports <= STDLIB_OK
    assert any(isinstance(n, ast.FunctionDef) and n.name == "main" for n in tree.body)
    assert ast.get_docstring(tree)


def test_builtin_names() -> None:
    assert builtin_name("builtin:greedy") == "greedy"
    assert builtin_name("builtin:nope") is None and builtin_name("greedy.py") is None


def test_idle_monsters_fall_on_turn_3() -> None:
    state = Round(open_map()).initial_state()
    for _ in range(3):
        assert ask("idle", state) == ["none"] * 3
        state, _ = step(state, ["none"] * 3, ["north", "north", "north"])
    assert not any(state.alive[:3])


@pytest.mark.parametrize("direction", ["north", "south", "east", "west"])
def test_direction_ais(direction: str) -> None:
    assert ask(direction, Round(open_map()).initial_state()) == [direction] * 3


def test_wander_offers_only_in_board_moves_including_row_and_col_0() -> None:
    # A monster in the top-left corner: over many seeds it picks none, east and south only,
    # and a monster at (1, 1) does go north and west (the original's off-by-one never did).
    corner = Round(board(["33333"] * 5, [[0, 0], [1, 1], [4, 4]])).initial_state()
    seen0, seen1 = set(), set()
    for seed in range(60):
        moves = ask("wander", corner, seed=seed)
        seen0.add(moves[0])
        seen1.add(moves[1])
    assert seen0 == {"none", "east", "south"}
    assert seen1 == {"none", "north", "east", "south", "west"}


def test_cautious_only_takes_moves_that_leave_the_tile_standing() -> None:
    rows = ["21111", "11111", "33333", "33333", "33333"]
    state = Round(board(rows, [[0, 0], [0, 2], [2, 2]])).initial_state()
    for seed in range(30):
        moves = ask("cautious", state, seed=seed)
        assert moves[0] == "none"  # (0,0) is 2: jumping is the only safe move
        assert moves[1] == "none"  # no safe move at all: jump
        assert moves[2] in ("none", "south", "east", "west")  # north is a 1


def test_greedy_prefers_strength_then_nearness_then_order() -> None:
    rows = ["3333333", "3323333", "3333333", "3333333", "3333333", "3333333", "3333333"]
    state = Round(board(rows, [[0, 2], [3, 3], [0, 6]], [[6, 0], [6, 3], [6, 6]])).initial_state()
    moves = ask("greedy", state)
    # H0 at (0,2): south (1,2) would keep only 1; east, west and none keep 2, and east's (0,3)
    # is the nearest to an enemy (6 from A1 at (6,3), against 7).
    assert moves[0] == "east"
    assert moves[1] == "south"  # nearer to the enemy than staying
    assert moves[2] == "south"


def test_greedy_accounts_for_teammates_planned_hits() -> None:
    rows = ["33333", "33333", "32333", "33333", "33333"]
    # H0 and H1 share (2,2) of strength 3 surrounded by 3s except west (2,1)=2.
    state = Round(board(rows, [[2, 2], [2, 2], [0, 0]], [[4, 0], [4, 2], [4, 4]])).initial_state()
    moves = ask("greedy", state)
    assert moves[0] == "south"  # keeps 2 and nearest to A1
    assert moves[1] == "none"  # (3,2) would keep only 1 after H0's planned hit


def test_hunter_closes_in_on_safe_tiles_and_never_waits_when_it_can_move() -> None:
    rows = ["3333333", "3333333", "3333333", "3133333", "3333333", "3333333", "3333333"]
    state = Round(board(rows, [[0, 0], [0, 3], [2, 1]], [[6, 0], [6, 3], [6, 6]])).initial_state()
    moves = ask("hunter", state)
    assert moves[0] == "south"  # towards A0 at (6,0)
    assert moves[1] == "south"  # towards A1 at (6,3)
    # H2 at (2,1): south (3,1) is nearest but strength 1, so it would break under it; west
    # (2,0) is 4 steps from A0, east (2,2) 5 from A1
    assert moves[2] == "west"
    lone = Round(board(rows, [[6, 1], [0, 3], [0, 6]], [[6, 0], [0, 0], [0, 0]])).initial_state()
    assert ask("hunter", lone)[0] == "west"  # step onto the prey's tile rather than wait


def test_lookahead_avoids_breaking_its_own_tile_and_is_deterministic() -> None:
    rows = ["13331", "33333", "33333", "33333", "33333"]
    state = Round(board(rows, [[0, 1], [0, 2], [0, 3]])).initial_state()
    first = ask("lookahead", state, seed=1)
    assert first == ask("lookahead", state, seed=99)
    assert first[0] != "west" and first[2] != "east"  # those hit strength-1 corners


def test_inprocess_random_matches_a_process_seeded_with_random_seed() -> None:
    corner = Round(open_map()).initial_state()
    player = InProcessPlayer("wander")
    player.load(1234, "home")
    got = []
    for turn in range(5):
        player.request(turn + 1, game_state(corner), "home")
        got.append(player.collect().result)
    # What a worker does: random.seed(seed), then the same calls on the module functions.
    rng = random.Random(1234)
    expected = []
    for _ in range(5):
        row = []
        for r, c in ((0, 0), (0, 3), (0, 6)):
            choices = [n for n, (dr, dc) in (("none", (0, 0)), ("north", (-1, 0)), ("east", (0, 1)),
                                              ("south", (1, 0)), ("west", (0, -1)))
                       if 0 <= r + dr < 7 and 0 <= c + dc < 7]
            row.append(rng.choice(choices))
        expected.append(row)
    assert got == expected


def test_inprocess_never_touches_the_global_random() -> None:
    random.seed(5)
    before = random.getstate()
    player = InProcessPlayer("builtin:wander")
    player.load(1, "home")
    player.request(1, game_state(Round(open_map()).initial_state()), "home")
    player.collect()
    assert random.getstate() == before


def test_inprocess_module_state_resets_every_load(tmp_path: Path) -> None:
    source = tmp_path / "counter.py"
    source.write_text("calls = []\ndef main(s, side):\n    calls.append(1)\n    print(len(calls))\n"
                      "    return ['none'] * len(calls)\n")
    player = InProcessPlayer("counter", path=source)
    state = game_state(Round(open_map()).initial_state())
    for _ in range(2):
        player.load(1, "home")
        player.request(1, state, "home")
        reply = player.collect()
        assert reply.result == ["none"] and reply.stdout == "1\n"


def test_inprocess_failures(tmp_path: Path) -> None:
    state = game_state(Round(open_map()).initial_state())
    cases = {
        "boom.py": ("def main(s, side):\n    raise ValueError('nope')\n", "exception", "ValueError: nope"),
        "shape.py": ("def main(s, side):\n    return {1, 2}\n", "bad_shape", "JSON"),
    }
    for name, (text, failure, message) in cases.items():
        (tmp_path / name).write_text(text)
        player = InProcessPlayer(name, path=tmp_path / name)
        assert player.load(1, "home").ok
        player.request(1, state, "home")
        reply = player.collect()
        assert (reply.ok, reply.failure) == (False, failure) and message in reply.error
    (tmp_path / "nomain.py").write_text("x = 1\n")
    reply = InProcessPlayer("x", path=tmp_path / "nomain.py").load(1, "home")
    assert not reply.ok and reply.failure == "exception" and "main" in reply.error
    with pytest.raises(ValueError):
        InProcessPlayer("builtin:nope")


def test_tuples_come_back_as_lists(tmp_path: Path) -> None:
    (tmp_path / "t.py").write_text("def main(s, side):\n    return ('none', 'none', 'none')\n")
    player = InProcessPlayer("t", path=tmp_path / "t.py")
    player.load(1, "home")
    player.request(1, {}, "home")
    assert player.collect().result == ["none", "none", "none"]


def test_stronger_builtins_beat_weaker_ones() -> None:
    def play(a: str, b: str):
        return run_match(Entrant(a, lambda: InProcessPlayer(a)), Entrant(b, lambda: InProcessPlayer(b)),
                         builtin_maps(), seed=11)

    assert play("greedy", "idle").winner == "A"
    assert play("wander", "cautious").winner == "B"
    assert play("lookahead", "wander").wins == {"A": 3, "B": 0}
