"""What a tournament's ``index.json`` must hold, down to each match, before anything uses it.

The results view, the bracket and a resumed run index into the document (a match's ``home``
names an entrant, ``wins`` maps both sides to counts): an index from elsewhere (a shared
folder, an edited file) that names no such entrant, or holds a string where a count goes, ended
in a KeyError or TypeError. Each such value is refused here with the field it is in.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from studio.engines.common.limits import MAX_INDEX_ENTRANTS
from studio.engines.haunted.standings import DOUBLE_ROUND_ROBIN, MODES, SINGLE
from studio.storage.errors import ProjectError

_REPLAY_NAME = re.compile(r"[\w.-]{1,100}\.json\.gz", re.ASCII)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def most_matches(mode: str, entrants: int) -> int:
    """The most matches any run of ``mode`` plays (a single elimination: one more, the third
    place); a document with more is not one the studio wrote."""
    if mode == SINGLE:
        return entrants
    return entrants * (entrants - 1) // 2 * (2 if mode == DOUBLE_ROUND_ROBIN else 1)


def check_index(document: Any, path: Path) -> dict[str, Any]:
    """``document`` when it is a tournament index the results may be read from.

    Raises:
        ProjectError: naming ``path`` and the field that is wrong.
    """
    def fail(message: str, *where: str | int) -> ProjectError:
        return ProjectError(message, file=path, field_path=tuple(where),
                            hint="the studio rewrites it when the tournament is run again")

    if not isinstance(document, dict):
        raise fail("not a tournament index: the top level must be an object")
    mode = document.get("mode", SINGLE)
    if mode not in MODES:
        raise fail(f"unknown mode {mode!r}", "mode")
    names = document.get("entrants", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise fail("entrants must be a list of names", "entrants")
    if len(names) > MAX_INDEX_ENTRANTS:
        raise fail(f"{len(names)} entrants: at most {MAX_INDEX_ENTRANTS}", "entrants")
    if len(set(names)) != len(names):
        raise fail("an entrant is listed twice", "entrants")
    known = set(names)
    if not isinstance(document.get("complete", False), bool):
        raise fail("complete must be true or false", "complete")
    if not _int(document.get("scheduled", 0)) or document.get("scheduled", 0) < 0:
        raise fail("scheduled must be a whole number, 0 or more", "scheduled")
    matches = document.get("matches")
    if not isinstance(matches, list):
        raise fail("not a tournament index: no list of matches", "matches")
    if len(matches) > most_matches(mode, len(names)):
        raise fail(f"{len(matches)} matches: a {mode} of {len(names)} entrants plays at most "
                   f"{most_matches(mode, len(names))}", "matches")
    for number, match in enumerate(matches):
        _check_match(match, known, fail, number)
    plan = document.get("plan") or {}
    if not isinstance(plan, dict):
        raise fail("plan must be an object", "plan")
    seeds = plan.get("seeds") or []
    if not isinstance(seeds, list) or not all(isinstance(s, str) and s in known for s in seeds):
        raise fail("seeds must list entrants by name", "plan", "seeds")
    if len(set(seeds)) != len(seeds) or (seeds and len(seeds) != len(names)):
        raise fail("seeds must list every entrant once", "plan", "seeds")
    standings = document.get("standings") or []
    if not isinstance(standings, list) or not all(isinstance(s, str) and s in known
                                                  for s in standings):
        raise fail("standings must list entrants by name", "standings")
    return document


def _check_match(match: Any, known: set[str], fail, number: int) -> None:
    if not isinstance(match, dict):
        raise fail("a match must be an object", "matches", number)
    if not isinstance(match.get("stage"), str):
        raise fail("stage must be a name", "matches", number, "stage")
    sides = []
    for side in ("home", "away", "winner"):
        name = match.get(side)
        if not isinstance(name, str) or name not in known:
            raise fail(f"{side} must name an entrant: {str(name)[:40]!r}", "matches", number, side)
        sides.append(name)
    home, away, winner = sides
    if home == away or winner not in (home, away):
        raise fail("a match is between two entrants and won by one of them", "matches", number)
    wins = match.get("wins")
    if not isinstance(wins, dict) or set(wins) != {home, away} or not all(
            _int(count) and 0 <= count <= 1000 for count in wins.values()):
        raise fail("wins must give each side its rounds won", "matches", number, "wins")
    ties = match.get("ties")
    if not _int(ties) or not 0 <= ties <= 1000:
        raise fail("ties must be a whole number, 0 or more", "matches", number, "ties")
    for key in ("seed", "number"):
        if key in match or key == "seed":
            if not _int(match.get(key)) or match[key] < 0:
                raise fail(f"{key} must be a whole number, 0 or more", "matches", number, key)
    replay = match.get("replay", "")
    # A name in the tournament's folder: opening the match's replay must not open any file.
    if not isinstance(replay, str) or not _REPLAY_NAME.fullmatch(replay or "x.json.gz"):
        raise fail(f"replay must be a file name in the tournament's folder: {str(replay)[:60]!r}",
                   "matches", number, "replay")
