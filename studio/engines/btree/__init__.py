"""Behaviour-tree games with tile-rewrite leaves (a re-implementation of trrbt).

Pure: no Textual, no Rich, no terminal. See ../shared/specs/btree.md.
"""
