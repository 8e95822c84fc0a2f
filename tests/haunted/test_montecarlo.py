"""``builtin:montecarlo``: the rollout AI on the batch simulator, in its sandboxed worker too.

How often it beats ``lookahead`` is measured by ``bench/haunted.py ai``, not asserted here.
"""

from __future__ import annotations

import json

import pytest

from studio import cli
from studio.engines import jit
from studio.engines.common.splitmix import SplitMix64
from studio.engines.haunted.ai import make_player
from studio.engines.haunted.answers import game_state
from studio.engines.haunted.inprocess import InProcessPlayer
from studio.engines.haunted.maps import builtin_maps, original_maps
from studio.engines.haunted.rules import MOVES, Round, step
from studio.engines.haunted.sim import kernels as k
from studio.engines.haunted.sim import plain, rollout
from studio.sessions.haunted.entrants import prepare_simulator

WAFFLE = builtin_maps()["WaffleTown"]


def positions(board, turns: int):
    """States along a round where both sides step towards each other and jump."""
    state = Round(board).initial_state()
    states = [state]
    for turn in range(turns):
        home = ["south", "none", "south"] if turn % 2 == 0 else ["none", "south", "none"]
        away = ["north", "none", "north"] if turn % 2 == 0 else ["none", "north", "none"]
        state, _ = step(state, [m if a else None for m, a in zip(home, state.alive[:3])],
                        [m if a else None for m, a in zip(away, state.alive[3:])])
        if state.end is not None:
            break
        states.append(state)
    return states


def answers(player, states, side: str, seed: int) -> list[list[str]]:
    assert player.load(seed, side).ok
    out = []
    for state in states:
        player.request(state.turn, game_state(state), side)
        reply = player.collect()
        assert reply.ok, reply.error
        out.append(reply.result)
    player.close()
    return out


def test_candidates_avoid_holes_and_the_edge_and_start_with_lookahead() -> None:
    state = Round(WAFFLE).initial_state()
    for side in (0, 1):
        triples = rollout.candidates(state, side)
        assert triples[0] == tuple(plain.choose(k.LOOKAHEAD, 0.0, side, state, SplitMix64(0)))
        assert len(set(triples)) == len(triples) <= rollout.MAX_CANDIDATES
        n = state.size
        for triple in triples:
            for i, move in enumerate(triple):
                r, c = state.positions[3 * side + i]
                r, c = r + plain.DELTA[move][0], c + plain.DELTA[move][1]
                assert 0 <= r < n and 0 <= c < n and state.strengths[r * n + c] >= 2


def test_the_plan_is_the_same_on_the_kernel_and_the_plain_path() -> None:
    state = positions(original_maps()[0], 3)[-1]
    expected = rollout.best_moves(state, 0, seed=7, stages=(2, 2), plain=True)
    if jit.available():
        assert rollout.best_moves(state, 0, seed=7, stages=(2, 2), plain=False) == expected
    assert all(0 <= m < 5 for m in expected)


def test_without_the_simulator_it_plays_as_lookahead() -> None:
    ai = rollout.RolloutAI(5, simulate=False, why="numba cannot load: test")
    assert ai.fallback == "numba cannot load: test"
    for state in positions(WAFFLE, 4):
        lookahead = InProcessPlayer("lookahead")
        lookahead.load(1, "away")
        lookahead.request(state.turn, game_state(state), "away")
        expected = lookahead.collect().result
        got = ai.move(game_state(state), "away")
        living = [i for i in range(3) if state.alive[3 + i]]
        assert [got[i] for i in living] == [expected[i] for i in living]


def test_in_process_it_is_deterministic_for_a_seed_and_answers_legal_moves() -> None:
    states = positions(WAFFLE, 4)
    first = answers(InProcessPlayer("montecarlo"), states, "home", 11)
    assert answers(InProcessPlayer("montecarlo"), states, "home", 11) == first
    for moves in first:
        assert len(moves) == 3 and all(m in MOVES for m in moves)


def test_in_its_worker_it_loads_the_compiled_simulator_and_plays_as_in_process() -> None:
    prepare_simulator()
    states = positions(WAFFLE, 3)
    player = make_player("builtin:montecarlo", time_limit=2.0)
    loaded = player.load(11, "away")
    assert loaded.ok, loaded.error
    if jit.available():
        assert "plays as lookahead" not in loaded.stdout, loaded.stdout
        assert loaded.ms < 5000
    player.close()
    in_worker = answers(make_player("builtin:montecarlo", time_limit=2.0), states, "away", 11)
    assert in_worker == answers(InProcessPlayer("montecarlo"), states, "away", 11)


def test_a_whole_match_from_the_command_line(capsys) -> None:
    args = ["match", "builtin:montecarlo", "builtin:lookahead", "--rounds", "1", "--seed", "1", "--json"]
    assert cli.main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seed"] == 1 and data["rounds_played"] == 1
    assert data["winner"] in ("builtin:montecarlo", "builtin:lookahead")
    (only,) = data["rounds"]
    assert only["home"] == "builtin:montecarlo" and only["reason"] in ("eliminated", "tiebreak", "tie")
    assert not any("plays as lookahead" in line for line in data["log"]) or not jit.available()


@pytest.mark.parametrize("name", ["montecarlo"])
def test_it_is_listed_with_the_builtins(name: str) -> None:
    from studio.engines.haunted.builtin_ais import BUILTINS, NAMES, SIMULATING

    assert name in NAMES and BUILTINS[name].is_file() and name in SIMULATING
