"""TileCode replay files (spec tilecode.md §4.4): ``NAME.tcreplay.toml`` beside the project.

    format = "studio-tilecode-replay"
    version = 1
    project = "hello-world.toml"
    project_sha256 = "…"
    seed = 42
    rounds = 240
    result = "won"
    score = 120
    inputs = [[3, "right"], [9, "up A"]]

The writer is canonical (keys in this order, buttons in the order ``left up right down A``), so
``dumps_replay(loads_replay(text)) == text`` for files the studio wrote. The replay itself and
its checks live in :mod:`studio.engines.tilecode.replay`.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.engines.common.limits import MAX_REPLAY_ROUNDS
from studio.engines.tilecode.model import BUTTONS
from studio.storage.atomic import atomic_write
from studio.storage.errors import FieldPath, ProjectError
from studio.storage.listing import REPLAY_SUFFIX, is_replay_name  # noqa: F401  (named here too)
from studio.storage.project import Project, dumps_project, read_text_file
from studio.storage.tomlio import dumps, locate_field, parse_toml

if TYPE_CHECKING:
    from studio.engines.tilecode.replay import Replay

# The replay engine loads with the first replay read: listing a folder asks only whether each
# file is one (is_replay_name).

FORMAT = "studio-tilecode-replay"
VERSION = 1
"""The newest replay version this studio reads and the one it writes."""
KEYS = ("format", "version", "project", "project_sha256", "seed", "rounds", "result", "score",
        "inputs")
"""Every key of a replay file, in the order the writer puts them."""
_SHA256 = re.compile(r"[0-9a-f]{64}\Z")


RUN_NEUTRAL = ("high_score", "round_ms", "help", "render", "seed")
"""[game] settings that never change what a run does given its seed and inputs."""


def project_sha256(project: Project) -> str:
    """Hex SHA-256 of the project's canonical text (§4.1 writer output, UTF-8), without the
    ``[game]`` settings that cannot change a run (:data:`RUN_NEUTRAL`).

    Play stores a beaten high score in the project; hashing it would make every earlier replay
    of the game report "project changed" although it plays back the same.

    Args:
        project: a loaded project.

    Returns:
        64 lowercase hex digits; unchanged by saving, changed by any edit of the map, the art,
        the kinds or the rules.
    """
    game = project.body.get("game")
    if isinstance(game, dict):
        kept = {key: value for key, value in game.items() if key not in RUN_NEUTRAL}
        project = Project(project.header, {**project.body, "game": kept}, project.path)
    return hashlib.sha256(dumps_project(project).encode("utf-8")).hexdigest()


def project_changed(replay: Replay, project: Project) -> bool:
    """Was the project edited since the replay was recorded?

    Args:
        replay: the recording; an empty ``project_sha256`` means unknown (never "changed").
        project: the project it is about to be played on.

    Returns:
        True when the recorded hash differs from the project's canonical text.
    """
    return bool(replay.project_sha256) and replay.project_sha256 != project_sha256(project)


def replay_project_path(replay_path: str | Path, replay: Replay) -> Path | None:
    """The project a replay file was recorded on, when it sits beside the replay.

    Args:
        replay_path: the replay file.
        replay: its contents (``replay.project`` names the project file).

    Returns:
        The project file beside the replay, or None when there is none by that name.
    """
    name = Path(replay.project).name  # informative field: never let it point elsewhere
    if not name:
        return None
    candidate = Path(replay_path).with_name(name)
    return candidate if candidate.is_file() else None


def dumps_replay(replay: Replay) -> str:
    """The canonical text of a replay file.

    Args:
        replay: the replay to write.

    Returns:
        TOML text with the keys in the order of §4.4, ending with a newline.
    """
    return dumps({
        "format": FORMAT, "version": VERSION, "project": replay.project,
        "project_sha256": replay.project_sha256, "seed": replay.seed, "rounds": replay.rounds,
        "result": replay.result, "score": replay.score,
        "inputs": [[index, " ".join(buttons)] for index, buttons in replay.inputs],
    })


def loads_replay(text: str, file: Path | None = None) -> Replay:
    """Read replay text.

    Args:
        text: the file's contents.
        file: the file it came from, named in errors.

    Returns:
        The replay.

    Raises:
        ProjectError: naming the file, the line and field where found, and what to do.
    """
    document = parse_toml(text, file)
    try:
        return _replay(document)
    except ProjectError as exc:
        line = locate_field(text, exc.field_path) if exc.field_path else None
        raise exc.with_file(file, line) from None


def load_replay(path: str | Path) -> Replay:
    """Read a replay file.

    Args:
        path: the ``.tcreplay.toml`` file.

    Returns:
        The replay.

    Raises:
        ProjectError: the file cannot be read or is not a valid replay.
    """
    path = Path(path)
    return loads_replay(read_text_file(path), path)


def save_replay(replay: Replay, path: str | Path) -> Path:
    """Write a replay file atomically (no backup: replays are recordings, never edited).

    Args:
        replay: the replay.
        path: where to write it (conventionally ``NAME.tcreplay.toml``).

    Returns:
        The path written.

    Raises:
        ProjectError: the file cannot be written.
    """
    path = Path(path)
    try:
        atomic_write(path, dumps_replay(replay).encode("utf-8"), backup=False)
    except OSError as exc:
        raise ProjectError(f"cannot write the replay: {exc.strerror or exc}", file=path,
                           hint="check that the folder exists and is writable") from None
    return path


def replay_path_for(project_path: str | Path, when: _dt.datetime | None = None) -> Path:
    """A free replay file name beside a project.

    ``games/hello-world.toml`` gives ``games/hello-world.tcreplay.toml``, then
    ``hello-world-2.tcreplay.toml`` and so on when taken. With ``when`` the time is part of the
    name (``hello-world-20260123-153000.tcreplay.toml``) so recordings sort by date.

    Args:
        project_path: the project file.
        when: the time of the recording, or None for a plain name.

    Returns:
        A path that does not exist yet.
    """
    project_path = Path(project_path)
    stem = project_path.name
    for suffix in (".toml", ".tilecode"):
        if stem.lower().endswith(suffix) and len(stem) > len(suffix):
            stem = stem[: -len(suffix)]
    if when is not None:
        stem += when.strftime("-%Y%m%d-%H%M%S")
    candidate = project_path.with_name(stem + REPLAY_SUFFIX)
    number = 2
    while candidate.exists():
        candidate = project_path.with_name(f"{stem}-{number}{REPLAY_SUFFIX}")
        number += 1
    return candidate


# ------------------------------------------------------------------------------------ checking


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _replay(document: dict[str, Any]) -> Replay:
    from studio.engines.tilecode.replay import MAX_SEED, RESULTS, Replay

    fmt = document.get("format")
    if fmt != FORMAT:
        what = "has no format key" if fmt is None else f"has format {fmt!r}"
        raise ProjectError(
            f"not a TileCode replay: the file {what}",
            field_path=("format",) if fmt is not None else (),
            hint=f'a TileCode replay starts with format = "{FORMAT}"',
        )
    version = document.get("version")
    if not _is_int(version) or version < 1:
        raise ProjectError("version must be a whole number, 1 or more", field_path=("version",),
                           hint=f"this studio writes version = {VERSION}")
    if version > VERSION:
        raise ProjectError(
            f"this replay has version {version}, but this studio reads versions up to {VERSION}",
            field_path=("version",),
            hint="it was recorded by a newer studio: upgrade the studio to play it",
        )
    for key in document:
        if key not in KEYS:
            raise ProjectError(f"unknown key {key!r}", field_path=(key,),
                               hint=f"a replay holds only {', '.join(KEYS)}; check the spelling")
    for key in KEYS:
        if key not in document:
            raise ProjectError(f"the replay has no {key!r}",
                               hint=f"add {key} = …; 'studio run --save-replay' writes whole replays")
    project = document["project"]
    if not isinstance(project, str):
        raise ProjectError("project must be a string", field_path=("project",),
                           hint='write the project file name, e.g. project = "hello-world.toml"')
    sha = document["project_sha256"]
    if not isinstance(sha, str) or not (sha == "" or _SHA256.match(sha)):
        raise ProjectError("project_sha256 must be 64 lowercase hex digits", field_path=(
            "project_sha256",), hint='use "" when unknown: the project is then not compared')
    seed = document["seed"]
    if not _is_int(seed) or not 0 <= seed < MAX_SEED:
        raise ProjectError(f"seed must be a whole number in [0, 2^63): {seed!r}",
                           field_path=("seed",), hint="use the seed the recorded run showed")
    rounds = document["rounds"]
    if not _is_int(rounds) or rounds < 0:
        raise ProjectError(f"rounds must be a whole number, 0 or more: {rounds!r}",
                           field_path=("rounds",),
                           hint="it counts the rounds executed, round 0 included")
    if rounds > MAX_REPLAY_ROUNDS:
        raise ProjectError(f"rounds is {rounds}: a replay holds at most {MAX_REPLAY_ROUNDS:,}",
                           field_path=("rounds",), hint="record a shorter run")
    result = document["result"]
    if result not in RESULTS:
        raise ProjectError(f"bad result {result!r}", field_path=("result",),
                           hint=f"use {', '.join(RESULTS)}")
    score = document["score"]
    if not _is_int(score) or score < 0:
        raise ProjectError(f"score must be a whole number, 0 or more: {score!r}",
                           field_path=("score",), hint="use the final score the run showed")
    inputs = _inputs(document["inputs"], rounds)
    return Replay(project, sha, seed, rounds, result, score, inputs)


def _inputs(value: Any, rounds: int) -> tuple[tuple[int, tuple[str, ...]], ...]:
    from studio.engines.tilecode.replay import canonical_buttons

    if not isinstance(value, list):
        raise ProjectError("inputs must be a list of [round, buttons] pairs",
                           field_path=("inputs",), hint='e.g. inputs = [[3, "right"], [9, "up A"]]')
    out: list[tuple[int, tuple[str, ...]]] = []
    previous = 0
    for position, entry in enumerate(value):
        where: FieldPath = ("inputs", position)
        if (not isinstance(entry, list) or len(entry) != 2 or not _is_int(entry[0])
                or not isinstance(entry[1], str)):
            raise ProjectError(f"input {entry!r} is not a [round, buttons] pair",
                               field_path=where, hint='write e.g. [3, "right"] or [9, "up A"]')
        index, text = entry
        if not 1 <= index <= rounds - 1:
            raise ProjectError(
                f"input for round {index} is outside rounds 1..{rounds - 1}", field_path=where,
                hint="round 0 takes no buttons and rounds counts every round run; "
                     "fix the round index or rounds")
        if index <= previous:
            raise ProjectError(
                f"input for round {index} comes after round {previous}", field_path=where,
                hint="list the rounds in ascending order, each round once")
        names = text.split()
        if not names:
            raise ProjectError(f"input for round {index} has an empty button string",
                               field_path=where,
                               hint="drop the entry: rounds not listed had no button")
        for name in names:
            if name not in BUTTONS:
                raise ProjectError(f"unknown button {name!r} in round {index}", field_path=where,
                                   hint=f"use {', '.join(BUTTONS)}, separated by spaces")
        out.append((index, canonical_buttons(names)))
        previous = index
    return tuple(out)
