"""Haunted Tiles: AI matches on a board of breaking tiles (spec haunted.md).

The rules engine is pure; only the AI runners in ``ai/`` start processes.
"""
