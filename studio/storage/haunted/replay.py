"""Replay files of Haunted Tiles (spec haunted.md §4.5): JSON, gzip-compressed when the name ends
in ``.gz``. The document itself is built and checked by :mod:`studio.engines.haunted.replay`."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from studio.engines.haunted.replay import ReplayError, check
from studio.storage.atomic import atomic_write
from studio.storage.errors import ProjectError


def save_replay(document: dict[str, Any], path: str | Path) -> Path:
    """Write a replay atomically (no backup: replays are never edited in place)."""
    path = Path(path)
    data = json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8") + b"\n"
    if path.name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data, backup=False)
    except OSError as exc:
        raise ProjectError(f"cannot write the replay: {exc.strerror or exc}", file=path) from None
    return path


def load_replay(path: str | Path) -> dict[str, Any]:
    """Read and check a replay; every problem is a :class:`ProjectError` naming the file."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ProjectError(f"cannot read the replay: {exc.strerror or exc}", file=path) from None
    try:
        if data[:2] == b"\x1f\x8b":  # gzip magic, whatever the file is called
            data = gzip.decompress(data)
        document = json.loads(data.decode("utf-8"))
        return check(document)
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProjectError(f"not a readable replay: {exc}", file=path) from None
    except ReplayError as exc:
        raise ProjectError(str(exc), file=path) from None
