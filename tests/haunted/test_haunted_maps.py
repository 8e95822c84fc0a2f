"""Map tables as the editor edits them: drafts in and out, rename/delete with the rotation,
maps.json import, and saving refusing an invalid map."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.engines.haunted.map_edit import blank, paint, place_start
from studio.storage import ProjectError, load_project
from studio.storage.haunted.kind import map_table, new_body
from studio.storage.haunted.maps import (
    delete_map,
    draft_of,
    import_maps,
    is_maps_json,
    map_names,
    read_maps_json,
    rename_map,
    table_of,
    uses_in_rotation,
    with_draft,
)
from studio.storage.haunted.project import HauntedModel, model_body
from tests.conftest import ROOT

MAPS_JSON = {"maps": [{"name": "Default", "tiles": []},
                      {"name": "Dots", "tiles": [{"x": 1, "y": 2, "status": 0},
                                                 {"x": 5, "y": 2, "status": 0}]}]}


def model() -> HauntedModel:
    return HauntedModel("T", new_body("T"))


def test_tables_read_into_drafts_and_back_unchanged() -> None:
    bundled = load_project(ROOT / "games" / "haunted-tiles.toml")
    for index, table in enumerate(bundled.body["map"]):
        assert table_of(draft_of(table, index)) == table


def test_an_invalid_draft_survives_the_round_trip_through_its_table() -> None:
    draft = place_start(paint(blank("Holey"), 3, 3, 0), "home", 0, 3, 3)
    draft = place_start(draft, "away", 0, 3, 3)
    assert draft_of(table_of(draft), 0) == draft


def test_a_table_the_editor_cannot_show_names_its_field() -> None:
    table = map_table(blank("M").to_map()) | {"tiles": "333\n"}
    with pytest.raises(ProjectError) as caught:
        draft_of(table, 4)
    assert caught.value.field_path == ("map", 4, "tiles")
    with pytest.raises(ProjectError) as caught:
        draft_of(table | {"home": [[0, 0]]} | {"tiles": map_table(blank("M").to_map())["tiles"]}, 2)
    assert caught.value.field_path == ("map", 2, "home")


def test_renaming_a_map_renames_its_rounds_of_the_rotation() -> None:
    m = rename_map(model(), 0, "Plain")
    assert map_names(m)[0] == "Plain"
    assert m.body["match"]["maps"] == ["Plain", "I(n) The Middle", "WaffleTown", "Hourglass",
                                       "Plain"]
    assert model_body(m)  # still saveable


def test_deleting_a_map_drops_its_rounds_and_an_empty_rotation() -> None:
    m = delete_map(model(), 0)
    assert "Default" not in map_names(m) and uses_in_rotation(m, "Default") == 0
    assert m.body["match"]["maps"] == ["I(n) The Middle", "WaffleTown", "Hourglass"]
    one = model().with_table("match", {"maps": "WaffleTown"})
    index = map_names(one).index("WaffleTown")
    assert uses_in_rotation(one, "WaffleTown") == 1
    assert "maps" not in delete_map(one, index).body["match"]
    assert rename_map(one, index, "W").body["match"]["maps"] == "W"


def test_saving_refuses_an_invalid_map_with_its_field_path() -> None:
    draft = paint(draft_of(model().map_tables[1], 1), 0, 0, 0)  # under H0
    with pytest.raises(ProjectError) as caught:
        model_body(with_draft(model(), 1, draft))
    assert caught.value.field_path == ("map", 1, "home", 0)


def test_maps_json_is_read_detected_and_imported_with_fresh_names(tmp_path: Path) -> None:
    path = tmp_path / "maps.json"
    path.write_text(json.dumps(MAPS_JSON))
    assert is_maps_json(MAPS_JSON) and not is_maps_json({"keys": {}}) and not is_maps_json([])
    maps = read_maps_json(path)
    m, names = import_maps(model(), maps)
    assert names == ["Default (2)", "Dots"]
    assert map_names(m)[-2:] == names and len(model().map_tables) == 10
    assert draft_of(m.map_tables[-1], 11).rows()[1] == "3303333"
    model_body(m)
    with pytest.raises(ProjectError, match="no such file"):
        read_maps_json(tmp_path / "nothing.json")
    path.write_text("{")
    with pytest.raises(ProjectError) as caught:
        read_maps_json(path)
    assert caught.value.file == path


def test_a_map_being_edited_keeps_the_match_settings_and_is_named_as_the_one_to_fix() -> None:
    from studio.screens.haunted.setup import parse_setup

    settings = model().with_table("match", {"rounds": 3, "maps": ["Default", "WaffleTown"]})
    broken = with_draft(settings, 0, paint(draft_of(settings.map_tables[0], 0), 0, 0, 0))
    assert "Default" not in broken.maps() and list(broken.broken_maps()) == ["Default"]
    assert "broken tile" in broken.broken_maps()["Default"]
    # Before: an invalid map sent the whole [match] back to the defaults (best of 5 on the first
    # valid map), and a match played those without a word.
    assert broken.config().rounds == 3 and broken.config().maps == ("Default", "WaffleTown")
    values = {"rounds": "3", "max rounds": "10", "time limit": "2", "seed": "1", "pace": "0",
              "map mode": "rotation", "map": "WaffleTown", "rotation": "", "swap sides": False}
    with pytest.raises(ValueError, match="map 'Default' is not playable .*fix it in Maps"):
        parse_setup(values, broken.maps(), broken.config().maps, broken.broken_maps())
    one = parse_setup(values | {"map mode": "one"}, broken.maps(), broken.config().maps,
                      broken.broken_maps())
    assert one["config"].maps == ("WaffleTown",)  # the other maps still play
