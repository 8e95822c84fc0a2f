"""Running a compiled game (btree.md §7, §8, §11.3, §11.4): the explicit-stack engine
(``engine``) and the calls of its nodes (``controls``, ``tiles``, through ``stepper``), the
program form (``nodes``, ``pattern``), the board and matchers (``boardstate``, ``fastmatch``,
the reference ``match``), the reference RNG (``rng``), snapshots and events, the offered moves
(``choice``); and what steps it for tools: the debugger (``debugger``), the corpus traces
(``trace``) and successor sets (``oracle``). Stands on ``model``."""
