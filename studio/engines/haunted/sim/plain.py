"""The batch simulator in plain Python: the same policies and draws, on ``rules.step``.

This is the reference ``sim.kernels`` is tested against, and the path that runs where numba
cannot load. Policies read a :class:`~studio.engines.haunted.rules.RoundState`; with no noise,
``greedy`` and ``lookahead`` answer exactly as the built-in AIs of those names (a test says so).
"""

from __future__ import annotations

from collections.abc import Sequence

from studio.engines.common.splitmix import SplitMix64
from studio.engines.haunted.rules import RoundState, step

from .kernels import GREEDY, MIRROR_RANK, MIRRORED, RANDOM, REGION_CAP, SAFE

MOVE_NAMES = ("none", "north", "east", "south", "west")
DELTA = ((0, 0), (-1, 0), (0, 1), (1, 0), (0, -1))


def chance(rng: SplitMix64) -> float:
    return (rng.next64() >> 11) * (1.0 / 9007199254740992.0)


def safe_move(tiles: Sequence[int], n: int, r0: int, c0: int, rng: SplitMix64) -> int:
    safe = [m for m, (dr, dc) in enumerate(DELTA)
            if 0 <= r0 + dr < n and 0 <= c0 + dc < n and tiles[(r0 + dr) * n + c0 + dc] >= 2]
    return safe[rng.below(len(safe))] if safe else 0


def region(work: list[int], n: int, r0: int, c0: int) -> int:
    """Strong tiles (>= 2) reachable from (r0, c0) over strong tiles, at most 30."""
    seen = {(r0, c0)}
    todo = [(r0, c0)]
    count = 0
    while todo and count < REGION_CAP:
        r, c = todo.pop()
        if work[r * n + c] >= 2:
            count += 1
        elif (r, c) != (r0, c0):
            continue
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < n and 0 <= nc < n and (nr, nc) not in seen and work[nr * n + nc] >= 2:
                seen.add((nr, nc))
                todo.append((nr, nc))
    return min(count, REGION_CAP)


def choose(kind: int, noise: float, side: int, state: RoundState, rng: SplitMix64) -> list[int]:
    """The three moves (0 none, 1 north, 2 east, 3 south, 4 west) of ``side``'s monsters.

    ``kind`` RANDOM, SAFE, GREEDY, or anything else for LOOKAHEAD, plus MIRRORED.
    """
    mirrored, kind = kind >= MIRRORED, kind % MIRRORED
    n, tiles = state.size, state.strengths
    work = list(tiles)
    enemies = [state.positions[k] for k in range(3 * (1 - side), 3 * (1 - side) + 3) if state.alive[k]]
    planned: list[int] = []
    moves = []
    for k in range(3 * side, 3 * side + 3):
        if not state.alive[k]:
            moves.append(0)
            continue
        r0, c0 = state.positions[k]
        if noise > 0.0 and chance(rng) < noise:
            moves.append(safe_move(tiles, n, r0, c0, rng))
            continue
        if kind == RANDOM:
            options = [m for m, (dr, dc) in enumerate(DELTA) if 0 <= r0 + dr < n and 0 <= c0 + dc < n]
            moves.append(options[rng.below(len(options))])
            continue
        if kind == SAFE:
            moves.append(safe_move(tiles, n, r0, c0, rng))
            continue
        best = None
        for m, (dr, dc) in enumerate(DELTA):
            r, c = r0 + dr, c0 + dc
            if not (0 <= r < n and 0 <= c < n):
                continue
            strength = work[r * n + c]
            distance = min((abs(r - er) + abs(c - ec) for er, ec in enemies), default=0)
            rank = MIRROR_RANK[m] if mirrored else m
            if kind == GREEDY:
                key = (strength < 2, -(strength - 1), distance, rank)
            else:
                work[r * n + c] = max(strength - 1, 0)
                room = region(work, n, r, c)
                work[r * n + c] = strength
                score = 100 * (strength >= 2) + room - 3 * planned.count(r * n + c) - 0.5 * distance
                key = (-score, distance, rank)
            if best is None or key < best[0]:
                best = (key, m)
        move = best[1]
        r, c = r0 + DELTA[move][0], c0 + DELTA[move][1]
        if work[r * n + c] > 0:
            work[r * n + c] -= 1
        planned.append(r * n + c)
        moves.append(move)
    return moves


def play_round(start: RoundState, kinds: Sequence[int], noise: Sequence[float], seed: int,
               first: Sequence[int] = (-1,) * 6) -> tuple[RoundState, int]:
    """One round from ``start`` (as ``kernels.play_rounds``); (end state, turns played)."""
    rng = SplitMix64(seed)
    state, turns = start, 0
    while state.end is None:
        turns += 1
        moves: list[int] = []
        for side in range(2):
            if turns == 1 and first[3 * side] >= 0:
                moves += [first[k] if state.alive[k] else 0 for k in range(3 * side, 3 * side + 3)]
            else:
                moves += choose(kinds[side], noise[side], side, state, rng)
        names = [MOVE_NAMES[m] if state.alive[k] else None for k, m in enumerate(moves)]
        state, _ = step(state, names[:3], names[3:], record=False)
    return state, turns
