"""The commit's sprite steps (§6.11 steps 1–4) on numpy columns, for crowded maps.

Same result as :func:`.commit.commit` (tests compare them): destroyed sprites leave, created
ones join, movers step, everything else rests; the changed tiles are collected as arrays.
"""

from __future__ import annotations

import numpy as np

from .commit import finish
from .execute import Round
from .model import DIRECTIONS
from .state import RESTING, State

_DX = np.array([-1, 0, 1, 0, 0], dtype=np.int64)
_DY = np.array([0, -1, 0, 1, 0], dtype=np.int64)


def _ints(values, count: int | None = None) -> np.ndarray:
    values = list(values) if count is None else values
    return np.fromiter(values, dtype=np.int64, count=len(values) if count is None else count)


def commit_np(rnd: Round) -> State:
    state, world = rnd.state, rnd.world
    width, n = state.width, rnd.n
    xs, ys, kinds, last = world.columns()
    ids = _ints(state.ids, n)
    made = rnd.created
    if made:
        c = len(made)
        ids = np.concatenate([ids, np.arange(state.next_id, state.next_id + c)])
        kinds = np.concatenate([kinds, _ints(m[0] for m in made)])
        xs = np.concatenate([xs, _ints(m[1] for m in made)])
        ys = np.concatenate([ys, _ints(m[2] for m in made)])
        last = np.concatenate([last, np.full(c, RESTING, dtype=np.int64)])
    total = len(ids)
    pend = np.full(total, -1, dtype=np.int64)
    if rnd.pending:
        pend[_ints(rnd.pending.keys())] = _ints(rnd.pending.values())
    alive = np.ones(total, dtype=bool)
    if rnd.destroy:
        alive[_ints(rnd.destroy)] = False
    stopped = np.zeros(total, dtype=bool)
    if rnd.stop:
        stopped[_ints(rnd.stop)] = True
    tiles = ys * width + xs
    moving = alive & (pend >= 0) & ~stopped
    step = np.where(moving, pend, 4)
    nx, ny = xs + _DX[step], ys + _DY[step]
    marks = [tiles[~alive], tiles[moving], (ny * width + nx)[moving],
             tiles[alive & ~moving & (stopped | (last != RESTING))]]
    if made:
        fresh = np.zeros(total, dtype=bool)
        fresh[n:] = True
        marks.append(tiles[fresh & alive])
    changed = set(np.concatenate(marks).tolist())
    dirs = np.where(moving, pend, RESTING)
    out = tuple(col[alive].tolist() for col in (ids, kinds, nx, ny, dirs))
    moved: list[tuple[int, int, int, str]] = []
    rested: list[int] = []
    created: list[tuple[int, int, int, int]] = []
    if rnd.record:
        moved = [(i, x, y, DIRECTIONS[d]) for i, x, y, d in zip(
            ids[moving].tolist(), xs[moving].tolist(), ys[moving].tolist(),
            pend[moving].tolist())]
        rested = ids[alive & ~moving].tolist()
        if made:
            keep = alive[n:]
            created = [(i, k, x, y) for i, k, x, y, ok in zip(
                ids[n:].tolist(), kinds[n:].tolist(), xs[n:].tolist(), ys[n:].tolist(),
                keep.tolist()) if ok]
    return finish(rnd, out, changed, moved, rested, created)
