"""Phase 3 (§6.9): smash detection on pending moves, in passes until no new stop.

Colliders come from a scan of the four tiles around the target (reference path) or from an
index of targets built once per round (fast path); tests check both give the same firings.
"""

from __future__ import annotations

from .compiled import OPPOSITE, PRED_OK, STEP, CView
from .events import StopPass
from .execute import Round

MOVING = 5  # direction-predicate code of "moving"; "resting" is 4, "any" 6


def _status_ok(pred: int, move: int | None) -> bool:
    """Does a collider's status (pending move, None = resting) satisfy the collide ``dir``?"""
    if move is None:
        return PRED_OK[pred][4]
    if pred == MOVING:
        return True
    return PRED_OK[pred][move] if pred < 4 else pred == 6


STATUS_OK = tuple(
    tuple(_status_ok(pred, None if move == -1 else move) for move in (0, 1, 2, 3, -1))
    for pred in range(7)
)
"""``STATUS_OK[pred][move]`` with move -1 (the last entry) for a resting collider."""


def run_smash(rnd: Round, smash_views: dict[tuple[int, int], list[CView]],
              blocked: frozenset[int], indexed: bool) -> None:
    """Fire smash views for every mover; ``smash_views[(kind, dir)]`` in rule/view order."""
    state = rnd.state
    width, height = state.width, state.height
    bg = state.bg
    status: dict[int, int] = dict(rnd.pending)  # moving slots -> direction, frozen per pass
    targets: dict[int, int] = {}
    movers: list[tuple[int, int, list[CView]]] = []
    n, kinds, xs, ys = rnd.n, state.kinds, state.xs, state.ys
    for slot in sorted(status):
        d = status[slot]
        if slot < n:
            kind, x, y = kinds[slot], xs[slot], ys[slot]
        else:
            kind, x, y, _ = rnd.created[slot - n]
        targets[slot] = (y + STEP[d][1]) * width + x + STEP[d][0]
        views = smash_views.get((kind, d))
        if views and kind not in blocked:
            movers.append((slot, d, views))
    if not movers:
        return
    if indexed:
        into: dict[int, list[int]] = {}
        for slot in sorted(status):
            target = targets[slot]
            entering = into.get(target)
            if entering is None:
                into[target] = [slot]
            else:
                entering.append(slot)
        # Movers into an empty tile with no matching background cannot smash: skip them.
        occupied = rnd.world.index
        created_at = rnd.created_at
        kept = []
        for mover in movers:
            target = targets[mover[0]]
            if (target in occupied or target in created_at or len(into[target]) > 1
                    or any(bg[target] in cv.collide_bg for cv in mover[2])):
                kept.append(mover)
        movers = kept
    fired: set[tuple[int, int, int | None]] = set()
    stopped_last: list[int] = []
    stopped_at: dict[int, list[int]] = {}
    pass_index = 1
    while True:
        stopped_before = set(rnd.stop)
        for mover, d, views in movers:
            if mover not in status:
                continue  # stopped in an earlier pass
            target = targets[mover]
            if pass_index > 1:
                colliders = stopped_at.get(target)
                if colliders is None:
                    continue
            else:
                colliders = None
            for cv in views:
                if cv.collide_pos is None:
                    continue
                if pass_index == 1 and bg[target] in cv.collide_bg:
                    key = (mover, id(cv), None)
                    if key not in fired:
                        fired.add(key)
                        rnd.fire("smash", cv, mover, (), None)
                    continue
                if colliders is None:
                    if indexed:
                        colliders = _colliders_indexed(rnd, status, into, mover, d, target)
                    else:
                        colliders = _colliders_scan(rnd, status, mover, d, target, width, height)
                wanted, ok = cv.collide_kinds, STATUS_OK[cv.collide_pred]
                for other in colliders:
                    if (kinds[other] if other < n else rnd.kind(other)) not in wanted:
                        continue
                    if not ok[status.get(other, -1)]:
                        continue
                    key = (mover, id(cv), other)
                    if key not in fired:
                        fired.add(key)
                        rnd.fire("smash", cv, mover, (), other)
        # Stops take effect when the pass ends: stopped movers become resting obstacles.
        stopped_last = sorted(s for s in rnd.stop - stopped_before if s in status)
        stopped_at = {}
        for slot in stopped_last:
            del status[slot]
            x, y = rnd.position(slot)
            stopped_at.setdefault(y * width + x, []).append(slot)
        if rnd.record:
            rnd.events.append(StopPass(pass_index, tuple(rnd.sprite_id(s) for s in stopped_last)))
        if not stopped_last:
            return
        pass_index += 1


def _colliders_scan(rnd: Round, status: dict[int, int], mover: int, d: int, target: int,
                    width: int, height: int) -> list[int]:
    """Cases (a), (a′) and (b) of §6.9 by looking at T and its neighbours; ascending id."""
    tx, ty = target % width, target // width
    found: list[int] = []
    for other in _on(rnd, target):
        if other == mover:
            continue
        move = status.get(other)
        if move is None or move == OPPOSITE[d]:
            found.append(other)
    back = OPPOSITE[d]
    for side in range(4):
        if side == back:
            continue  # the mover's own tile
        nx, ny = tx + STEP[side][0], ty + STEP[side][1]
        if not (0 <= nx < width and 0 <= ny < height):
            continue
        into = OPPOSITE[side]  # direction from that neighbour into the target
        for other in _on(rnd, ny * width + nx):
            if other != mover and status.get(other) == into:
                found.append(other)
    found.sort()
    return found


def _colliders_indexed(rnd: Round, status: dict[int, int], into: dict[int, list[int]],
                       mover: int, d: int, target: int) -> list[int]:
    """The same set from the tile index and the round's target index."""
    found = [o for o in _on(rnd, target)
             if status.get(o) is None or status[o] == OPPOSITE[d]]
    here = rnd.position(mover)
    entering = into[target]
    if len(entering) > 1:
        found += [o for o in entering if o != mover and rnd.position(o) != here]
    if len(found) > 1:
        found.sort()
    return found


def _on(rnd: Round, tile: int) -> list[int]:
    here = rnd.world.on_tile_by_id(tile)
    extra = rnd.created_at.get(tile)
    return here + extra if extra else here
