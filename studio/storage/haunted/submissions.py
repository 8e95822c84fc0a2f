"""Haunted Tiles submissions on disk: each team's handed-in AI versions, and the deadline.

A submission is a copy of an AI's source, frozen: ``submissions/TEAM/<UTC time>.py`` (or ``.js``)
beside the project, with a sidecar ``<UTC time>.json`` holding the team's exact name, the time and
the SHA-256 of the source. The sidecar is written last, so a source without one (a crash between
the two writes) is not a submission. One file per submission, created exclusively: two students
of a team submitting in the same second get ``…Z.py`` and ``…Z-2.py``, never one over the other,
and a teacher's edit of the project cannot race a submission (they share no file). Earlier
submissions are kept.

``TEAM`` is the team's name made safe as one path part (:func:`team_part`): it can hold no
separator, no ``..`` and is bounded in length. Two names may share a folder ("A B", "a-b"); the
sidecar's exact name tells them apart.

The deadline is ``[submissions] deadline`` of the project: an ISO 8601 time with its offset
(``2026-11-13T17:00:00-07:00``), as text or a TOML date-time; a time without a zone is refused,
since a class and its server need not share one.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from studio.engines.common.limits import MAX_AI_SOURCE_BYTES
from studio.storage.atomic import atomic_write
from studio.storage.errors import ProjectError
from studio.storage.haunted.tables import keys
from studio.storage.kinds import Body
from studio.storage.reading import decode_text, parse_json, read_bounded

FOLDER = "submissions"
"""The folder beside the project that holds every team's submissions."""
SUFFIXES = (".py", ".js")
MAX_TEAM_PART = 48
"""Characters of a team's folder name (a name may be longer; the sidecar keeps it whole)."""
MAX_LISTED = 500
"""Submissions of one team read back, newest first (a team submits a few dozen times at most)."""
MAX_SCANNED = 5000
"""Entries of a team's folder looked at (a folder stuffed with files costs no more than this)."""
MAX_SIDECAR_BYTES = 64 * 1024
SIDECAR_FORMAT = "studio-haunted-submission"
_KEYS = {"deadline"}
_TIME_STEM = "%Y-%m-%dT%H-%M-%SZ"


@dataclass(frozen=True)
class Submission:
    """One stored submission (as its sidecar says)."""

    team: str
    time: datetime
    """When it was stored (UTC)."""
    sha256: str
    path: Path
    """The frozen source file."""
    size: int = 0
    origin: str = ""
    """The file it was submitted from (as given; for people, not for finding it)."""
    sequence: int = 1
    """Its number within its second (``…Z-2.py`` is 2): orders submissions of one instant."""

    @property
    def order(self) -> tuple[datetime, int]:
        return self.time, self.sequence

    @property
    def short_hash(self) -> str:
        return self.sha256[:8]

    def shown_time(self) -> str:
        """``2026-11-13 23:59:02 UTC``: the time as people read it in a list."""
        return self.time.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")

    def relative(self, project_folder: Path) -> str:
        """The source's path from the project's folder (``submissions/team/….py``)."""
        try:
            return self.path.relative_to(Path(project_folder).resolve()).as_posix()
        except ValueError:
            return str(self.path)


# ---------------------------------------------------------------------------------- the deadline


def parse_deadline(value: Any, field_path: tuple[str | int, ...] = ("submissions", "deadline")
                   ) -> datetime:
    """A deadline as a time-zone-aware datetime, from ISO text or a TOML date-time.

    Raises:
        ProjectError: not a time, or one without a time zone, naming the field and an example.
    """
    example = "e.g. 2026-11-13T17:00:00-07:00, or 2026-11-14T00:00:00Z for UTC"
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError:
            raise ProjectError(f"{value!r} is not a date and time", field_path=field_path,
                               hint=f"write it in ISO 8601 with its offset: {example}") from None
    if not isinstance(value, datetime):
        raise ProjectError("the deadline is a date and time", field_path=field_path,
                           hint=f"write it in ISO 8601 with its offset: {example}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise ProjectError(f"the deadline {value.isoformat()} has no time zone",
                           field_path=field_path,
                           hint=f"add its offset from UTC ({example}): the class and the "
                                "server may not share a zone")
    return value


def deadline_of(body: Body) -> datetime | None:
    """The project's ``[submissions] deadline`` (None when there is none).

    Raises:
        ProjectError: the table or the time is invalid, with its field path.
    """
    table = keys(body.get(FOLDER, {}), _KEYS, FOLDER)
    if "deadline" not in table:
        return None
    return parse_deadline(table["deadline"])


def deadline_text(deadline: datetime) -> str:
    """How the deadline is written in the project (ISO 8601, its own offset kept)."""
    return deadline.isoformat()


def submissions_table(deadline: datetime | None) -> dict[str, Any]:
    """The ``[submissions]`` table for ``deadline`` (empty: no deadline, submissions open)."""
    return {} if deadline is None else {"deadline": deadline_text(deadline)}


def is_open(deadline: datetime | None, now: datetime) -> bool:
    """Whether a submission at ``now`` is in time (strictly before the deadline)."""
    return deadline is None or now < deadline


# -------------------------------------------------------------------------------- the files


def team_part(name: str) -> str:
    """A team's name as one safe path part: lower case, runs of anything but letters and
    digits as ``-``, at most :data:`MAX_TEAM_PART` characters; never empty, ``.`` or ``..``."""
    text = re.sub(r"\W+", "-", name.strip().casefold()).strip("-_")
    return text[:MAX_TEAM_PART].rstrip("-_") or "team"


def submissions_folder(project_folder: Path) -> Path:
    return Path(project_folder) / FOLDER


def team_folder(project_folder: Path, team: str) -> Path:
    """``submissions/TEAM`` of the project, checked to lead nowhere else.

    Raises:
        ProjectError: ``submissions`` or the team's folder is a link out of the project's
            folder (planted to make the studio write elsewhere).
    """
    root = Path(project_folder).resolve()
    folder = submissions_folder(root) / team_part(team)
    if not folder.resolve().is_relative_to(root):
        raise ProjectError("the submissions folder leads outside the project's folder",
                           file=folder, hint="remove the link; submissions are kept beside "
                           "the project")
    return folder


def _stamp(now: datetime) -> datetime:
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("a submission's time must know its time zone")
    return now.astimezone(timezone.utc)


def store_submission(project_folder: Path, team: str, data: bytes, suffix: str, now: datetime,
                     origin: str = "") -> Submission:
    """Store ``data`` as a new submission of ``team`` at ``now`` (nothing is checked here but
    the size and the kind of file: the session checks the code first).

    Raises:
        ProjectError: too big, not ``.py``/``.js``, or the folder cannot be written.
    """
    suffix = suffix.lower()
    if suffix not in SUFFIXES:
        raise ProjectError(f"a submission is a .py or .js file, not {suffix or 'no suffix'!r}")
    if len(data) > MAX_AI_SOURCE_BYTES:
        raise ProjectError(f"the AI is {len(data):,} bytes; a submission may be at most "
                           f"{MAX_AI_SOURCE_BYTES:,}", hint="embed less: the limit is that of "
                           "every AI file")
    when = _stamp(now)
    folder = team_folder(project_folder, team)
    digest = hashlib.sha256(data).hexdigest()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for number in range(1, 1000):
            stem = when.strftime(_TIME_STEM) + ("" if number == 1 else f"-{number}")
            source = folder / (stem + suffix)
            try:
                atomic_write(source, data, backup=False, exclusive=True)
            except FileExistsError:
                continue
            record = {"format": SIDECAR_FORMAT, "version": 1, "team": team,
                      "time": when.isoformat().replace("+00:00", "Z"), "sha256": digest,
                      "bytes": len(data), "file": source.name, "from": origin}
            text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
            atomic_write(folder / (stem + ".json"), text.encode("utf-8"), backup=False,
                         exclusive=True)
            return Submission(team, when, digest, source.resolve(), len(data), origin, number)
    except OSError as exc:
        raise ProjectError(f"cannot store the submission: {exc.strerror or exc}",
                           file=folder) from None
    raise ProjectError("a thousand submissions of this team in one second", file=folder)


def _record(path: Path, team: str) -> Submission | None:
    """The submission a sidecar describes, or None when it is not one of ``team``'s (another
    team's, broken, or naming a file that is not beside it)."""
    try:
        document = parse_json(decode_text(read_bounded(path, MAX_SIDECAR_BYTES, "a submission"),
                                          path, "the submission"), path, limit=4)
    except ProjectError:
        return None
    if not isinstance(document, dict) or document.get("format") != SIDECAR_FORMAT:
        return None
    name, digest, file = document.get("team"), document.get("sha256"), document.get("file")
    if name != team or not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
        return None
    # The source must be this sidecar's own, beside it: a sidecar may not point elsewhere.
    if file not in (path.stem + suffix for suffix in SUFFIXES):
        return None
    try:
        when = parse_deadline(str(document.get("time")), ("time",)).astimezone(timezone.utc)
    except ProjectError:
        return None
    size = document.get("bytes")
    origin = document.get("from")
    number = re.search(r"Z-(\d{1,3})$", path.stem)
    return Submission(team, when, digest, path.with_name(file).resolve(),
                      size if isinstance(size, int) else 0,
                      origin if isinstance(origin, str) else "",
                      int(number.group(1)) if number else 1)


def list_submissions(project_folder: Path, team: str, limit: int = MAX_LISTED
                     ) -> list[Submission]:
    """``team``'s submissions, newest first (at most ``limit``; an empty list when none).

    Raises:
        ProjectError: the folder is a link out of the project's folder.
    """
    folder = team_folder(project_folder, team)
    if not folder.is_dir():
        return []
    names = []
    with os.scandir(folder) as entries:
        for count, entry in enumerate(entries):
            if count >= MAX_SCANNED:
                break
            if entry.name.endswith(".json") and not entry.name.startswith("."):
                names.append(entry.name)
    # File names start with the UTC time: the newest sort last; read only as many as needed.
    found = []
    for name in sorted(names, reverse=True):
        record = _record(folder / name, team)
        if record is not None and record.path.is_file():
            found.append(record)
            if len(found) >= limit:
                break
    found.sort(key=lambda s: s.order, reverse=True)
    return found


def latest_before(submissions: list[Submission], deadline: datetime | None
                  ) -> Submission | None:
    """The newest submission made before ``deadline`` (any, without one)."""
    eligible = [s for s in submissions if is_open(deadline, s.time)]
    return max(eligible, key=lambda s: s.order, default=None)


def frozen_source(submission: Submission) -> bytes:
    """The submission's source, checked against the hash recorded when it was stored.

    Raises:
        ProjectError: missing, too big, or changed since it was submitted.
    """
    data = read_bounded(submission.path, MAX_AI_SOURCE_BYTES, "a submission")
    if hashlib.sha256(data).hexdigest() != submission.sha256:
        raise ProjectError(f"{submission.team!r}'s submission of {submission.shown_time()} was "
                           "changed after it was submitted", file=submission.path,
                           hint="submit again; a submission's file is never edited")
    return data


def check_table(body: Body) -> None:
    """Validation hook: ``[submissions]`` is valid (raises ProjectError with its field path)."""
    deadline_of(body)

