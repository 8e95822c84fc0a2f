"""From the authored tree to the plain tree the engine runs (btree.md §5, §6, §9): structural
checks (``checks``), the transform rules with their geometry and JavaScript regexes (``rules``,
``geometry``, ``jsregex``), the compiler itself (``compiler``), what it produces
(``compiled``) and the load-time warnings (``diagnostics``). Stands on ``model`` only."""
