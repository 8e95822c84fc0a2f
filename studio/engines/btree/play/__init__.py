"""Playing a game (btree.md §11.3): a session with seats — people, random, first-choice, the
solver or the computer (``seats``, ``computer``) — that runs the engine from wait to wait
(``session``), the waits it stops at and the solver line it keeps (``waits``, ``solver_seat``),
and the computer against itself (``balance``). The use case ``studio run`` and the play screen
share; stands on ``runtime`` and, for the solver's and the computer's seats, ``search``."""
