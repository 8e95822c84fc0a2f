"""The indexed min-heap the reach heuristic's Dijkstra queues its nodes in."""

from __future__ import annotations

import numpy as np
import pytest

from studio.engines.btree.search.iheap import improve, pop


@pytest.mark.parametrize("plain", [False, True], ids=["kernel", "plain"])
def test_nodes_come_out_nearest_first_and_a_shorter_distance_moves_a_node_up(plain: bool) -> None:
    push = improve.py_func if plain else improve
    take = pop.py_func if plain else pop
    nodes = 6
    mi = np.zeros(3 * nodes, np.int32)
    dist, heap, where = 0, nodes, 2 * nodes
    mi[where:where + nodes] = -1
    n = 0
    for v, d in [(0, 50), (1, 20), (2, 40), (3, 10), (4, 30)]:
        n = push(mi, dist, heap, where, n, v, d)
    n = push(mi, dist, heap, where, n, 2, 5)  # queued already: moved up, not queued twice
    assert n == 5
    out = []
    while n > 0:
        node, n = take(mi, dist, heap, where, n)
        out.append((int(node), int(mi[dist + node])))
        assert mi[where + node] == -2
    assert out == [(2, 5), (3, 10), (1, 20), (4, 30), (0, 50)]
    assert mi[where + 5] == -1  # never queued
