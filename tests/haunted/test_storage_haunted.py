"""Haunted projects (spec haunted.md §4.1, §10): round trips, validation errors, warnings."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from studio.engines.haunted.maps import DEFAULT_ROTATION, builtin_maps, original_maps
from studio.storage import (
    KINDS, ProjectError, create_project, dumps_project, load_project, loads_project,
)
from studio.storage.haunted.kind import (
    check,
    config_of,
    map_table,
    maps_of,
    new_body,
    summarize,
    teams_of,
    tournaments_of,
    validate,
)

GAMES = Path(__file__).resolve().parents[2] / "games"


def body() -> dict:
    return new_body("Cup")


def test_kind_is_registered() -> None:
    spec = KINDS["haunted"]
    assert spec.validate is validate and spec.check is check and spec.new_body is new_body


def test_new_project_round_trips_byte_for_byte(tmp_path: Path) -> None:
    project = create_project(tmp_path, "haunted", "Spooky Cup")
    text = project.path.read_text()
    again = loads_project(text)
    assert dumps_project(again) == text
    assert again.summary()["maps"] == 10 and again.summary()["teams"] == 5


def test_shipped_project_is_valid_and_has_the_original_maps() -> None:
    project = load_project(GAMES / "haunted-tiles.toml")
    maps = maps_of(project.body)
    for original in original_maps():
        assert maps[original.name].strengths == original.strengths
    assert config_of(project.body).maps == DEFAULT_ROTATION
    assert check(project.body) == []


def test_original_maps_match_the_spec_grids() -> None:
    maps = builtin_maps()
    assert maps["WaffleTown"].rows() == ["3303033", "3333333", "0303030", "3333333", "0303030",
                                         "3333333", "3303033"]
    assert maps["Hourglass"].rows()[3] == "0030300"
    assert maps["JeffBridges"].rows()[3] == "0330330"
    assert maps["I(n) The Middle"].rows()[2:5] == ["3300033", "3330333", "3300033"]
    sizes = {m.size for m in maps.values()}
    assert sizes == {5, 7, 9, 11, 15}
    assert all(m.is_symmetric() for m in maps.values())


def test_tiles_text_tolerates_surrounding_whitespace_and_defaults_starts() -> None:
    b = body()
    b["map"] = [{"name": "M", "size": 5, "tiles": "\n  33333\n33333\n33333 \n33333\n33333\n\n"}]
    b["match"]["maps"] = ["M"]
    board = maps_of(b)["M"]
    assert board.home == ((0, 0), (0, 2), (0, 4)) and board.away == ((4, 0), (4, 2), (4, 4))
    assert map_table(board)["tiles"] == "33333\n" * 5


def test_match_maps_may_be_one_name() -> None:
    b = body()
    b["match"]["maps"] = "WaffleTown"
    assert config_of(b).maps == ("WaffleTown",)


def broken(change) -> ProjectError:
    b = copy.deepcopy(body())
    change(b)
    with pytest.raises(ProjectError) as info:
        validate(b)
    return info.value


def set_map(**fields):
    def change(b):
        b["map"][0].update(fields)
    return change


@pytest.mark.parametrize(("change", "path", "words"), [
    (set_map(size=4), ("map", 0, "size"), "5 to 15"),
    (set_map(size=16), ("map", 0, "size"), "5 to 15"),
    (set_map(tiles="3333333\n" * 6), ("map", 0, "tiles"), "6 rows"),
    (set_map(tiles="333333\n" * 7), ("map", 0, "tiles"), "expected 7"),
    (set_map(tiles="3333334\n" * 7), ("map", 0, "tiles"), "0..3"),
    (set_map(tiles=7), ("map", 0, "tiles"), "multi-line string"),
    (set_map(home=[[0, 0], [0, 3], [7, 6]]), ("map", 0, "home", 2), "off the board"),
    (set_map(away=[[6, 0], [6, 3]]), ("map", 0, "away"), "three start tiles"),
    (set_map(away=[[6, 0], [6, 3], [6]]), ("map", 0, "away", 2), "[row, col]"),
    (set_map(tiles="0333333\n" + "3333333\n" * 6), ("map", 0, "home", 0), "broken tile"),
    # The map and the start named as the maps screen names them, not only by field path.
    (set_map(tiles="0333333\n" + "3333333\n" * 6), ("map", 0, "home", 0),
     "map 'Default': H0's start [0, 0] is on a broken tile"),
    (set_map(name=""), ("map", 0, "name"), "needs a name"),
    (set_map(colour="red"), ("map", 0, "colour"), "unknown key"),
    (lambda b: b["map"].append(dict(b["map"][0])), ("map", 10, "name"), "two maps"),
    (lambda b: b.update(map=[]), ("map",), "no map"),
    (lambda b: b.update(extra={}), ("extra",), "unknown table"),
    (lambda b: b["match"].update(rounds=4), ("match", "rounds"), "odd"),
    (lambda b: b["match"].update(max_rounds=3), ("match", "max_rounds"), "at least rounds"),
    (lambda b: b["match"].update(time_limit=0.01), ("match", "time_limit"), "0.05 to 60"),
    (lambda b: b["match"].update(load_limit=0), ("match", "load_limit"), "positive"),
    (lambda b: b["match"].update(maps=["Nowhere"]), ("match", "maps", 0), "no map named"),
    (lambda b: b["match"].update(maps=[]), ("match", "maps"), "map name"),
    (lambda b: b["match"].update(swap_sides="yes"), ("match", "swap_sides"), "true or false"),
    (lambda b: b["match"].update(speed=3), ("match", "speed"), "unknown key"),
    (lambda b: b["team"][1].update(name="Lookahead Ghouls"), ("team", 1, "name"), "two teams"),
    (lambda b: b["team"][0].update(runtime="lua"), ("team", 0, "runtime"), "runtime"),
    (lambda b: b["team"][0].update(source="clever"), ("team", 0, "source"), "no built-in"),
    (lambda b: b["team"][0].update(runtime="python", source="a.js"), ("team", 0, "source"), ".py"),
    (lambda b: b["team"][0].update(runtime="js", source="a.py"), ("team", 0, "source"), ".js"),
    (lambda b: b["team"][0].update(monster="dracula"), ("team", 0, "monster"), "one of"),
    (lambda b: b["team"][0].update(school_size=-1), ("team", 0, "school_size"), "0 or more"),
    (lambda b: b["tournament"][0].update(mode="swiss"), ("tournament", 0, "mode"), "mode"),
    (lambda b: b["tournament"][0].update(seeding="age"), ("tournament", 0, "seeding"), "seeding"),
    (lambda b: b["tournament"][0].update(entrants=["Nobody", "Idle Imps"]),
     ("tournament", 0, "entrants", 0), "no team"),
    (lambda b: b["tournament"][0].update(entrants=["Idle Imps", "Idle Imps"]),
     ("tournament", 0, "entrants"), "twice"),
    (lambda b: b["tournament"][0].update(seed=-2), ("tournament", 0, "seed"), "0 or more"),
    (lambda b: b["tournament"].append(dict(b["tournament"][0])), ("tournament", 1, "name"), "two tournaments"),
    (lambda b: b["tournament"].append({**b["tournament"][0], "name": "BUILT-IN  cup"}),
     ("tournament", 1, "name"), "one folder"),
])
def test_validation_errors_name_the_field(change, path, words) -> None:
    error = broken(change)
    assert error.field_path == path
    assert words in error.message + error.hint


def test_warnings_for_shared_starts_and_unfair_maps() -> None:
    b = body()
    b["map"][0]["home"] = [[0, 0], [0, 0], [0, 6]]
    b["map"][1]["tiles"] = "3303033\n" + "3333333\n" * 6
    warnings = check(b)
    assert any("share a start tile" in w and "Default" in w for w in warnings)
    assert any("not symmetric" in w and "WaffleTown" in w for w in warnings)


def test_engine_views() -> None:
    b = body()
    teams = teams_of(b)
    assert [t.source for t in teams] == ["lookahead", "greedy", "cautious", "wander", "idle"]
    tournaments = tournaments_of(b, teams)
    assert tournaments[0]["entrants"][0] == "Lookahead Ghouls"
    assert summarize(b)["match"] == "best of 5"
    b["map"][0]["size"] = 3
    assert "error" in summarize(b)


def test_import_original_maps_json_x_is_the_row() -> None:
    from studio.storage.haunted.maps_json import add_maps, maps_from_maps_json

    holes = {"WaffleTown": [(0, 2), (0, 4), (2, 0), (2, 2), (2, 4), (2, 6), (4, 0), (4, 2), (4, 4),
                            (4, 6), (6, 2), (6, 4)],
             "JeffBridges": [(2, 1), (2, 5), (3, 0), (3, 3), (3, 6), (4, 1), (4, 5)]}
    document = {"maps": [{"name": "Default", "tiles": []}] + [
        {"name": name, "tiles": [{"x": r, "y": c, "status": 0} for r, c in cells]}
        for name, cells in holes.items()]}
    maps = maps_from_maps_json(document)
    expected = builtin_maps()
    assert [m.rows() for m in maps] == [expected[m.name].rows() for m in maps]
    b = body()
    names = add_maps(b, maps)
    assert names == ["Default (2)", "WaffleTown (2)", "JeffBridges (2)"]
    validate(b)
    # x/y swapped would put a hole on JeffBridges' start tiles (0,3)/(6,3): refused.
    swapped = {"maps": [{"name": "J", "tiles": [{"x": 3, "y": 0, "status": 0}, {"x": 0, "y": 3, "status": 0}]}]}
    with pytest.raises(ProjectError, match="broken tile"):
        maps_from_maps_json(swapped)
    with pytest.raises(ProjectError):
        maps_from_maps_json({"maps": [{"name": "X", "tiles": [{"x": 9, "y": 0, "status": 0}]}]})
    with pytest.raises(ProjectError):
        maps_from_maps_json([])
