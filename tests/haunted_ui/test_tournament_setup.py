"""The tournament screen's edits as model functions (no app): choices, typed values, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.screens.haunted import tournament_setup as setup
from studio.storage import load_project
from studio.storage.haunted.kind import validate
from studio.storage.haunted.project import project_model


@pytest.fixture
def model(ht_project: Path):
    return project_model(load_project(ht_project))


def test_left_and_right_go_through_the_choices(model) -> None:
    modes = [setup.step_field(model, 0, "mode", k).tournament_tables[0]["mode"] for k in (1, -1)]
    assert modes == ["round-robin", "double-round-robin"]
    sized = model.with_table("team", [{**t, "school_size": 100 * k}
                                      for k, t in enumerate(model.team_tables)])
    seeded = setup.step_field(sized, 0, "seeding", 1)
    assert setup.tournament(seeded, 0)["seeding"] == "school-size"
    assert setup.tournament(setup.step_field(model, 0, "seed", -1), 0)["seed"] == 0
    longer = setup.step_field(model, 0, "rounds", 1)
    assert (longer.config().rounds, longer.config().max_rounds) == (7, 10)
    assert setup.step_field(model, 0, "time_limit", 1).config().time_limit == 3.0
    assert setup.step_field(model, 0, "maps", 1).config().maps == ("Default",)
    round_robin = setup.step_field(model, 0, "mode", 1)
    with pytest.raises(setup.SetupError, match="single elimination only"):
        setup.step_field(round_robin, 0, "third_place", 1)
    for edited in (seeded, longer, round_robin):
        validate(edited.body)


def test_typed_values_are_checked(model) -> None:
    assert setup.tournament(setup.set_typed(model, 0, "seed", " 77 "), 0)["seed"] == 77
    many = setup.set_typed(model, 0, "rounds", "11")
    assert (many.config().rounds, many.config().max_rounds) == (11, 11)
    assert setup.set_typed(model, 0, "maps", "WaffleTown, Default").config().maps == (
        "WaffleTown", "Default")
    assert setup.set_typed(model, 0, "time_limit", "0.5").config().time_limit == 0.5
    for key, text in (("seed", "-1"), ("rounds", "4"), ("time_limit", "90"), ("maps", "Nowhere"),
                      ("maps", " , ")):
        with pytest.raises(setup.SetupError):
            setup.set_typed(model, 0, key, text)
    assert setup.typed_value(model, 0, "maps").startswith("Default, I(n) The Middle")


def test_tournaments_and_entrants(model) -> None:
    second, index = setup.new_tournament(model)
    table = second.tournament_tables[index]
    assert index == 1 and table["name"] == "Tournament 2"
    # a name whose results are kept beside the project (its tournament discarded) is skipped
    kept = {"Tournament 2", "Tournament 3"}
    skipping, _ = setup.new_tournament(model, results=kept.__contains__)
    assert skipping.tournament_tables[-1]["name"] == "Tournament 4"
    assert table["entrants"] == [t.name for t in model.teams()]
    with pytest.raises(setup.SetupError, match="already"):
        setup.rename(second, 1, "Built-in cup")
    renamed = setup.rename(second, 1, "  Finale ")
    assert renamed.tournament_tables[1]["name"] == "Finale"
    assert [t["name"] for t in setup.delete(renamed, 0).tournament_tables] == ["Finale"]
    fewer = setup.remove_entrant(model, 0, 4)
    with pytest.raises(setup.SetupError, match="entered already"):
        setup.add_entrant(model, 0, "Idle Imps")
    again = setup.add_entrant(fewer, 0, "Idle Imps")
    assert setup.tournament(again, 0)["entrants"][-1] == "Idle Imps"
    moved = setup.move_entrant(model, 0, 0, 1)
    assert setup.tournament(moved, 0)["entrants"][:2] == ["Greedy Ghosts", "Lookahead Ghouls"]
    with pytest.raises(setup.SetupError, match="first"):
        setup.move_entrant(model, 0, 0, -1)
    two = model
    while len(setup.tournament(two, 0)["entrants"]) > 2:
        two = setup.remove_entrant(two, 0, 0)
    with pytest.raises(setup.SetupError, match="two entrants"):
        setup.remove_entrant(two, 0, 0)
    validate(two.body)
