"""Helpers for tests that read the btree corpus (../shared/corpus/btree)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from tests.shared_data import CORPUS, requires_shared

BTREE = CORPUS / "btree"


def corpus_dir() -> Path:
    """The btree corpus folder, or skip the calling test when ../shared is absent."""
    return requires_shared("corpus", "btree")


def trace_files() -> list[str]:
    """Names of every trace file (empty when the corpus is absent; the tests then skip)."""
    folder = BTREE / "traces"
    return sorted(p.name for p in folder.glob("*.jsonl")) if folder.exists() else []


@lru_cache(maxsize=None)
def load_json(relative: str) -> Any:
    """A JSON file of the corpus, parsed once per session."""
    return json.loads((corpus_dir() / relative).read_text(encoding="utf-8"))


def read_jsonl(path: Path) -> list[dict]:
    """Every line of a JSON Lines file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def normalise(value: Any, key: str | None = None) -> Any:
    """The README's comparison rules: numbers numerically, pids/players as strings."""
    if key in ("pid", "player") and isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(int(value)) if float(value).is_integer() else str(value)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, list):
        return [normalise(v) for v in value]
    if isinstance(value, dict):
        return {k: normalise(v, k) for k, v in value.items()}
    return value


def trace_boards(name: str) -> Iterator[dict]:
    """Every board recorded in one trace file."""
    for line in read_jsonl(corpus_dir() / "traces" / name):
        board = line.get("board")
        if board:
            yield board
