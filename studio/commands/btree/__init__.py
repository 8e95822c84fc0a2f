"""The ``studio`` commands of behaviour-tree games: import/export/expand (``formats``),
run/trace (``play``) and solve (``solve``)."""
