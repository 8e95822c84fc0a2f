"""Playing a game (btree.md §11.3): a session with seats — people, random, first-choice or the
solver — that runs the engine from wait to wait (``session``), and the waits it stops at and
the solver line it keeps (``waits``). The use case ``studio run`` and the play screen share;
stands on ``runtime`` and, for the solver's seats, ``search``."""
