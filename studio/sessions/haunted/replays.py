"""Where a Haunted Tiles project keeps its replays, and what the replay browser lists
(haunted.md §4.1: "replays … live in a ``replays/`` folder beside the project"; §13.4)."""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio import __version__
from studio.engines.common.words import counted
from studio.engines.haunted import replay as replays
from studio.engines.haunted.match import MatchResult
from studio.engines.haunted.match_data import tally
from studio.sessions.haunted.dropped import FOLDER as _FOLDER, recover_dropped
from studio.sessions.haunted.feed import FEED_NAME, MATCH_SUFFIX, match_feed_path
from studio.storage.errors import ProjectError
from studio.storage.folder import slug
from studio.storage.haunted.replay import load_replay, save_replay

FOLDER = _FOLDER
SUFFIXES = (".json", ".json.gz")


def replays_folder(project_folder: Path) -> Path:
    return Path(project_folder) / FOLDER


def tournament_folder(project_folder: Path, name: str) -> Path:
    """Where a project's tournament keeps its replays and ``index.json`` (§11)."""
    return replays_folder(project_folder) / slug(name)


def feed_locator(project_folder: Path, tournament: str | None = None) -> Callable[[], Path | None]:
    """Where to look for a project's feed: its tournament's, or (without a name) the one written
    last, tournament or match, so that a spectator moves on to the next run by itself."""
    if tournament:
        path = tournament_folder(project_folder, tournament) / FEED_NAME
        return lambda: path
    root = replays_folder(project_folder)

    def newest() -> Path | None:
        found = [*root.glob(f"*/{FEED_NAME}"), *root.glob(f"*{MATCH_SUFFIX}")]
        stamped = []
        for path in found:
            try:
                stamped.append((path.stat().st_mtime, str(path), path))
            except OSError:
                continue
        return max(stamped)[2] if stamped else None

    return newest


def list_replays(project_folder: Path) -> list[Path]:
    """Every replay file under ``replays/`` (tournaments' sub-folders too), newest first; the
    matches cut off by a killed studio among them (:func:`recover_dropped`)."""
    recover_dropped(project_folder)
    root = replays_folder(project_folder)
    if not root.is_dir():
        return []
    found = [p for p in root.rglob("*") if p.is_file() and p.name.endswith(SUFFIXES)
             and p.name != "index.json" and ".trash" not in p.relative_to(root).parts]
    return sorted(found, key=lambda p: (p.stat().st_mtime, str(p)), reverse=True)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:24] or "team"


def new_replay_path(project_folder: Path, names: tuple[str, str],
                    when: _dt.datetime | None = None) -> Path:
    """A new file name in ``replays/``: date, time and the two teams, never an existing file (nor
    one whose match is being played: its live feed is there)."""
    when = when or _dt.datetime.now()
    stem = f"{when:%Y-%m-%d-%H%M%S}-{_slug(names[0])}-vs-{_slug(names[1])}"
    root = replays_folder(project_folder)
    path, k = root / f"{stem}.json.gz", 2
    while path.exists() or match_feed_path(path).exists():
        path, k = root / f"{stem}-{k}.json.gz", k + 1
    return path


def save_match(result: MatchResult | dict[str, Any], path: Path) -> Path:
    """Write a match's replay (a partial one when the match was aborted, or a replay body).

    Raises:
        ProjectError: it could not be written (the message names the file).
    """
    return save_replay(replays.build(result, __version__), path)


@dataclass(frozen=True)
class ReplayInfo:
    """One line of the replay browser."""

    path: Path
    created: str
    teams: tuple[str, str]
    maps: tuple[str, ...]
    result: str
    seed: int | None
    rounds: int
    error: str = ""
    """Why the file cannot be read ("" when it can)."""


def describe_result(document: dict[str, Any]) -> str:
    """The result in words: "A wins 3–1–0", "aborted after 2 rounds"."""
    summary = document.get("result") or {}
    teams = document.get("teams", {})
    wins = summary.get("wins", {})
    if summary.get("aborted"):
        # The file holds the round that was cut short too: "aborted after 0 rounds" beside
        # "1 round" read as a contradiction.
        rounds = document.get("rounds") or []
        last = rounds[-1] if rounds and isinstance(rounds[-1], dict) else {}
        cut = f" (round {last.get('index', len(rounds))} cut short)" if last.get("aborted") else ""
        return (f"aborted after {counted(summary.get('rounds_played', 0), 'round')}{cut}, "
                f"{tally(wins, summary.get('ties', 0))}")
    winner = teams.get(summary.get("winner"), {}).get("name", "?")
    toss = ", coin toss" if summary.get("coin_toss") else ""
    return f"{winner} wins {tally(wins, summary.get('ties', 0), summary.get('winner'))}{toss}"


def replay_info(path: Path) -> ReplayInfo:
    """What the browser shows about one file (a broken file is listed with its error)."""
    try:
        document = load_replay(path)
    except ProjectError as exc:
        return ReplayInfo(path, "", ("?", "?"), (), "", None, 0, error=exc.message)
    teams = document["teams"]
    names = (teams.get("A", {}).get("name", "?"), teams.get("B", {}).get("name", "?"))
    maps = tuple(dict.fromkeys(r.get("map", "?") for r in document["rounds"]))
    return ReplayInfo(path, str(document.get("created", "")), names, maps,
                      describe_result(document), document.get("seed"), len(document["rounds"]))

