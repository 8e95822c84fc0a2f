"""The TileCode starter templates: packaged project files, loaded and validated as any file is,
and played (golden) to show they do what they promise."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio import cli
from studio.engines.tilecode.engine import dump_state, load
from studio.storage import ProjectError, dumps_project, load_project, new_project
from studio.storage.tilecode.kind import TEMPLATES, body_problems, project_to_game

GOLDEN = Path(__file__).resolve().parent / "golden" / "template-move.txt"


def player(state) -> tuple[int, int]:
    (where,) = [(x, y) for kind, x, y in zip(state.kinds, state.xs, state.ys) if kind == 0]
    return where


def test_the_move_template_is_a_clean_project_under_the_new_name() -> None:
    project = new_project("tilecode", "Walker", "move")
    assert project.name == "Walker" and project.kind == "tilecode"
    game = project_to_game(project)
    assert game.name == "Walker" and len(game.rules) == 2
    assert not [p for p in body_problems(project.body) if p.is_error]
    assert set(TEMPLATES) == {"move"}


def test_the_move_template_walks_with_the_buttons_and_stops_at_a_wall() -> None:
    game = load(project_to_game(new_project("tilecode", "Walker", "move")))
    state = game.initial_state(seed=0)
    lines = [dump_state(state).rstrip("\n")]
    start = player(state)
    trail = []
    for buttons in [("right",)] * 12 + [("down",)] * 2 + [("left",)] * 2 + [()]:
        state, _events = game.step(state, buttons)
        trail.append(player(state))
    lines.append(dump_state(state).rstrip("\n"))
    # Right from (2,2) along row 2 to the wall at column 11: the player stops at 10 and stays
    # there while right is held (no smash rule, it would walk into the wall).
    assert start == (2, 2)
    assert trail[7] == (10, 2) and trail[11] == (10, 2)
    assert trail[13] == (10, 4)  # down works too (rotate-3-way), then left
    assert trail[15] == (8, 4) and trail[16] == (8, 4)  # no button: it stays
    assert state.status == "play"
    text = "\n".join(lines) + "\n"
    if os.environ.get("STUDIO_UPDATE_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")


def test_an_unknown_template_is_refused_naming_the_ones_there_are() -> None:
    with pytest.raises(ProjectError) as caught:
        new_project("tilecode", "Walker", "maze")
    assert "use one of: empty, move" in str(caught.value.hint)
    with pytest.raises(ProjectError):
        new_project("btree", "Walker", "move")


def test_studio_new_with_the_move_template(tmp_path: Path, capsys) -> None:
    target = tmp_path / "walker.toml"
    assert cli.main(["new", "tilecode", "Walker", "--template", "move", "-o", str(target)]) == 0
    project = load_project(target)
    assert project.name == "Walker" and len(project.body["rules"]) == 2
    assert dumps_project(project) == target.read_text(encoding="utf-8")
