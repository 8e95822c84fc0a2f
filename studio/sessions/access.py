"""Who the person at this studio is, and what their role lets them do: the one policy that
screens and commands ask ("may I open this source, save this project, run this?").

A studio run locally, or served without a roster, is a teacher's: everything is allowed. A
served session gets its person from the server (``studio.ssh.child``, from the roster), before
the studio starts, once: later code cannot change it. Every answer is ``""`` (allowed) or the
refusal in words, so a screen only shows it and cannot word it differently from a command.

- **teacher**: everything.
- **student**: their own team's AI files, read and write (the AI editor); every project read-only
  (maps, settings, the team registry), no tournament runs; other teams' sources are listed but
  never opened.
- **spectator**: watches: nothing saved, no source of any AI opened, no tournament run.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.storage.errors import ProjectError

TEACHER, STUDENT, SPECTATOR = "teacher", "student", "spectator"


@dataclass(frozen=True)
class Access:
    """A person and their role; ask it before acting."""

    role: str = TEACHER
    name: str = ""
    team: str = ""
    shared_view: bool = False
    """A spectators' view drawn once for all of them (``studio.ssh.broadcast``): nobody's keys
    reach it; the server lets each spectator leave."""

    @property
    def label(self) -> str:
        """How the header names them: ``Ann (student, Greedy Ghosts)``; "" for a local studio."""
        if self.shared_view:
            return "all spectators (one shared view)"
        if not self.name:
            return ""
        team = f", {self.team}" if self.team else ""
        return f"{self.name} ({self.role}{team})"

    def own_team(self, table: Mapping[str, Any]) -> bool:
        """Whether a ``[[team]]`` table is this student's team (by its name or its team)."""
        names = {str(table.get("name", "")).casefold(), str(table.get("team", "")).casefold()}
        return bool(self.team) and self.team.casefold() in names

    def hidden_teams(self, teams: Mapping[str, Any]) -> set[str]:
        """The team letters (``A``, ``B``) of a match whose words (errors, prints, answers) this
        person may not read: none for a teacher; every team but their own for a student; both
        for a spectator (``teams``: a replay's or feed's ``teams``, letter to ``{name: …}``)."""
        if self.role == TEACHER:
            return set()
        mine = self.team.casefold() if self.role == STUDENT and self.team else None
        return {letter for letter in ("A", "B")
                if mine is None or str((teams.get(letter) or {}).get("name", "")).casefold() != mine}

    def save_projects(self) -> str:
        """May this person save a project (maps, settings, rules, the team registry)?"""
        if self.role == STUDENT:
            return ("students cannot change projects (maps, settings and the team registry are "
                    "read-only): only your team's AI files are yours to edit")
        if self.role == SPECTATOR:
            return "spectators watch only: nothing can be saved"
        return ""

    def open_source(self, table: Mapping[str, Any]) -> str:
        """May this person read (and, if theirs, write) the AI source of team ``table``?"""
        if self.role == SPECTATOR:
            return "spectators watch only: no AI's source is shown"
        if self.role == STUDENT and not self.own_team(table):
            return (f"{table.get('name', 'that team')!s} is not your team ({self.team}): "
                    "its source is not shown to you")
        return ""

    def run_tournaments(self) -> str:
        """May this person run (or resume) a tournament?"""
        if self.role != TEACHER:
            return f"{self.role}s cannot run tournaments: the teacher runs them"
        return ""


    def manage_ladder(self) -> str:
        """May this person turn the ladder on or off, reset it, or make it catch up?"""
        if self.role != TEACHER:
            return f"{self.role}s cannot change the ladder: the teacher runs it"
        return ""

    def open_ladder_replay(self, home: str, away: str) -> str:
        """May this person watch the replay of the ladder match between teams ``home`` and
        ``away``? A student only their own team's, a spectator none (the live feed is theirs)."""
        if self.role == SPECTATOR:
            return "spectators see the ladder's standings only: watch its matches live (w)"
        if self.role == STUDENT and self.team.casefold() not in (home.casefold(),
                                                                  away.casefold()):
            return (f"{home} vs {away} is not your team's match ({self.team}): only your own "
                    "matches' replays are shown to you")
        return ""


_granted: list[Access] = []


def grant(access: Access) -> None:
    """Set this process's person, once (the served session's first code does it)."""
    if _granted:
        raise RuntimeError("this studio's person is already set")
    _granted.append(access)


def current() -> Access:
    """This process's person: the one granted, else a local teacher."""
    return _granted[0] if _granted else Access()


SOURCE_SUFFIXES = (".py", ".js")


def own_sources(access: Access, root: Path) -> set[Path]:
    """The real paths of the AI files of ``access``'s team, in every Haunted Tiles project of
    the served folder ``root`` (a team's ``source`` named in its ``[[team]]`` table)."""
    from studio.storage.folder import scan_folder
    from studio.storage.haunted.kind import source_path

    found: set[Path] = set()
    for entry in scan_folder(root):
        if entry.project is None or entry.project.kind != "haunted":
            continue
        for table in entry.project.body.get("team", []):
            if isinstance(table, dict) and table.get("runtime") != "builtin" \
                    and access.own_team(table):
                with contextlib.suppress(ProjectError):
                    found.add(source_path(entry.path.parent, str(table.get("source", ""))))
    return found


def file_guard(access: Access, root: Path) -> Callable[[Path, bool, bool], str] | None:
    """What the role allows, file by file, for the served path rule (``storage.served``): the
    wall under every screen, so a way to a file the screens forgot still ends here.

    A student writes only their team's AI files, its submissions (``submissions/TEAM/``) and
    their own test matches' replays (``replays/``), and reads no other AI file nor another
    team's ladder replay; a spectator writes nothing and reads no AI file and no ladder replay.
    """
    if access.role == TEACHER:
        return None
    from studio.storage.haunted.submissions import FOLDER as SUBMISSIONS, team_part

    replays = root / "replays"

    def guard(real: Path, write: bool, folder: bool) -> str:
        if folder:
            return ""  # a folder to put an allowed file in; making one changes nothing
        source = real.suffix.lower() in SOURCE_SUFFIXES
        if real.parent.name == "ladder" and real.parent.parent.name == "replays":
            return _ladder_file(access, real, write)
        if access.role == STUDENT and real.parent == real.parent.parent.parent / \
                SUBMISSIONS / team_part(access.team):
            return ""  # handing in stores a copy and its record there (never over one)
        if access.role == SPECTATOR:
            if write:
                return "spectators watch only: nothing can be written"
            return "spectators watch only: no AI's source is shown" if source else ""
        if source and real in own_sources(access, root):
            return ""
        if source:
            return f"this AI file is not your team's ({access.team}): it is not shown to you"
        if write and not real.is_relative_to(replays):
            return access.save_projects()
        return ""

    return guard


def _ladder_file(access: Access, real: Path, write: bool) -> str:
    """A file of a project's ladder (``replays/ladder/``): its runs write it, no session does;
    a match's replay is read by the teams that played it (its index says which)."""
    if write:
        return "the ladder's results are written by its runs only"
    if not real.name.startswith("match-"):
        return ""  # the index (standings) and the live feed are for everyone
    home = away = ""
    with contextlib.suppress(ProjectError, OSError):
        from studio.sessions.haunted.ladder_files import read_ladder_index

        key = real.name.removeprefix("match-").split(".")[0]
        entry = ((read_ladder_index(real.parent) or {}).get("matches") or {}).get(key) or {}
        home, away = str(entry.get("home", "")), str(entry.get("away", ""))
    if not home and access.role == STUDENT:
        return "this ladder match is not in the ladder's index: its replay is not shown to you"
    return access.open_ladder_replay(home, away)
