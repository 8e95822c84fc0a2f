"""A Haunted Tiles project as the studio's editors hold it (spec haunted.md §4.1, §13).

The model keeps the project body's tables as they are in the file (maps, teams, match settings,
tournaments) and is immutable by convention: an edit builds a new body that shares what it did
not change, so the undo history can keep every version. A table may be invalid while it is being
edited (a map without starts, say): it stays in the model, flagged by :meth:`HauntedModel.problems`,
and saving refuses with the field path until it is fixed — nothing the user made is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.engines.haunted.board import Map
from studio.engines.haunted.match import MatchConfig
from studio.storage.errors import ProjectError
from studio.storage.haunted.kind import (
    TeamEntry, config_of, map_of, teams_of, tournaments_of, validate,
)
from studio.storage.kinds import Body
from studio.storage.project import Project

TABLE_ORDER = ("match", "submissions", "ladder", "map", "team", "tournament")
"""The body's tables in the canonical order of the project file."""


@dataclass(frozen=True)
class HauntedModel:
    """The editable content of a Haunted Tiles project."""

    name: str
    body: Body
    """Every table of the project body (never mutated)."""
    folder: Path | None = None
    """The project's folder: AI sources and ``replays/`` are relative to it."""

    # ------------------------------------------------------------------------------ reading

    @property
    def map_tables(self) -> list[dict[str, Any]]:
        return list(self.body.get("map", []))

    @property
    def team_tables(self) -> list[dict[str, Any]]:
        return list(self.body.get("team", []))

    @property
    def tournament_tables(self) -> list[dict[str, Any]]:
        return list(self.body.get("tournament", []))

    def maps(self) -> dict[str, Map]:
        """The maps that are valid now, by name in file order (an invalid one is left out)."""
        out: dict[str, Map] = {}
        for index, table in enumerate(self.map_tables):
            try:
                board = map_of(table, index)
            except (ProjectError, ValueError):
                continue
            out.setdefault(board.name, board)
        return out

    def broken_maps(self) -> dict[str, str]:
        """Maps that are invalid now (being edited): name → what is wrong, in file order."""
        out: dict[str, str] = {}
        for index, table in enumerate(self.map_tables):
            try:
                map_of(table, index)
            except (ProjectError, ValueError) as exc:
                name = table.get("name")
                if isinstance(name, str) and name.strip():
                    out.setdefault(name, str(exc.message if isinstance(exc, ProjectError) else exc))
        return out

    def teams(self) -> list[TeamEntry]:
        """The team registry in registration order (empty while a team table is invalid)."""
        try:
            return teams_of(self.body)
        except ProjectError:
            return []

    def config(self) -> MatchConfig:
        """The project's default match settings (the defaults while ``[match]`` is invalid).

        A map being edited into an invalid state keeps its place in the rotation: the match
        setup then names it as the one to fix, instead of quietly playing other settings.
        """
        try:
            return config_of(self.body, self.maps())
        except (ProjectError, ValueError):
            pass
        try:
            return config_of(self.body, {**self.maps(), **dict.fromkeys(self.broken_maps())})
        except (ProjectError, ValueError):
            maps = self.maps()
            rotation = MatchConfig().maps
            if not set(rotation) <= set(maps):
                rotation = tuple(maps)[:1] or rotation
            return MatchConfig(maps=rotation)

    def tournaments(self) -> list[dict[str, Any]]:
        """The ``[[tournament]]`` tables with defaults filled in (empty while one is invalid)."""
        try:
            return tournaments_of(self.body, self.teams())
        except ProjectError:
            return []

    def problems(self) -> list[ProjectError]:
        """What stops the project from being saved now (empty when it is valid)."""
        try:
            validate(self.body)
        except ProjectError as exc:
            return [exc]
        return []

    # ------------------------------------------------------------------------------ editing

    def with_table(self, key: str, tables: list[dict[str, Any]] | dict[str, Any]) -> HauntedModel:
        """A model whose body has ``key`` replaced (an empty list removes the table)."""
        body = {k: v for k, v in self.body.items() if k != key}
        if tables or isinstance(tables, dict):
            body[key] = tables
        ordered = {k: body[k] for k in TABLE_ORDER if k in body}
        ordered.update({k: v for k, v in body.items() if k not in ordered})
        return HauntedModel(self.name, ordered, self.folder)

    def with_item(self, key: str, index: int, table: dict[str, Any] | None) -> HauntedModel:
        """Replace entry ``index`` of the array of tables ``key`` (``len`` appends; None deletes)."""
        tables = list(self.body.get(key, []))
        if table is None:
            del tables[index]
        elif index == len(tables):
            tables.append(table)
        else:
            tables[index] = table
        return self.with_table(key, tables)

    def with_map(self, index: int, table: dict[str, Any] | None) -> HauntedModel:
        """Replace map ``index`` (``len(maps)`` appends; None deletes it)."""
        return self.with_item("map", index, table)

    def with_team(self, index: int, table: dict[str, Any] | None) -> HauntedModel:
        """Replace team ``index`` (``len(teams)`` appends; None deletes it)."""
        return self.with_item("team", index, table)


def project_model(project: Project) -> HauntedModel:
    """The model of a loaded Haunted project."""
    folder = project.path.resolve().parent if project.path is not None else None
    return HauntedModel(project.name, dict(project.body), folder)


def model_body(model: HauntedModel) -> Body:
    """The project body to save.

    Raises:
        ProjectError: the model's first problem, with its field path. Saving goes through here,
            so an invalid map (a start on a hole…) is refused before anything is written, and
            stays in the model for the user to fix.
    """
    body = dict(model.body)
    validate(body)
    return body
