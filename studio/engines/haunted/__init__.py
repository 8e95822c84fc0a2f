"""Haunted Tiles: AI matches on a board of breaking tiles (spec haunted.md).

Pure parts: ``board`` (maps), ``rules`` (one turn, §5), ``answers`` (the AI's view and the reading
of its answer, §7), ``match`` (the referee, §6), ``tournament`` (§11), ``replay`` (§4.5),
``maps`` (the shipped maps), ``sim`` (many rounds at once between simple policies, numba: the
fairness check and the ``montecarlo`` built-in's rollouts). ``inprocess`` runs the trusted
``builtin_ais`` in this process; only the AI runners in ``ai/`` start processes.
"""
