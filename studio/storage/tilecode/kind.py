"""TileCode projects (spec tilecode.md §4.1): the TOML body ⇄ :class:`Game`, validation (§3.4),
the ``studio inspect`` summary and the new-project template.

Importing this module registers them on ``KINDS["tilecode"]``.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

from studio.engines.common.words import counted
from studio.engines.tilecode.model import (
    BACKGROUND_CODES, RULE_TYPES, SPRITE_CODES, ArtKind, Game, Rule, TileMap, TileRecord,
)
from studio.storage.errors import ProjectError
from studio.storage.kinds import KINDS, Body
from studio.storage.project import Project, ProjectHeader, loads_project
from studio.storage.tilecode.body import SETS, read_game
from studio.storage.tilecode.check import Problem, game_problems

FORMAT = 1
PROVENANCE_ORDER = ("source", "commit", "license", "copyright")
VIEWS_PER_TRANSFORM = {
    "none": 0, "flip-horizontal": 1, "flip-vertical": 1, "rotate-left": 1, "rotate-180": 1,
    "rotate-right": 1, "rotate-3-way": 3,
}
"""Derived views each stored transform declares (§5), counted before de-duplication."""

__all__ = [
    "Problem", "body_problems", "body_to_game", "bordered_map", "check", "game_summary",
    "game_to_body", "game_to_project", "new_body", "new_game", "play_errors", "project_to_game",
    "summarize", "validate", "validate_shape",
]


# ------------------------------------------------------------------------------- reading


def body_to_game(body: Body, name: str) -> Game:
    """The game a project body holds.

    Only the file's shape is checked here; :func:`validate` adds the authoring rules of §3.4.

    Args:
        body: the project's tables other than ``[project]``, as parsed from TOML.
        name: the game name (the project header's).

    Returns:
        The game, rules in ascending id, records in stored order (empty ones kept).

    Raises:
        ProjectError: the first malformed field, with its field path.
    """
    return read_game(body, name)


def project_to_game(project: Project) -> Game:
    """The game of a loaded TileCode project (named after the project)."""
    if project.kind != "tilecode":
        raise ProjectError(f"this is a {project.kind} project, not a TileCode one",
                           file=project.path, field_path=("project", "kind"))
    return body_to_game(project.body, project.name)


# ------------------------------------------------------------------------------- writing


def _art_table(kind: ArtKind) -> dict[str, Any]:
    table: dict[str, Any] = {"name": kind.name}
    if kind.glyph is not None:
        table["glyph"] = kind.glyph
    if kind.color is not None:
        table["color"] = kind.color
    if kind.art is not None:
        table["art"] = "\n".join(kind.art) + "\n"
    return table


def _map_table(tile_map: TileMap) -> dict[str, Any]:
    background = "".join("".join(str(k) for k in row) + "\n" for row in tile_map.background)
    grid = [["."] * tile_map.width for _ in range(tile_map.height)]
    extras: list[list[Any]] = []
    for sprite in tile_map.sprites:
        if grid[sprite.y][sprite.x] == ".":
            grid[sprite.y][sprite.x] = str(sprite.kind)
        else:
            extras.append([sprite.x, sprite.y, SPRITE_CODES[sprite.kind]])
    table: dict[str, Any] = {
        "width": tile_map.width,
        "height": tile_map.height,
        "background": background,
        "sprites": "".join("".join(row) + "\n" for row in grid),
    }
    if extras:
        table["extra_sprites"] = extras
    return table


def _record_table(record: TileRecord) -> dict[str, Any]:
    table: dict[str, Any] = {"col": record.col, "row": record.row}
    order = BACKGROUND_CODES + SPRITE_CODES
    for name in SETS:
        codes = getattr(record, name)
        if codes:
            table[name] = sorted(codes, key=order.index)
    if record.dir != "any":
        table["dir"] = record.dir
    if record.do:
        table["do"] = [command.text for command in record.do]
    return table


def _rule_table(rule: Rule) -> dict[str, Any]:
    table: dict[str, Any] = {"id": rule.id, "type": rule.type}
    if rule.type == "press" and rule.button is not None:
        table["button"] = rule.button
    table["transforms"] = rule.transforms
    if not rule.enabled:
        table["enabled"] = False
    records = [_record_table(r) for r in rule.tiles if not r.is_empty]
    if records:
        table["tiles"] = records
    return table


def game_to_body(game: Game) -> Body:
    """The canonical project body of a game.

    Keys follow §4.1, rules ascend by id, records keep their order and empty ones are dropped,
    kind sets list backgrounds then sprites, defaults (``dir = "any"``, ``enabled = true``, no
    extra sprites) are left out, so that writing what was read reproduces the file.

    Args:
        game: the game to write.

    Returns:
        The body, ready for :func:`studio.storage.tomlio.dumps` after a ``[project]`` header.
    """
    body: Body = {
        "game": {"player_kind": game.player_kind, "help": game.help, "round_ms": game.round_ms,
                 "high_score": game.high_score},
    }
    if game.seed is not None:
        body["game"]["seed"] = game.seed
    if game.render != "glyph":
        body["game"]["render"] = game.render
    if game.provenance:
        known = [k for k in PROVENANCE_ORDER if k in game.provenance]
        body["provenance"] = {k: game.provenance[k] for k in
                              known + [k for k in game.provenance if k not in known]}
    body["backgrounds"] = [_art_table(kind) for kind in game.backgrounds]
    body["sprites"] = [_art_table(kind) for kind in game.sprites]
    body["map"] = _map_table(game.map)
    rules = [_rule_table(rule) for rule in sorted(game.rules, key=lambda r: r.id)]
    if rules:
        body["rules"] = rules
    return body


def game_to_project(game: Game) -> Project:
    """A new (unsaved) project holding ``game``."""
    return Project(ProjectHeader("tilecode", game.name, FORMAT), game_to_body(game))


# ----------------------------------------------------------------------------- validation


def body_problems(body: Body) -> list[Problem]:
    """Every §3.4 problem of a body, with field paths from the body root.

    Raises :class:`ProjectError` when the body is malformed (nothing to check then).
    """
    game = body_to_game(body, "")
    # Paths point into the file, whose rules need not be in id order.
    index = {table.get("id"): i for i, table in enumerate(body.get("rules", []))}
    out = []
    for problem in game_problems(game):
        if problem.rule_id is not None:
            path = ("rules", index[problem.rule_id], *problem.path)
            problem = Problem(problem.severity, problem.message, problem.hint, problem.rule_id, path)
        out.append(problem)
    return out


def _first_error(problems: list[Problem]) -> None:
    for problem in problems:
        if problem.is_error:
            raise ProjectError(problem.message, field_path=problem.path, hint=problem.hint)


def validate(body: Body) -> None:
    """Raise for a malformed body or its first §3.4 error (``studio validate``, before play).

    Raises:
        ProjectError: the body is malformed, or the first §3.4 error, with its field path.
    """
    _first_error(body_problems(body))


def validate_shape(body: Body) -> None:
    """What loading checks: the file's shape (keys, types, grids, codes), not §3.4.

    A project whose rules break §3.4 still opens, so that the editor can show the problems and
    nothing is lost; such errors block play (and ``studio run``) and fail ``studio validate``.

    Raises:
        ProjectError: the first malformed field, with its field path.
    """
    body_to_game(body, "")


def play_errors(game: Game) -> list[Problem]:
    """The §3.4 errors that block playing ``game`` (empty when it can be played)."""
    return [problem for problem in game_problems(game) if problem.is_error]


def check(body: Body) -> list[str]:
    """``studio validate``: raise for the first error, else return the warnings as text."""
    problems = body_problems(body)
    _first_error(problems)
    return [str(problem) for problem in problems]


# -------------------------------------------------------------------------------- summary


def game_summary(game: Game) -> dict[str, Any]:
    """Counts with the meanings of the corpus ``summary`` (derived views before de-duplication)."""
    records = [record for rule in game.rules for record in rule.tiles]
    return {
        "map": f"{game.map.width}×{game.map.height}",
        "sprites": len(game.map.sprites),
        "base_rules": len(game.rules),
        "derived_views": sum(VIEWS_PER_TRANSFORM[rule.transforms] for rule in game.rules),
        "tile_records": len(records),
        "commands": sum(len(record.do) for record in records),
        "attributes": sum(len(getattr(record, name)) for record in records for name in SETS),
        "rule_mix": {kind: sum(rule.type == kind for rule in game.rules) for kind in RULE_TYPES},
    }


def summarize(body: Body) -> dict[str, Any]:
    """What ``studio inspect`` and the home screen show about a TileCode project."""
    try:
        game = body_to_game(body, "")
    except ProjectError as exc:
        return {"error": exc.message}
    summary = game_summary(game)
    problems = game_problems(game)
    if problems:
        errors = sum(problem.is_error for problem in problems)
        summary["problems"] = f"{counted(errors, 'error')}, {counted(len(problems) - errors, 'warning')}"
    return summary


# --------------------------------------------------------------------------------- template

NEW_BACKGROUNDS = ("brick", "grass", "water", "dirt")
NEW_SPRITES = ("player", "player2", "cat", "snake head")


def bordered_map(width: int, height: int, border: int = 0, inside: int = 1) -> TileMap:
    """A map of ``inside`` tiles framed by ``border`` tiles, without sprites."""
    rows = tuple(
        tuple(border if x in (0, width - 1) or y in (0, height - 1) else inside for x in range(width))
        for y in range(height)
    )
    return TileMap(width, height, rows)


def new_game(name: str) -> Game:
    """The spec's new project (§3.2): brick, grass, water, dirt; player, player2, cat, snake
    head; a 32×24 map with a brick border and grass inside; no sprites, no rules."""
    from studio.storage.tilecode import art  # drawn at import: only new projects need it

    return Game(
        name,
        tuple(art.background(n) for n in NEW_BACKGROUNDS),
        tuple(art.sprite(n) for n in NEW_SPRITES),
        bordered_map(32, 24),
    )


def new_body(name: str) -> Body:
    """The body of a new TileCode project."""
    return game_to_body(new_game(name))


TEMPLATES = {"move": "the player moves with the arrows and stops at walls"}
"""Starter projects under ``templates/`` (``move``: the first thing every newcomer builds)."""


def template_body(template: str) -> Body:
    """The body of a packaged template, read by the normal loader (so it is validated as any
    project file is; the caller gives it its own name and header).

    Raises:
        ProjectError: ``template`` is not one of :data:`TEMPLATES`, or its file is broken.
    """
    if template not in TEMPLATES:
        raise ProjectError(f"TileCode has no template {template!r}")
    resource = files("studio.storage.tilecode").joinpath("templates", f"{template}.toml")
    project = loads_project(resource.read_text(encoding="utf-8"), Path(str(resource)))
    if project.kind != "tilecode":
        raise ProjectError(f"the {template} template is not a TileCode project")
    return project.body


def register() -> None:
    """Install the TileCode storage functions on ``KINDS["tilecode"]``."""
    spec = KINDS["tilecode"]
    spec.templates = TEMPLATES
    spec.template_body = template_body
    spec.validate = validate_shape
    spec.check = check
    spec.summarize = summarize
    spec.new_body = new_body


register()
