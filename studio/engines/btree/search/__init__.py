"""The solver's search over packed states (see :mod:`studio.engines.btree.solver`).

``layout`` packs states, ``tables`` flattens the tree for the kernel, ``vm`` and ``machine`` are
the kernel (the engine on arrays), ``kernels`` expands and inserts batches of states, ``plain``
expands with ``Engine`` instead, ``runner`` and ``packed`` drive one search, ``reference`` is the
snapshot search the others are checked against, ``heuristics`` feeds best-first and A*.
"""
