"""Corpus helpers for the format and compiler tests (T0, T1, round trips)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from studio.engines.btree import parse_yaml_game
from studio.engines.btree.model.schema import Node
from tests.shared_data import CORPUS

BTREE = CORPUS / "btree"

EMPTY_LINKS = {"games/games_yaml/dungeon.yaml", "games/games_yaml/blockdude.yaml", "games/games_yaml/limerick.yaml"}
"""Games that only load with missing_links = "empty": dungeon.yaml links the `plugin` slot its
includers define; blockdude.yaml and limerick.yaml include level files absent from the corpus."""


def _index() -> list[dict[str, Any]]:
    path = BTREE / "index.json"
    return json.loads(path.read_text(encoding="utf-8"))["games"] if path.exists() else []


GAMES = _index()
"""Index entries (empty without ../shared: the parametrised tests then have no cases and a
guard test skips with the reason)."""


def game_ids(entries: list[dict[str, Any]]) -> list[str]:
    return [entry["game"].removeprefix("games/") for entry in entries]


def missing_links_for(entry: dict[str, Any]) -> str:
    return "empty" if entry["game"] in EMPTY_LINKS else "error"


def normalise(value: Any, key: str | None = None, strict: bool = False) -> Any:
    """README comparison rules: numbers numerically, pids as strings, everything else exact.

    ``strict`` is the README's strict variant: pid types are compared too.
    """
    if not strict and key == "pid" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(int(value)) if float(value).is_integer() else str(value)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return ("num", float(value))
    if isinstance(value, list):
        return [normalise(v, None, strict) for v in value]
    if isinstance(value, dict):
        return {k: normalise(v, k, strict) for k, v in value.items()}
    return value


def expected(relative: str) -> Any:
    return json.loads((BTREE / relative).read_text(encoding="utf-8"))


def readme_resolver(top: Path):
    """The corpus README's include rule: `<folder of the top-level file>/<file>.yaml`."""

    def resolve(file: str, including: str) -> tuple[str, Node] | None:
        path = top.parent / f"{file}.yaml"
        if not path.is_file():
            return None
        return str(path.resolve()), parse_yaml_game(path.read_text(encoding="utf-8"), str(path)).tree

    return resolve
