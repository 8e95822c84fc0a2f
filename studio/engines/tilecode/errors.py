"""Errors of the TileCode engine."""

from __future__ import annotations


class TilecodeError(Exception):
    """A game the engine cannot run, or a misuse of the engine API.

    ``where`` names the place, e.g. ``rules[id=3] (2,2)`` or ``map``.
    """

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.message = message
        self.where = where
