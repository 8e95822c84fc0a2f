"""The commit (§6.11): the logs of a round become the next state."""

from __future__ import annotations

from .compiled import STEP
from .events import Commit
from .execute import Round
from .model import DIRECTIONS
from .state import RESTING, State


def commit(rnd: Round) -> State:
    """Apply destroys, creates, moves, paints and game commands; mark changed tiles."""
    state = rnd.state
    width = state.width
    changed: set[int] = set()
    destroy = rnd.destroy
    n = rnd.n

    # Destroys (1-2): removed before anything moves; their tiles change.
    for slot in destroy:
        x, y = rnd.position(slot)
        changed.add(y * width + x)

    # Survivors, existing then created (ascending id), with creates marking their tile (3).
    ids: list[int] = []
    kinds: list[int] = []
    xs: list[int] = []
    ys: list[int] = []
    dirs: list[int] = []
    moved: list[tuple[int, int, int, str]] = []
    rested: list[int] = []
    created: list[tuple[int, int, int, int]] = []
    pending, stop = rnd.pending, rnd.stop  # a cancelled move never became pending
    s_ids, s_kinds, s_xs, s_ys, s_dirs = state.ids, state.kinds, state.xs, state.ys, state.dirs
    total = n + len(rnd.created)
    for slot in range(total):
        if slot in destroy:
            continue
        if slot < n:
            sid, kind, x, y, last = s_ids[slot], s_kinds[slot], s_xs[slot], s_ys[slot], s_dirs[slot]
        else:
            kind, x, y, _ = rnd.created[slot - n]
            sid, last = state.next_id + slot - n, RESTING
            changed.add(y * width + x)
            created.append((sid, kind, x, y))
        # Moves (4): one tile in the pending direction unless stopped or cancelled.
        d = pending.get(slot)
        if d is not None and slot not in stop:
            changed.add(y * width + x)
            if rnd.record:
                moved.append((sid, x, y, DIRECTIONS[d]))
            x += STEP[d][0]
            y += STEP[d][1]
            changed.add(y * width + x)
        else:
            d = RESTING
            if slot in stop or last != RESTING:
                changed.add(y * width + x)
            if rnd.record:
                rested.append(sid)
        ids.append(sid)
        kinds.append(kind)
        xs.append(x)
        ys.append(y)
        dirs.append(d)

    return finish(rnd, (ids, kinds, xs, ys, dirs), changed, moved, rested, created)


def finish(rnd: Round, columns: tuple[list[int], ...], changed: set[int],
           moved: list[tuple[int, int, int, str]], rested: list[int],
           created: list[tuple[int, int, int, int]]) -> State:
    """Steps 5–7 of the commit (paints, game log, blocks) and the new state."""
    state = rnd.state
    width = state.width
    destroy = rnd.destroy
    ids, kinds, xs, ys, dirs = columns
    # Paints (5): row-major, one uniform pick per tile, a mark only if the kind changes.
    bg = state.bg
    paints: list[tuple[int, int, int]] = []
    if rnd.paint_log:
        new_bg: list[int] | None = None
        for tile in sorted(rnd.paint_log):
            log = rnd.paint_log[tile]
            kind = log[rnd.draw("paint", log)] if len(log) > 1 else log[0]
            if kind != bg[tile]:
                if new_bg is None:
                    new_bg = list(bg)
                new_bg[tile] = kind
                rnd.painted.append((tile, kind))
                changed.add(tile)
                paints.append((tile % width, tile // width, kind))
        if new_bg is not None:
            bg = tuple(new_bg)

    # Game log (6): lose beats win.
    points = 10 * rnd.game_log.count("score")
    score = state.score + points
    status = state.status
    if "lose" in rnd.game_log:
        status = "lost"
    elif "win" in rnd.game_log:
        status = "won"
    if rnd.record:
        rnd.events.append(Commit(
            destroyed=tuple(sorted(rnd.sprite_id(s) for s in destroy)),
            created=tuple(created), moved=tuple(moved), rested=tuple(rested),
            paints=tuple(paints), score=points, status=status,
            changed=tuple((t % width, t // width) for t in sorted(changed)),
        ))
    return State(
        round=state.round + 1, status=status, score=score,
        high_score=max(state.high_score, score), width=width, height=state.height, bg=bg,
        ids=_same(state.ids, ids), kinds=_same(state.kinds, kinds), xs=_same(state.xs, xs),
        ys=_same(state.ys, ys), dirs=_same(state.dirs, dirs),
        changed=frozenset(changed), blocked=frozenset(rnd.block_next), rng=rnd.rng.state,
        next_id=state.next_id + len(rnd.created),
    )


def _same(old: tuple[int, ...], new: list[int]) -> tuple[int, ...]:
    """Reuse the old column when nothing changed (keeps caches keyed on identity warm)."""
    fresh = tuple(new)
    return old if fresh == old else fresh
