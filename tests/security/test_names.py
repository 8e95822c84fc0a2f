"""Names from outside refuse control and bidi characters (the issue on untrusted names): a
project's, a map's, a team's (and its team and school), a tournament's, from a project file, a
form, a team-list CSV or a ``maps.json``.

The characters refused are the ones ``inert`` shows as escapes, from its one definition: C0,
DEL, the C1 controls U+0080-U+009F, and the bidi controls U+061C, U+200E, U+200F,
U+202A-U+202E, U+2066-U+2069. Each refusal names the field and says what to do.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from studio.engines.common.inert import inert, name_problem
from studio.screens.haunted.map_manage import MapManaging
from studio.screens.haunted.tournament_setup import SetupError, new_tournament, rename
from studio.sessions.haunted import teams as registry
from studio.sessions.haunted.ai_files import import_team_list
from studio.storage import ProjectError, create_project, load_project, loads_project, validate_name
from studio.storage.haunted.maps_json import maps_from_maps_json
from studio.storage.haunted.project import project_model
from studio.storage.haunted.teams_csv import teams_from_csv
from studio.storage.names import HINT
from tests.conftest import ROOT

C1 = ["\x80", "\x85", "\x9b", "\x9f"]
BIDI = ["\u061c", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",
        "\u2066", "\u2067", "\u2068", "\u2069"]
REFUSED = ["\x1b", "\x7f", *C1, *BIDI]
HAUNTED = (ROOT / "games" / "haunted-tiles.toml").read_text()


def refused(call, *args) -> ProjectError:
    with pytest.raises(ProjectError) as info:
        call(*args)
    return info.value


@pytest.mark.parametrize("character", REFUSED, ids=lambda c: f"U+{ord(c):04X}")
def test_a_project_name_with_a_control_or_bidi_character_is_refused(character: str) -> None:
    error = refused(validate_name, f"Good{character}name")
    assert error.field_path == ("project", "name")
    assert error.message == f"the project name contains {name_problem(character)}"
    assert inert(character) in error.message and error.hint == HINT


@pytest.mark.parametrize("character", REFUSED, ids=lambda c: f"U+{ord(c):04X}")
def test_inert_escapes_exactly_what_a_name_refuses(character: str) -> None:
    assert inert(character) != character and name_problem(character) is not None
    assert name_problem("Zoë 🎃 שלום مرحبا") is None and inert("Zoë 🎃") == "Zoë 🎃"


def test_the_bidi_marks_are_described_as_bidi_and_c1_as_control() -> None:
    assert name_problem("a\u200fb") == "a bidi control (\\u200f)"
    assert name_problem("a\x9bb") == "a control character (\\x9b)"
    assert name_problem("a\nb") == "a control character (\\n)"


def test_a_project_file_whose_name_holds_a_bidi_override_does_not_load(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text(HAUNTED.replace('name = "Haunted Tiles"', 'name = "evil\\u202egnp.py"', 1))
    error = refused(load_project, path)
    assert error.location == f"{path}:3: project.name"
    assert "bidi control (\\u202e)" in str(error) and HINT in str(error)


@pytest.mark.parametrize(("old", "new", "where"), [
    ('name = "WaffleTown"', 'name = "Waffle\\u009b2JTown"', "map[{}].name"),
    ('name = "Lookahead Ghouls"', 'name = "Ghouls\\u2066"', "team[0].name"),
    ('name = "Built-in cup"', 'name = "Cup\\u200f"', "tournament[0].name"),
], ids=["map", "team", "tournament"])
def test_a_haunted_project_naming_a_map_team_or_tournament_so_does_not_load(
        old: str, new: str, where: str) -> None:
    assert old in HAUNTED
    error = refused(loads_project, HAUNTED.replace(old, new))
    index = next(i for i, t in enumerate(loads_project(HAUNTED).body["map"])
                 if t["name"] == "WaffleTown")
    assert error.location.endswith(where.format(index)), error.location
    assert "contains a" in error.message and error.hint == HINT


@pytest.mark.parametrize("key", ["team", "school"])
def test_a_team_s_team_and_school_names_are_names_too(key: str) -> None:
    model = project_model(loads_project(HAUNTED))
    table = {"name": "Owls", "runtime": "builtin", "source": "idle", key: "Owls\u202e"}
    error = refused(registry.add, model, table)
    assert error.field_path == ("team", len(model.team_tables), key)
    assert error.message == f"the {key} name contains a bidi control (\\u202e)"


def test_a_team_added_from_a_form_refuses_a_c1_name() -> None:
    model = project_model(loads_project(HAUNTED))
    error = refused(registry.add, model, registry.builtin_entry("Owls\x9b2J", "greedy"))
    assert error.field_path == ("team", len(model.team_tables), "name")
    assert "\\x9b" in error.message


FORM = ("ID,Start time,Completion time,Email,Name,Team Name,School,Home Monster Choice,"
        "Away Monster Choice,URL/Code\n"
        "1,t,t,a@example.edu,Ann,Byte Ghosts,CSM,Bobo,Pinky,https://example.com/a.js\n"
        "2,t,t,b@example.edu,Bob,{team},{school},Bobo,Pinky,https://example.com/b.js\n")


def test_a_team_list_csv_with_a_bidi_override_in_a_team_name_is_refused(tmp_path: Path) -> None:
    text = FORM.format(team="evil\u202egnp.js", school="Mines")
    error = refused(teams_from_csv, text)
    assert (error.line, error.field_path) == (3, ("Team Name",))
    assert error.message == "the team name contains a bidi control (\\u202e)"
    csv_file = tmp_path / "teams.csv"
    csv_file.write_text(text)
    error = refused(import_team_list, csv_file, tmp_path, set())
    assert error.file == csv_file and error.line == 3
    assert not (tmp_path / "ais").exists()  # refused before any code file was written


def test_a_team_list_csv_with_a_c1_character_in_a_school_is_refused() -> None:
    error = refused(teams_from_csv, FORM.format(team="Owls", school="Mines\x9b2J"))
    assert (error.line, error.field_path) == (3, ("School",))
    assert "\\x9b" in error.message


def test_a_maps_json_naming_a_map_with_a_bidi_isolate_is_refused() -> None:
    document = {"maps": [{"name": "Fine", "tiles": []}, {"name": "Bad\u2067", "tiles": []}]}
    error = refused(maps_from_maps_json, json.loads(json.dumps(document)))
    assert error.field_path == ("maps", 1, "name") and "\\u2067" in error.message


@pytest.mark.parametrize("character", ["\x85", "\u202e", "\u200e"], ids=lambda c: f"U+{ord(c):04X}")
def test_the_map_name_dialog_refuses_c1_and_bidi(character: str) -> None:
    model = project_model(loads_project(HAUNTED))
    check = MapManaging._name_check(SimpleNamespace(model=model), None)
    assert check(" New map ") == "New map"
    error = refused(check, f"New{character}map")
    assert error.message.startswith("the map name contains a") and error.hint == HINT


@pytest.mark.parametrize("character", ["\x9b", "\u202e", "\u061c"], ids=lambda c: f"U+{ord(c):04X}")
def test_a_tournament_name_refuses_c1_and_bidi(character: str) -> None:
    model = project_model(loads_project(HAUNTED))
    with pytest.raises(SetupError, match="one line of visible text: this one contains a"):
        new_tournament(model, f"Cup{character}")
    with pytest.raises(SetupError, match=r"\\u|\\x"):
        rename(model, 0, f"Cup{character}")


def test_renaming_a_project_refuses_a_bidi_override(tmp_path: Path) -> None:
    from studio.storage import rename_project

    project = create_project(tmp_path, "haunted", "Fine")
    error = refused(rename_project, project.path, "Fine\u202d")
    assert error.field_path == ("project", "name") and "\\u202d" in error.message
    assert load_project(project.path).name == "Fine"
