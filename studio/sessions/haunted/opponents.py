"""Who a test match may be played against, and what of an opponent a person may see.

A student plays another team only as that team handed it in: its latest submission (before the
deadline when one is set), never its current file, and never sees a line of it. The AI editor's
opponent choice and the match setup both take their list from :func:`opponent_choices` and turn
the choice into a match with :func:`with_opponents`, so neither screen decides it differently.

An opponent whose source the person may not read plays veiled (:mod:`.veil`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from studio.engines.haunted.builtin_ais import BUILTINS, PREFIX
from studio.sessions.access import TEACHER, Access
from studio.sessions.haunted.entrants import SUBMITTED, MatchPlan
from studio.sessions.haunted.submissions import team_submissions
from studio.storage.errors import ProjectError
from studio.storage.haunted.kind import TeamEntry
from studio.storage.haunted.project import HauntedModel
from studio.storage.haunted.submissions import Submission

UNAVAILABLE = "unavailable:"
"""A choice's prefix for a team that cannot be played, listed with the reason."""


@dataclass(frozen=True)
class Opponent:
    """One line of an opponent list."""

    value: str
    """What a match plan is given: ``builtin:NAME``, a team name or ``submitted:NAME``."""
    label: str
    reason: str = ""
    """Why it cannot be played ("" when it can)."""

    @property
    def shown(self) -> str:
        """How a match set-up names it once chosen: a submission with its time and hash."""
        return self.label.removeprefix("team ") if self.value.startswith(SUBMITTED) \
            else self.value


@dataclass(frozen=True)
class Version:
    """A team's submitted version that plays."""

    team: TeamEntry
    """The registry entry, named ``submitted:NAME``, its source the submission's file."""
    submission: Submission

    @property
    def label(self) -> str:
        sub = self.submission
        return f"team {sub.team} — submitted {sub.shown_time()} · {sub.short_hash}"


def submitted_versions(model: HauntedModel) -> dict[str, Version | str]:
    """Each team with its own AI -> the version that plays, or why none can.

    The submissions' records are read, never their sources: a student's session may not read
    them (the hash checked when a tournament plays one is the tournament's to check).
    """
    try:
        listed = team_submissions(model)
    except ProjectError as exc:
        return {t.name: exc.message for t in model.teams() if t.runtime != "builtin"}
    out: dict[str, Version | str] = {}
    for entry in listed:
        chosen = entry.playing
        if chosen is None:
            late = " (only after the deadline)" if entry.submissions else ""
            out[entry.team.name] = (f"no submission before the deadline{late}"
                                    if entry.deadline is not None else "no submission yet")
            continue
        runtime = "js" if chosen.path.suffix == ".js" else "python"
        team = replace(entry.team, name=SUBMITTED + entry.team.name, runtime=runtime,
                       source=chosen.relative(model.folder) if model.folder else str(chosen.path))
        out[entry.team.name] = Version(team, chosen)
    return out


def own(who: Access, team: TeamEntry) -> bool:
    """Whether ``who`` may see ``team``'s source (a teacher any; a student their own)."""
    return who.role == TEACHER or who.own_team({"name": team.name, "team": team.team})


def opponent_choices(model: HauntedModel, who: Access) -> list[Opponent]:
    """The built-ins, then every team: as its current file where ``who`` may read it, as its
    submitted version (time and short hash) when it has one, else not available with why.

    A teacher keeps every current file and gains the submitted versions; a student sees their
    own team's file and every other team only as submitted.
    """
    choices = [Opponent(PREFIX + name, f"built-in {name}") for name in BUILTINS]
    versions = submitted_versions(model)
    for team in model.teams():
        if team.runtime == "builtin":
            choices.append(Opponent(team.name, f"team {team.name}"))
            continue
        mine = own(who, team)
        if mine:
            choices.append(Opponent(team.name, f"team {team.name} (current file)"))
        version = versions.get(team.name, "no submission yet")
        if isinstance(version, Version):
            choices.append(Opponent(version.team.name, version.label))
        elif not mine:
            choices.append(Opponent(UNAVAILABLE + team.name,
                                    f"team {team.name} — not available: {version}", version))
    return choices


def with_opponents(plan: MatchPlan, model: HauntedModel, who: Access) -> MatchPlan:
    """``plan`` with its ``submitted:NAME`` sides resolved to the submissions and every side
    ``who`` may not read veiled.

    Raises:
        ProjectError: a side is a team ``who`` may only play as submitted, and it has no
            submission (the reason), or it is a team's current file ``who`` may not play.
    """
    versions = submitted_versions(model)
    registry = {t.name: t for t in model.teams()}
    extra: list[TeamEntry] = []
    veiled: set[str] = set(plan.veiled)
    for spec in (plan.home, plan.away):
        name = spec.removeprefix(SUBMITTED).removeprefix(UNAVAILABLE)
        team = registry.get(name)
        if team is None or team.runtime == "builtin":
            continue
        if spec.startswith(SUBMITTED) or not own(who, team):
            version = versions.get(name, "no submission yet")
            if not isinstance(version, Version):
                raise ProjectError(f"team {name} cannot be played: {version}",
                                   hint="it plays once it has submitted its AI")
            if spec != version.team.name:
                raise ProjectError(f"team {name} plays only as submitted for you",
                                   hint=f"choose {version.label}")
            extra.append(version.team)
            if not own(who, team):
                veiled.add(spec)
    taken = {t.name for t in plan.teams}
    teams = plan.teams + tuple(t for t in extra if t.name not in taken)
    digests = dict(plan.digests)
    for team in extra:
        version = versions[team.name.removeprefix(SUBMITTED)]
        assert isinstance(version, Version)
        digests[team.name] = version.submission.sha256
    return replace(plan, teams=teams, veiled=frozenset(veiled), digests=digests)

