"""The batch simulator (``engines/haunted/sim``): the numba kernel against its plain reference.

The plain reference plays its turns with ``rules.step``, so the engine's rules are the yardstick
for both: the kernel's own turn (``apply_turn``) is held to ``rules.step`` on random states, and
whole rounds of the kernel to the plain path, seed for seed, for every policy pair. The kernel
half skips (saying why) where numba cannot load; the plain half always runs.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from studio.engines import jit
from studio.engines.common.splitmix import SplitMix64
from studio.engines.haunted.answers import game_state
from studio.engines.haunted.board import Map
from studio.engines.haunted.inprocess import InProcessPlayer
from studio.engines.haunted.maps import builtin_maps, original_maps
from studio.engines.haunted.rules import Round, step
from studio.engines.haunted.sim import kernels as k
from studio.engines.haunted.sim import plain
from studio.engines.haunted.sim.batch import Policy, play, seeds_for, start_of
from tests.haunted.helpers import board

needs_numba = pytest.mark.skipif(not jit.available(), reason=f"the kernel half needs numba: {jit.reason()}")

KINDS = ("random", "safe", "greedy", "lookahead")
WEAK = board(["3213123", "2121212", "1313131", "3333333", "1313131", "2121212", "3213123"],
             home=[[0, 0], [0, 0], [0, 6]], away=[[6, 3], [6, 3], [6, 6]], name="Weak")
"""Strength-1 tiles everywhere and two monsters per start tile: jumps on the same weak tile."""
MAPS = [*original_maps()[:3], builtin_maps()["Cracked 9"], builtin_maps()["Open 5"], WEAK]
PAIRS = [(Policy(h), Policy(a).mirror()) for h in KINDS for a in KINDS]
NOISY = [(Policy("greedy", 0.3), Policy("lookahead", 0.1)), (Policy("safe", 0.5), Policy("random", 0.2)),
         (Policy("lookahead", 0.2), Policy("lookahead", 0.2).mirror()),
         (Policy("random", 1.0), Policy("greedy"))]


def outcome_rows(out) -> list[tuple[int, ...]]:
    return [tuple(int(v) for v in row) for row in zip(out.winner, out.reason, out.broken[:, 0],
                                                      out.broken[:, 1], out.turns)]


# ------------------------------------------------------------------ turns: kernel vs rules.step


def random_state(rng: random.Random):
    """A state between turns with stacked monsters and weak tiles: where the rules get subtle."""
    n = rng.choice((5, 7))
    tiles = [rng.choice((0, 1, 1, 2, 3)) for _ in range(n * n)]
    positions, alive = [], []
    for _ in range(6):
        r, c = rng.randrange(n), rng.randrange(n)
        if rng.random() < 0.3 and positions:  # share a tile with an earlier monster
            r, c = positions[rng.randrange(len(positions))]
        living = rng.random() < 0.85
        if living:
            tiles[r * n + c] = max(tiles[r * n + c], 1)  # the living stand on tiles of strength >= 1
        positions.append((r, c))
        alive.append(living)
    alive[0] = alive[3] = True
    for kk in (0, 3):
        r, c = positions[kk]
        tiles[r * n + c] = max(tiles[r * n + c], 1)
    state = Round(open_map_of(n)).initial_state()
    state = state._replace(strengths=tuple(tiles), positions=tuple(positions), alive=tuple(alive),
                           broken=(rng.randrange(5), rng.randrange(5)), max_turns=10_000)
    return state


def open_map_of(n: int) -> Map:
    return Map.from_rows("Open", ["3" * n] * n)


def kernel_turn(apply_turn, state, moves: list[int]):
    n = state.size
    tiles = np.array(state.strengths, np.int64)
    pos = np.array(state.positions, np.int64).reshape(6, 2)
    alive = np.array(state.alive, np.int64)
    broken = np.array(state.broken, np.int64)
    end = apply_turn(tiles, n, pos, alive, broken, np.array(moves, np.int64))
    return tiles.tolist(), [tuple(p) for p in pos.tolist()], [bool(a) for a in alive], broken.tolist(), end


def rules_turn(state, moves: list[int]):
    names = [plain.MOVE_NAMES[m] if state.alive[i] else None for i, m in enumerate(moves)]
    after, _ = step(state, names[:3], names[3:])
    end = -1
    if after.end is not None:
        winner = {"home": k.HOME, "away": k.AWAY, None: k.NOBODY}[after.end.winner]
        reason = {"eliminated": k.ELIMINATED, "tiebreak": k.TIEBREAK, "tie": k.TIE}[after.end.reason]
        end = 10 * reason + winner
    return list(after.strengths), list(after.positions), list(after.alive), list(after.broken), end


@pytest.mark.parametrize("compiled", [False, pytest.param(True, marks=needs_numba)],
                         ids=["plain", "numba"])
def test_the_kernels_turn_is_rules_step(compiled: bool) -> None:
    apply_turn = k.apply_turn if compiled else k.apply_turn.py_func
    rng = random.Random(12)
    for _ in range(3000):
        state = random_state(rng)
        moves = [rng.choice((0, 0, 1, 2, 3, 4)) for _ in range(6)]
        assert kernel_turn(apply_turn, state, moves) == rules_turn(state, moves), (state, moves)


@pytest.mark.parametrize("compiled", [False, pytest.param(True, marks=needs_numba)],
                         ids=["plain", "numba"])
def test_two_jumps_on_a_tile_of_strength_1_break_it_once(compiled: bool) -> None:
    # H0 and H1 share a tile of strength 1 and both jump: H0 breaks it and falls, H1 falls into
    # the hole; one hit is counted (rules.py, §5.3 "two monsters jump on the same tile").
    apply_turn = k.apply_turn if compiled else k.apply_turn.py_func
    state = Round(open_map_of(5)).initial_state()
    tiles = list(state.strengths)
    tiles[2 * 5 + 2] = 1
    state = state._replace(strengths=tuple(tiles), positions=((2, 2), (2, 2), (0, 4), (4, 0), (4, 2), (4, 4)))
    moves = [0, 0, 3, 1, 1, 1]
    tiles_after, _, alive, broken, end = kernel_turn(apply_turn, state, moves)
    assert tiles_after[12] == 0 and alive[:2] == [False, False] and broken == [2, 3] and end == -1
    assert kernel_turn(apply_turn, state, moves) == rules_turn(state, moves)


# ------------------------------------------------------------- rounds: kernel vs the plain path


def test_plain_rounds_are_rules_step_turns_and_reproducible() -> None:
    # The plain path's round is a sequence of rules.step turns chosen by its policies: replaying
    # the same seed's choices through the engine reaches the same end.
    start = start_of(original_maps()[1])
    for seed in range(5):
        end, turns = plain.play_round(start, [k.GREEDY, k.SAFE + k.MIRRORED], [0.2, 0.0], seed)
        rng, state = SplitMix64(seed), start
        while state.end is None:
            moves = (plain.choose(k.GREEDY, 0.2, 0, state, rng)
                     + plain.choose(k.SAFE + k.MIRRORED, 0.0, 1, state, rng))
            names = [plain.MOVE_NAMES[m] if state.alive[i] else None for i, m in enumerate(moves)]
            state, _ = step(state, names[:3], names[3:])
        assert (state.end, state.turn) == (end.end, turns)
        assert plain.play_round(start, [k.GREEDY, k.SAFE + k.MIRRORED], [0.2, 0.0], seed) == (end, turns)


@needs_numba
@pytest.mark.parametrize("board_", MAPS, ids=lambda m: m.name)
def test_kernel_and_plain_agree_seed_for_seed_for_every_pair(board_: Map) -> None:
    start = start_of(board_)
    for number, (home, away) in enumerate(PAIRS + NOISY):
        seeds = seeds_for(number, 12)
        fast = play(start, home, away, seeds, plain=False)
        slow = play(start, home, away, seeds, plain=True)
        assert outcome_rows(fast) == outcome_rows(slow), f"{home} vs {away} on {board_.name}"


@needs_numba
def test_kernel_and_plain_agree_from_a_mid_round_state_with_forced_first_moves() -> None:
    start = start_of(original_maps()[0])
    state = start
    for turn in range(4):  # a few turns in: holes, weak tiles, maybe a dead monster
        state, _ = step(state, ["south", "none", "west"], ["north", "east", "none"])
    first = np.array([[m, 0, 3, -1, -1, -1] for m in range(5)] * 4, np.int64)
    seeds = seeds_for(9, len(first))
    for home, away in ((Policy("greedy", 0.2), Policy("lookahead", 0.2).mirror()),
                       (Policy("random"), Policy("safe"))):
        fast = play(state, home, away, seeds, first=first, plain=False)
        slow = play(state, home, away, seeds, first=first, plain=True)
        assert outcome_rows(fast) == outcome_rows(slow)


def test_play_is_deterministic_per_seed_on_the_plain_path() -> None:
    start = start_of(WEAK)
    home, away = Policy("greedy", 0.3), Policy("safe").mirror()
    one = play(start, home, away, [5, 6, 7, 5], plain=True)
    again = play(start, home, away, [5, 6, 7, 5], plain=True)
    assert outcome_rows(one) == outcome_rows(again)
    assert outcome_rows(one)[0] == outcome_rows(one)[3]
    assert sum(one.counts()) == 4


# --------------------------------------------------------------- policies against the built-ins


def states_along_a_round(board_: Map, turns: int = 12):
    state, rng = start_of(board_), random.Random(3)
    out = [state]
    while state.end is None and len(out) < turns:
        moves = [rng.choice(plain.MOVE_NAMES) if a else None for a in state.alive]
        state, _ = step(state, moves[:3], moves[3:])
        if state.end is None:
            out.append(state)
    return out


@pytest.mark.parametrize("name", ["greedy", "lookahead"])
def test_noiseless_greedy_and_lookahead_play_as_the_builtins(name: str) -> None:
    code = k.POLICIES[name]
    for board_ in original_maps()[:3]:
        for state in states_along_a_round(board_):
            for side_number, side in enumerate(("home", "away")):
                player = InProcessPlayer(name)
                assert player.load(1, side).ok
                player.request(state.turn, game_state(state), side)
                expected = player.collect().result
                ours = plain.choose(code, 0.0, side_number, state, SplitMix64(0))
                got = [plain.MOVE_NAMES[m] for m in ours]
                living = [i for i in range(3) if state.alive[3 * side_number + i]]
                assert [got[i] for i in living] == [expected[i] for i in living], (board_.name, state)


def test_random_and_safe_policies_keep_to_their_move_sets() -> None:
    rng = SplitMix64(4)
    for state in states_along_a_round(original_maps()[2], 20):
        n = state.size
        for side in (0, 1):
            for kind in (k.RANDOM, k.SAFE):
                moves = plain.choose(kind, 0.0, side, state, rng)
                for i, move in enumerate(moves):
                    kk = 3 * side + i
                    if not state.alive[kk]:
                        continue
                    dr, dc = plain.DELTA[move]
                    r, c = state.positions[kk][0] + dr, state.positions[kk][1] + dc
                    assert 0 <= r < n and 0 <= c < n
                    if kind == k.SAFE and move != 0:
                        assert state.strengths[r * n + c] >= 2


def test_policy_validation_and_names() -> None:
    assert str(Policy("greedy", 0.2)) == "greedy~0.2" and str(Policy("safe")) == "safe"
    assert Policy("safe").mirror().mirrored and Policy("safe").mirror().code == k.SAFE + k.MIRRORED
    with pytest.raises(ValueError, match="unknown policy 'smart'"):
        Policy("smart")
    with pytest.raises(ValueError, match="noise must be in"):
        Policy("safe", 1.5)
