"""The game as written (btree.md §3, §4): node types and fields (``schema``), reading YAML and
JSON games (``reshape``) and writing trrbt JSON (``export``), boards (``board``) and their
plain-text views (``text``), and the error and warning types every diagnostic uses
(``errors``). Imports nothing else of the engine: every other part stands on it."""
