"""The solver (btree.md §8, §11.5): shortest winning lines and reachable boards
(:mod:`studio.engines.btree.search.solver`), over packed states.

``layout`` packs states, ``tables`` flattens the tree for the kernel, ``vm`` and ``machine`` are
the kernel (the engine on arrays), ``kernels`` expands and inserts batches of states, ``plain``
expands with ``Engine`` instead, ``runner`` and ``packed`` drive one search, ``reference`` is the
snapshot search the others are checked against, ``heuristics`` feeds best-first and A*, ``warm``
compiles the kernels ahead of a first solve. Stands on ``runtime``; numba loads only here.
"""
