"""Counts in words, for every layer that writes messages (engines, storage, commands, screens)."""

from __future__ import annotations


def counted(count: int, noun: str) -> str:
    """``1 map``, ``2 maps``: a count and its noun, plural with an s when not 1."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
