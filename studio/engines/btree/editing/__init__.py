"""Edits of authored trees for the tree editor (btree.md §11.2), each returning a new tree:
addressing and labelling nodes (``tree_view``), structure edits and where a node may stand
(``tree_edit``, ``tree_fit``), node fields and reading typed values (``node_fields``,
``field_spec``, ``field_values``), pattern grids and their text form (``pattern_edit``), and the
map between compiled and authored nodes for highlights and breakpoints (``authored``)."""
