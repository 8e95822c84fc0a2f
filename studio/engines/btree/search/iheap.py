"""An indexed binary min-heap of nodes in a scratch array, for the kernels' Dijkstras.

Three regions of ``mi``, each as long as the nodes: ``dist`` (a node's distance), ``heap`` (the
heap's nodes) and ``where`` (a node's place in the heap: -1 never queued, -2 popped). Keeping
each node's place lets a shorter distance move it up where it is (decrease-key) instead of
queueing it twice.
"""

from __future__ import annotations

from studio.engines.jit import kernel


@kernel(inline=True)
def improve(mi, dist, heap, where, n, v, d):
    """Lower ``v``'s distance to ``d`` (putting it in the heap if new); the heap's new size."""
    mi[dist + v] = d
    i = mi[where + v]
    if i < 0:
        i = n
        mi[heap + i] = v
        mi[where + v] = i
        n += 1
    while i > 0:  # up
        up = (i - 1) // 2
        w = mi[heap + up]
        if mi[dist + w] <= d:
            break
        mi[heap + i], mi[where + w] = w, i
        i = up
    mi[heap + i], mi[where + v] = v, i
    return n


@kernel(inline=True)
def _sift_down(mi, dist, heap, where, n, i):
    v = mi[heap + i]
    d = mi[dist + v]
    while True:
        a = 2 * i + 1
        if a >= n:
            break
        if a + 1 < n and mi[dist + mi[heap + a + 1]] < mi[dist + mi[heap + a]]:
            a += 1
        w = mi[heap + a]
        if mi[dist + w] >= d:
            break
        mi[heap + i], mi[where + w] = w, i
        i = a
    mi[heap + i], mi[where + v] = v, i


@kernel(inline=True)
def pop(mi, dist, heap, where, n):
    """The nearest node, taken out (its place set to -2), and the heap's new size."""
    node = mi[heap]
    n -= 1
    mi[where + node] = -2
    if n > 0:
        last = mi[heap + n]
        mi[heap] = last
        mi[where + last] = 0
        _sift_down(mi, dist, heap, where, n, 0)
    return node, n
