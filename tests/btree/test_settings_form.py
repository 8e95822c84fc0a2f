"""The btree settings form below the screen: read from a model's settings, checked, written back."""

from __future__ import annotations

import pytest

from studio.engines.btree import BtreeError, compile_game, parse_json_game
from studio.storage import ProjectError
from studio.storage.btree.settings import apply_form, form_of, parse_glyphs

SETTINGS = {"btree": {"seed": 3, "missing_links": "error"}, "seats": {"X": "random"},
            "display": {"cell_width": 0, "show_hidden": False, "colors": {"X": "#ff0000"}}}


def test_every_player_gets_a_seat_and_the_rest_reads_back() -> None:
    form = form_of(SETTINGS, ["X", "O"])
    assert form.seats == {"X": "random", "O": "human"} and form.seed == "3"
    assert apply_form(SETTINGS, form)["seats"] == {"X": "random", "O": "human"}


def test_applied_values_land_in_their_tables_and_others_are_kept() -> None:
    form = form_of(SETTINGS, ["X"])
    form.seed, form.missing_empty, form.glyphs, form.cell_width = "9", True, "X=✕ _=·", "2"
    form.seats["X"] = " Solver "
    new = apply_form(SETTINGS, form)
    assert new["btree"] == {"seed": 9, "missing_links": "empty"}
    assert new["seats"] == {"X": "solver"}
    assert new["display"] == {"cell_width": 2, "show_hidden": False,
                              "colors": {"X": "#ff0000"}, "glyphs": {"X": "✕", "_": "·"}}
    assert SETTINGS["btree"]["seed"] == 3  # the model's settings are never mutated


@pytest.mark.parametrize(("field", "value", "message"), [
    ("seed", "-1", "seed"), ("seed", "x", "seed"), ("cell_width", "99", "cell width"),
    ("glyphs", "X", "TILE=GLYPH")])
def test_a_value_that_does_not_read_is_refused_by_name(field, value, message) -> None:
    form = form_of(SETTINGS, [])
    setattr(form, field, value)
    with pytest.raises(ProjectError, match=message):
        apply_form(SETTINGS, form)


def test_an_unknown_seat_is_refused() -> None:
    form = form_of(SETTINGS, ["X"])
    form.seats["X"] = "robot"
    with pytest.raises(ProjectError, match="human, random, first, solver"):
        apply_form(SETTINGS, form)


def test_glyphs_text_round_trips() -> None:
    assert parse_glyphs("a=1  b=→") == {"a": "1", "b": "→"}


def test_a_missing_link_names_the_setting_as_well_as_the_flag() -> None:
    game = parse_json_game('{"name": "g", "tree": {"type": "order", "children": '
                           '[{"type": "x-link", "target": "nope"}]}}')
    with pytest.raises(BtreeError) as caught:
        compile_game(game)
    assert "Missing links in the settings (key ,)" in str(caught.value)
    assert "--missing-links empty" in str(caught.value)


def test_sprite_images_are_on_unless_turned_off_and_the_default_is_not_written() -> None:
    form = form_of(SETTINGS, [])
    assert form.images
    assert "images" not in apply_form(SETTINGS, form)["display"]  # files stay as they were
    form.images = False
    off = apply_form(SETTINGS, form)
    assert off["display"]["images"] is False and form_of(off, []).images is False
    form.images = True
    assert "images" not in apply_form(off, form)["display"]


def test_a_project_whose_images_setting_is_not_true_or_false_is_refused(tmp_path) -> None:
    from studio.storage import load_project

    path = tmp_path / "game.toml"
    path.write_text('[project]\nkind = "btree"\nname = "g"\nformat = 1\n\n'
                    '[display]\nimages = "yes"\n\n[[node]]\nat = []\ntype = "order"\n')
    with pytest.raises(ProjectError, match="images must be true or false"):
        load_project(path)
