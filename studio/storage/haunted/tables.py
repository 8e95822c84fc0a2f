"""Checking a Haunted Tiles project's tables: the small checks every part of it uses, each
failing with a :class:`ProjectError` that names the field path."""

from __future__ import annotations

from typing import Any

from studio.storage.errors import ProjectError
from studio.storage.kinds import Body


def fail(message: str, *path: str | int, hint: str = "") -> ProjectError:
    return ProjectError(message, field_path=tuple(path), hint=hint)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def keys(table: Any, allowed: set[str], *path: str | int) -> dict[str, Any]:
    where = ".".join(str(p) for p in path) or "the file"
    if not isinstance(table, dict):
        raise fail(f"{where} must be a table", *path)
    for key in table:
        if key not in allowed:
            raise fail(f"unknown key {key!r}", *path, key, hint=f"allowed: {', '.join(sorted(allowed))}")
    return table


def list_of_tables(body: Body, key: str) -> list[dict[str, Any]]:
    value = body.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise fail(f"{key} must be an array of tables ([[{key}]])", key)
    return value


def match_table(body: Body) -> dict[str, Any]:
    table = body.get("match", {})
    return table if isinstance(table, dict) else {}
