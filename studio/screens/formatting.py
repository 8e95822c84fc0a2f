"""How screens write values for people."""

from __future__ import annotations


def summary_value(value: object) -> str:
    """A summary value as people write it: lists as ``a, b``, nothing as ``-``."""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(item) for item in value) or "-"
    if isinstance(value, dict):
        return ", ".join(f"{key} {item}" for key, item in value.items()) or "-"
    return str(value)
