"""A played game's replay beside its project (btree.md §4.5): ``NAME.btreplay.json``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.engines.common.limits import MAX_REPLAY_BYTES, MAX_REPLAY_ROUNDS
from studio.storage.atomic import atomic_write
from studio.storage.errors import ProjectError
from studio.storage.project import Project, dumps_project
from studio.storage.reading import decode_text, parse_json, read_bounded

REPLAY_SUFFIX = ".btreplay.json"
REPLAY_FORMAT = "studio-btree-replay"  # the session's (engines.btree.play.session), not imported:
# the home screen lists replays without loading the engine


@dataclass(frozen=True)
class BtreeReplay:
    """A saved play run: the seed, the board it started from (or None) and every choice made."""

    seed: int
    choices: tuple[int, ...]
    board: dict[str, Any] | None
    game_sha256: str
    result: dict[str, Any] | None

    @property
    def result_text(self) -> str:
        from studio.engines.btree.model.text import result_text

        return result_text(self.result) if self.result else "not finished"


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def load_replay(path: str | Path) -> BtreeReplay:
    """Read a ``.btreplay.json`` (bounded, checked). Raises :class:`ProjectError`."""
    path = Path(path)
    data = parse_json(decode_text(read_bounded(path, MAX_REPLAY_BYTES, "a replay"), path), path)
    if not isinstance(data, dict) or data.get("format") != REPLAY_FORMAT:
        raise ProjectError("not a behaviour-tree replay", file=path,
                           hint=f"expected a JSON object with format {REPLAY_FORMAT!r}")
    choices, seed, board = data.get("choices"), data.get("seed"), data.get("board")
    if not isinstance(choices, list) or not all(_int(c) and c >= 0 for c in choices):
        raise ProjectError("choices must be a list of move numbers (0 and up)", file=path)
    if len(choices) > MAX_REPLAY_ROUNDS:
        raise ProjectError(f"more than {MAX_REPLAY_ROUNDS} moves", file=path)
    if not _int(seed) or not 0 <= seed < 2**53:
        raise ProjectError("seed must be a whole number in [0, 2^53)", file=path)
    if board is not None and not isinstance(board, dict):
        raise ProjectError("board must be a board (an object) or null", file=path)
    result = data.get("result")
    return BtreeReplay(seed, tuple(choices), board, str(data.get("game_sha256", "")),
                       result if isinstance(result, dict) else None)


def replay_project_path(path: Path) -> Path:
    """The project a replay belongs to: the ``.toml`` of its name beside it."""
    return path.with_name(path.name[: -len(REPLAY_SUFFIX)] + ".toml")


def replay_changed(replay: BtreeReplay, project: Project) -> bool:
    """Whether the project differs from the one the run was played on."""
    return hashlib.sha256(dumps_project(project).encode()).hexdigest() != replay.game_sha256


def replay_path(project_path: Path) -> Path:
    """Where a game's replay goes: beside the project file, named after it."""
    return project_path.with_name(project_path.stem + REPLAY_SUFFIX)


def save_replay(project_path: Path, project: Project,
                replay_data: Callable[[str], dict[str, Any]]) -> Path:
    """Write the replay beside ``project_path``; returns the file written.

    ``replay_data`` (``PlaySession.replay_data``) is given the SHA-256 of the project's saved
    text, which ties the replay to the game it was played on.
    """
    sha = hashlib.sha256(dumps_project(project).encode()).hexdigest()
    target = replay_path(project_path)
    atomic_write(target, json.dumps(replay_data(sha), indent=1).encode(), backup=False)
    return target
