"""Rounds of Haunted Tiles on arrays: the rules of ``rules.step`` and simple policies, for numba.

``play_rounds`` plays many rounds from one start, each with its own SplitMix64 stream, between
two policies: ``random`` (the built-in ``wander``), ``safe`` (the built-in ``cautious``),
``greedy`` and ``lookahead`` (the built-ins of those names, move for move), each optionally with
noise (a monster's move replaced, with some probability, by a random safe one). ``sim.plain`` is
the same in plain Python on ``rules.step``; tests hold the two to identical results.

Randomness, in this order every turn: the home policy's draws for monsters 0, 1, 2, then
away's; per monster, the noise draw (only when the noise is not 0) before the policy's own.
Written in the subset of Python numba compiles (see :mod:`studio.engines.jit`).
"""

from __future__ import annotations

import numpy as np

from studio.engines.jit import kernel

RANDOM, SAFE, GREEDY, LOOKAHEAD = 0, 1, 2, 3
POLICIES = {"random": RANDOM, "safe": SAFE, "greedy": GREEDY, "lookahead": LOOKAHEAD}
MIRRORED = 8
"""Added to a kind: rank moves as if the board were upside down (south before north in the
tie-breaks), so that an away team plays exactly as a home team would from its own side."""
MIRROR_RANK = np.array([0, 3, 2, 1, 4], np.int64)
# Moves in the built-ins' order: none, north, east, south, west.
DR = np.array([0, -1, 0, 1, 0], np.int64)
DC = np.array([0, 0, 1, 0, -1], np.int64)
# Outcome columns and codes (winner: home, away, none; reason: eliminated, tiebreak, tie).
O_WINNER, O_REASON, O_BROKEN_HOME, O_BROKEN_AWAY, O_TURNS = range(5)
HOME, AWAY, NOBODY = 0, 1, 2
ELIMINATED, TIEBREAK, TIE = 0, 1, 2
REGION_CAP = 30
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LIMIT3 = np.uint64((1 << 64) - (1 << 64) % 3)
_LIMIT5 = np.uint64((1 << 64) - (1 << 64) % 5)


@kernel(inline=True)
def next64(rng):
    """SplitMix64 (``studio.engines.common.splitmix``) on ``rng[0]``."""
    rng[0] += _GOLDEN
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@kernel(inline=True)
def below(rng, n):
    """``SplitMix64.below(n)``: uniform in ``[0, n)``, by rejection; no draw when ``n == 1``.

    Policies ask for at most 5 options: those get constant divisors (a multiply, not a divide).
    """
    if n == 1:
        return 0
    while True:
        x = next64(rng)
        if n == 2:
            return np.int64(x & np.uint64(1))
        if n == 3:
            if x < _LIMIT3:
                return np.int64(x % np.uint64(3))
        elif n == 4:
            return np.int64(x & np.uint64(3))
        elif n == 5:
            if x < _LIMIT5:
                return np.int64(x % np.uint64(5))
        else:
            span = np.uint64(n)
            rest = (np.uint64(0) - span) % span  # 2**64 mod n
            if rest == 0 or x < np.uint64(0) - rest:
                return np.int64(x % span)


@kernel(inline=True)
def chance(rng):
    """A float in [0, 1) from the top 53 bits of one draw."""
    return np.float64(next64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@kernel(inline=True)
def pick_of(mask, count, rng):
    """The move of a uniform pick among the set bits of ``mask`` (``count`` of them), in order."""
    pick = below(rng, count)
    for m in range(5):
        if (mask >> m) & 1:
            if pick == 0:
                return m
            pick -= 1
    return 0


@kernel(inline=True)
def safe_move(tiles, n, r0, c0, rng):
    """``cautious``: uniform among the moves whose hit leaves the tile standing; else none."""
    mask, count = 0, 0
    for m in range(5):
        r, c = r0 + DR[m], c0 + DC[m]
        if 0 <= r < n and 0 <= c < n and tiles[r * n + c] >= 2:
            mask |= 1 << m
            count += 1
    return pick_of(mask, count, rng) if count else 0


@kernel(inline=True)
def nearest(pos, alive, enemy, r, c):
    """Manhattan distance to the nearest living monster of team ``enemy`` (0 if none)."""
    best = -1
    for k in range(3 * enemy, 3 * enemy + 3):
        if alive[k]:
            d = abs(pos[k, 0] - r) + abs(pos[k, 1] - c)
            if best < 0 or d < best:
                best = d
    return 0 if best < 0 else best


@kernel
def region(work, n, r0, c0, seen, stamp, stack, base):
    """``lookahead.region_size``: strong tiles (>= 2) reachable from (r0, c0), at most 30.

    ``stack[base:]`` is the fill's scratch (what lies below ``base`` is the caller's).
    """
    seen[r0 * n + c0] = stamp
    stack[base] = r0 * n + c0
    top = base + 1
    count = 0
    while top > base and count < REGION_CAP:
        top -= 1
        cell = stack[top]
        if work[cell] >= 2:
            count += 1
        elif cell != r0 * n + c0:
            continue
        r, c = cell // n, cell % n
        for m in (1, 3, 4, 2):  # north, south, west, east as the built-in pushes them
            nr, nc = r + DR[m], c + DC[m]
            if 0 <= nr < n and 0 <= nc < n and seen[nr * n + nc] != stamp and work[nr * n + nc] >= 2:
                seen[nr * n + nc] = stamp
                stack[top] = nr * n + nc
                top += 1
    return min(count, REGION_CAP)


@kernel(inline=True)
def choose(kind, noise, side, tiles, n, pos, alive, rng, moves, work, seen, stack, stamp):
    """The moves of ``side``'s three monsters into ``moves[3*side:3*side+3]``."""
    enemy = 1 - side
    mirrored = kind >= MIRRORED
    kind = kind % MIRRORED
    if kind >= GREEDY:  # a private copy that takes the teammates' planned hits
        for i in range(n * n):
            work[i] = tiles[i]
    planned = 0  # lookahead: destinations of teammates already decided, as cells in ``stack``
    for i in range(3):
        k = 3 * side + i
        moves[k] = 0
        if not alive[k]:
            continue
        r0, c0 = pos[k, 0], pos[k, 1]
        if noise > 0.0 and chance(rng) < noise:
            moves[k] = safe_move(tiles, n, r0, c0, rng)
            continue
        if kind == RANDOM:
            mask, count = 0, 0
            for m in range(5):
                if 0 <= r0 + DR[m] < n and 0 <= c0 + DC[m] < n:
                    mask |= 1 << m
                    count += 1
            moves[k] = pick_of(mask, count, rng)
            continue
        if kind == SAFE:
            moves[k] = safe_move(tiles, n, r0, c0, rng)
            continue
        best, best_key = 0, np.int64(1) << 62
        for m in range(5):
            r, c = r0 + DR[m], c0 + DC[m]
            if not (0 <= r < n and 0 <= c < n):
                continue
            s = np.int64(work[r * n + c])
            d = nearest(pos, alive, enemy, r, c)
            rank = MIRROR_RANK[m] if mirrored else m
            if kind == GREEDY:
                key = (1 if s < 2 else 0) * 100000 + (3 - s) * 10000 + d * 10 + rank
            else:
                before = work[r * n + c]
                work[r * n + c] = max(before - 1, 0)
                stamp += 1
                room = region(work, n, r, c, seen, stamp, stack, planned)
                work[r * n + c] = before
                stacked = 0
                for q in range(planned):
                    if stack[q] == r * n + c:
                        stacked += 1
                twice = 200 * (1 if s >= 2 else 0) + 2 * room - 6 * stacked - d  # 2 x score
                key = (1000 - twice) * 10000 + d * 10 + rank
            if key < best_key:
                best, best_key = m, key
        moves[k] = best
        r, c = r0 + DR[best], c0 + DC[best]
        if work[r * n + c] > 0:
            work[r * n + c] -= 1
        stack[planned] = r * n + c
        planned += 1
    return stamp


@kernel(inline=True)
def _hit(tiles, alive, broken, k, i):
    """§5.2 hit: a tile of strength >= 1 loses one (its breaker dies at 0); a hole kills."""
    before = tiles[i]
    if before >= 1:
        tiles[i] = before - 1
        broken[k // 3] += 1
        if before == 1:
            alive[k] = 0
    else:
        alive[k] = 0


@kernel(inline=True)
def apply_turn(tiles, n, pos, alive, broken, moves):
    """``rules.step`` (§5.2 steps 4-7) in place; returns -1 while both teams live, else the
    winner (HOME, AWAY or NOBODY) with the reason in the next decimal (``10 * reason + winner``)."""
    for k in range(6):  # jumps land first
        if alive[k] and moves[k] == 0:
            _hit(tiles, alive, broken, k, pos[k, 0] * n + pos[k, 1])
    for k in range(6):
        if alive[k] and moves[k] != 0:
            r, c = pos[k, 0] + DR[moves[k]], pos[k, 1] + DC[moves[k]]
            pos[k, 0], pos[k, 1] = r, c
            if 0 <= r < n and 0 <= c < n:
                _hit(tiles, alive, broken, k, r * n + c)
            else:
                alive[k] = 0
    for k in range(6):  # the purge
        if alive[k] and tiles[pos[k, 0] * n + pos[k, 1]] == 0:
            alive[k] = 0
    home = alive[0] or alive[1] or alive[2]
    away = alive[3] or alive[4] or alive[5]
    if home and away:
        return -1
    if home or away:
        return 10 * ELIMINATED + (HOME if home else AWAY)
    if broken[0] != broken[1]:
        return 10 * TIEBREAK + (HOME if broken[0] > broken[1] else AWAY)
    return 10 * TIE + NOBODY


@kernel
def play_rounds(n, tiles0, pos0, alive0, broken0, kinds, noise, seeds, first, out,
                tiles, work, seen, stack, pos, alive, broken, moves, rng):
    """Play ``len(seeds)`` rounds from one start; ``out[round]`` gets its outcome (O_* columns).

    Args:
        n: board size; ``tiles0`` (n*n strengths), ``pos0`` (6x2), ``alive0`` (6), ``broken0``
            (2): the start, monsters home 0-2 then away 0-2.
        kinds, noise: each side's policy (RANDOM...) and noise probability.
        seeds: one SplitMix64 seed per round.
        first: per round, six moves for the first turn; a side whose first entry is -1 lets
            its policy choose.
        tiles, work, seen, stack (n*n each), pos (6x2), alive (6), broken (2), moves (6), rng
            (1, uint64): scratch (the kernels allocate nothing).
    """
    stamp = 0
    for g in range(len(seeds)):
        for i in range(n * n):
            tiles[i] = tiles0[i]
        for k in range(6):
            pos[k, 0], pos[k, 1], alive[k] = pos0[k, 0], pos0[k, 1], alive0[k]
        broken[0], broken[1] = broken0[0], broken0[1]
        rng[0] = seeds[g]
        turns = 0
        while True:
            turns += 1
            for side in range(2):
                if turns == 1 and first[g, 3 * side] >= 0:
                    for k in range(3 * side, 3 * side + 3):
                        moves[k] = first[g, k] if alive[k] else 0
                else:
                    stamp = choose(kinds[side], noise[side], side, tiles, n, pos, alive, rng, moves,
                                   work, seen, stack, stamp)
            end = apply_turn(tiles, n, pos, alive, broken, moves)
            if end >= 0:
                out[g, O_WINNER], out[g, O_REASON] = end % 10, end // 10
                out[g, O_BROKEN_HOME], out[g, O_BROKEN_AWAY] = broken[0], broken[1]
                out[g, O_TURNS] = turns
                break
