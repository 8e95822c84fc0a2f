"""Replay files of Haunted Tiles (spec haunted.md §4.5): JSON, gzip-compressed when the name ends
in ``.gz``. The document itself is built and checked by :mod:`studio.engines.haunted.replay`."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from studio.engines.common.limits import MAX_REPLAY_BYTES
from studio.engines.haunted.replay import ReplayError, check
from studio.storage.atomic import atomic_write
from studio.storage.errors import ProjectError
from studio.storage import served
from studio.storage.reading import decode_text, gunzip_bounded, parse_json, read_bounded


def save_replay(document: dict[str, Any], path: str | Path) -> Path:
    """Write a replay atomically (no backup: replays are never edited in place)."""
    path = Path(path)
    data = json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8") + b"\n"
    if path.name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    try:
        served.make_folder(path.parent)
        atomic_write(path, data, backup=False)
    except OSError as exc:
        raise ProjectError(f"cannot write the replay: {exc.strerror or exc}", file=path) from None
    return path


def load_replay(path: str | Path) -> dict[str, Any]:
    """Read and check a replay; every problem is a :class:`ProjectError` naming the file (and
    the field, when one is missing or of the wrong type).

    Bounded at every step (``MAX_REPLAY_BYTES`` read, the same unpacked, nesting), so a gzip
    bomb, a FIFO or a file of brackets is an error, not a studio out of memory or waiting.
    """
    path = Path(path)
    data = read_bounded(path, MAX_REPLAY_BYTES, "a replay")
    if data[:2] == b"\x1f\x8b":  # gzip magic, whatever the file is called
        data = gunzip_bounded(data, MAX_REPLAY_BYTES, path)
    document = parse_json(decode_text(data, path, "the replay"), path)
    try:
        return check(document)
    except ReplayError as exc:
        raise ProjectError(exc.message, file=path, field_path=exc.path,
                           hint="this is not a replay the studio wrote, or it was edited") from None
