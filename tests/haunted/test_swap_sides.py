"""Swapping sides (haunted.md §6.2): home acts first in each phase, so new matches and tournaments
swap by default; a project that says ``swap_sides = false`` keeps its word, and the command line
can say either."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio import cli
from studio.screens.haunted import tournament_setup as setup
from studio.sessions.haunted.tournament import project_plan
from studio.storage import create_project, load_project
from studio.storage.haunted.kind import config_of, new_body, tournaments_of, teams_of, validate
from studio.storage.haunted.project import project_model


def homes(capsys, *args: str) -> list[str]:
    assert cli.main(["match", "builtin:greedy", "builtin:idle", "--seed", "3", "--in-process",
                     "--json", "--rounds", "3", "--max-rounds", "3", *args]) == 0
    return [r["home"] for r in json.loads(capsys.readouterr().out)["rounds"]]


def test_a_new_match_on_the_command_line_swaps_unless_told_not_to(capsys) -> None:
    # greedy beats idle every round: two rounds decide a best of three.
    assert homes(capsys) == ["builtin:greedy", "builtin:idle"]
    assert homes(capsys, "--swap-sides") == ["builtin:greedy", "builtin:idle"]
    assert homes(capsys, "--no-swap-sides") == ["builtin:greedy"] * 2


def test_a_project_that_says_false_keeps_it(capsys, tmp_path: Path) -> None:
    project = create_project(tmp_path, "haunted", "Cup").path
    assert config_of(load_project(project).body).swap_sides is True  # the new template
    text = project.read_text().replace("swap_sides = true", "swap_sides = false")
    project.write_text(text)
    assert homes(capsys, "--project", str(project)) == ["builtin:greedy"] * 2
    assert homes(capsys, "--project", str(project), "--swap-sides")[1] == "builtin:idle"


def test_a_file_without_the_key_still_means_false() -> None:
    body = new_body("x")
    del body["match"]["swap_sides"]
    assert config_of(body).swap_sides is False
    assert tournaments_of(body, teams_of(body))[0]["swap_sides"] is False


@pytest.mark.parametrize("said", [None, False, True])
def test_new_tournaments_swap_unless_the_project_says_false(tmp_path: Path, said) -> None:
    project = create_project(tmp_path, "haunted", "Cup")
    body = project.body
    if said is None:
        del body["match"]["swap_sides"]
    else:
        body["match"]["swap_sides"] = said
    model = project_model(load_project(project.path)).with_table("match", body["match"])
    model, index = setup.new_tournament(model, "Spring cup")
    expected = said is not False
    assert setup.tournament(model, index)["swap_sides"] is expected
    row = next(f for f in setup.fields(model, index) if f.key == "swap_sides")
    assert row.value.startswith("yes" if expected else "no")
    flipped = setup.step_field(model, index, "swap_sides", 1)
    validate(flipped.body)
    table = tournaments_of(flipped.body, teams_of(flipped.body))[index]
    assert table["swap_sides"] is not expected
    plan = project_plan(table, teams_of(flipped.body), flipped.maps(), flipped.config(), tmp_path)
    assert plan.config.swap_sides is not expected
