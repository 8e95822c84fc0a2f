"""Validation of TileCode projects (spec tilecode.md §3.4): every error and warning, with its path."""

from __future__ import annotations

from typing import Any

import pytest

from studio.engines.tilecode.model import Command, Game, Rule, TileRecord
from studio.storage import ProjectError, check_project, dumps_project, loads_project
from studio.storage.tilecode.kind import (
    body_problems, check, game_to_body, game_to_project, new_game, validate,
)
from studio.storage.tilecode.check import game_problems, has_witness, map_problems

Body = dict[str, Any]


def rec(col: int, row: int, include=(), include2=(), exclude=(), dir="any", do=()) -> TileRecord:
    return TileRecord(col, row, frozenset(include), frozenset(include2), frozenset(exclude), dir,
                      tuple(Command.parse(text) for text in do))


def body_with(*rules: Rule) -> Body:
    """A valid new game whose rules are ``rules`` (the first one at file index 0, and so on)."""
    base = new_game("V")
    game = Game(base.name, base.backgrounds, base.sprites, base.map, rules)
    return game_to_body(game)


def error_of(body: Body) -> ProjectError:
    with pytest.raises(ProjectError) as info:
        validate(body)
    return info.value


def test_a_project_with_rule_errors_still_opens_but_cannot_run(tmp_path, capsys) -> None:
    """Loading checks only the file's shape, so nothing is lost; validate and run refuse it."""
    from studio import cli

    base = new_game("Bad")
    bad = Rule(9, "never", (rec(2, 2, [], do=["game win"]),))
    path = tmp_path / "bad.toml"
    game = Game("Bad", base.backgrounds, base.sprites, base.map, (bad,))
    path.write_text(dumps_project(game_to_project(game)), encoding="utf-8")
    project = loads_project(path.read_text(encoding="utf-8"), path)
    assert project.summary()["problems"] == "1 error, 0 warnings"
    assert cli.main(["validate", str(path)]) == 1
    assert cli.main(["run", str(path)]) == 1
    err = capsys.readouterr().err
    assert "needs a sprite kind" in err and "1 error blocks play" in err


WALK = Rule(0, "press", (rec(2, 2, ["s0"], do=["move right"]), rec(3, 2, ["b1"])), "right",
            "rotate-3-way")


def test_a_clean_rule_has_no_problems() -> None:
    validate(body_with(WALK))
    assert check(body_with(WALK)) == []


# ------------------------------------------------------------------------------ errors


def test_error_1_kind_in_two_sets() -> None:
    rule = Rule(5, "press", (rec(2, 2, ["s0"], do=["move up"]), rec(2, 1, ["b1"], exclude=["b1"])),
                "up")
    error = error_of(body_with(WALK, rule))
    assert error.field_path == ("rules", 1, "tiles", 1, "exclude")
    assert "rule 5" in error.message and "tile (2,1)" in error.message
    assert "b1 is in both include and exclude" in error.message and error.hint


@pytest.mark.parametrize("do", [["move right"], ["destroy"]])
def test_error_2_sprite_command_without_witness(do: list[str]) -> None:
    rule = Rule(2, "change", (rec(2, 2, ["s1"]), rec(3, 2, ["b1", "s2"], do=do)))
    error = error_of(body_with(rule))
    assert error.field_path == ("rules", 0, "tiles", 1, "do", 0)
    assert "rule 2, tile (3,2)" in error.message and "no sprite witness" in error.message
    assert "include only sprite kinds" in error.hint


def test_error_2_exceptions_move_after_create_and_the_centre_sprite() -> None:
    created = Rule(1, "press", (rec(2, 2, ["s0"]), rec(3, 2, do=["create s1", "move right"])), "A")
    mixed_centre = Rule(2, "change", (rec(2, 2, ["s1", "b2"], do=["move left"]),))
    assert not any(p.is_error for p in body_problems(body_with(created, mixed_centre)))
    assert has_witness(mixed_centre.tiles[0]) and not has_witness(rec(3, 2, ["s1", "b2"]))


@pytest.mark.parametrize(
    ("do", "index", "text"),
    [
        (["paint b1", "paint b2"], 1, "paint is used twice"),
        (["game score"] * 5, 0, "5 commands, at most 4"),
        (["paint b1", "move right"], 1, "move must be the first command"),
        (["paint b1", "destroy"], 1, "destroy must be the first command"),
        (["create s1", "move up", "create s2", "move down"], 2, "create is used twice"),
    ],
)
def test_error_3_row_shape(do: list[str], index: int, text: str) -> None:
    rule = Rule(4, "press", (rec(2, 2, ["s0"], do=do),), "left")
    error = error_of(body_with(rule))
    where = ("rules", 0, "tiles", 0, "do") if "at most" in text else ("rules", 0, "tiles", 0, "do", index)
    assert error.field_path == where
    assert text in error.message and "rule 4, tile (2,2)" in error.message


def test_error_3_move_after_create_is_not_a_duplicate() -> None:
    rule = Rule(4, "press", (rec(2, 2, ["s0"], do=["move left", "create s1", "move right"]),), "A")
    validate(body_with(rule))


def test_error_4_smash_centre_dir_must_be_a_direction() -> None:
    rule = Rule(3, "smash", (rec(2, 2, ["s1"], do=["move stop"]), rec(3, 2, ["b0"])))
    error = error_of(body_with(rule))
    assert error.field_path == ("rules", 0, "tiles", 0, "dir")
    assert "rule 3, tile (2,2)" in error.message and "direction" in error.message


def test_error_4_smash_moves_only_stop_and_stop_only_in_smash() -> None:
    smash = Rule(3, "smash", (rec(2, 2, ["s1"], dir="up", do=["move down"]), rec(2, 1, ["b0"])))
    assert error_of(body_with(smash)).field_path == ("rules", 0, "tiles", 0, "do", 0)
    assert "only 'move stop'" in error_of(body_with(smash)).message
    press = Rule(6, "press", (rec(2, 2, ["s0"], do=["move stop"]),), "up")
    error = error_of(body_with(press))
    assert error.field_path == ("rules", 0, "tiles", 0, "do", 0) and "stop is only for smash" in error.message


def test_error_5_never_rules_only_game_and_block() -> None:
    rule = Rule(9, "never", (rec(2, 2, ["s1"]), rec(2, 3, ["s2"], do=["destroy"])))
    error = error_of(body_with(rule))
    assert error.field_path == ("rules", 0, "tiles", 1, "do", 0)
    assert "rule 9, tile (2,3)" in error.message and "game and block" in error.message
    validate(body_with(Rule(9, "never", (rec(2, 2, ["s1"], do=["game win", "block s0"]),))))


@pytest.mark.parametrize(("include", "text"), [([], "needs a sprite kind"), (["s1", "b1"], "background")])
def test_error_5_never_centre_include(include: list[str], text: str) -> None:
    rule = Rule(9, "never", (rec(2, 2, include, do=["game win"]),))
    error = error_of(body_with(rule))
    assert error.field_path == ("rules", 0, "tiles", 0, "include") and text in error.message


def test_error_5_disabled_never_rule_is_only_a_warning() -> None:
    rule = Rule(9, "never", (rec(2, 2, ["b1"], do=["game win"]),), enabled=False)
    body = body_with(rule)
    validate(body)
    (warning,) = body_problems(body)
    assert warning.path == ("rules", 0, "enabled") and "disabled" in warning.message


def test_error_6_commands_on_corners() -> None:
    rule = Rule(1, "change", (rec(2, 2, ["s1"]), rec(3, 3, do=["paint b2"])))
    error = error_of(body_with(rule))
    assert error.field_path == ("rules", 0, "tiles", 1, "do")
    assert "rule 1, tile (3,3)" in error.message and "corner" in error.message


@pytest.mark.parametrize(
    ("where", "value", "text"),
    [("do", "move u-turn", "u-turn is not supported"),
     ("do", "game next-level", "next-level is not supported"),
     ("button", "B", "button B is not supported")],
)
def test_error_7_unsupported_codes(where: str, value: str, text: str) -> None:
    body = body_with(WALK)
    if where == "do":
        body["rules"][0]["tiles"][0]["do"] = [value]
        path = ("rules", 0, "tiles", 0, "do", 0)
    else:
        body["rules"][0]["button"] = value
        path = ("rules", 0, "button")
    error = error_of(body)
    assert error.field_path == path and text in error.message


@pytest.mark.parametrize(
    ("change", "path", "text"),
    [
        (lambda m: m.update(width=7), ("map", "width"), "from 8 to 128"),
        (lambda m: m.update(height=129), ("map", "height"), "from 8 to 128"),
        (lambda m: m.update(background=m["background"].replace("0", "4", 1)), ("map", "background"),
         "tile (0,0) has background '4'"),
        (lambda m: m.update(sprites=m["sprites"].replace(".", "7", 1)), ("map", "sprites"),
         "tile (0,0) has sprite '7'"),
        (lambda m: m.update(extra_sprites=[[32, 0, "s0"]]), ("map", "extra_sprites", 0),
         "outside the 32×24 map"),
        (lambda m: m.update(extra_sprites=[[1, 1, "s4"]]), ("map", "extra_sprites", 0), "[x, y"),
        (lambda m: m.update(background=m["background"] + "0" * 32 + "\n"), ("map", "background"),
         "25 rows; it needs 24"),
        (lambda m: m.update(sprites=m["sprites"].replace(".\n", "\n", 1)), ("map", "sprites"),
         "row 0 has 31 cells"),
    ],
)
def test_error_8_map(change, path: tuple, text: str) -> None:
    body = body_with(WALK)
    change(body["map"])
    error = error_of(body)
    assert error.field_path == path and text in error.message


def test_error_8_map_of_a_game_built_in_code() -> None:
    game = new_game("V")
    bad = Game(game.name, game.backgrounds, game.sprites,
               type(game.map)(7, 24, game.map.background, ()), ())
    problems = map_problems(bad)
    assert [p.path for p in problems] == [("map", "width"), ("map", "background")]
    assert all(p.is_error for p in game_problems(bad))


# ---------------------------------------------------------------------------- warnings


def warnings_of(*rules: Rule) -> list:
    problems = body_problems(body_with(*rules))
    assert not any(p.is_error for p in problems), problems
    return problems


def test_warning_1_dead_rule() -> None:
    (warning,) = warnings_of(Rule(3, "change", (rec(2, 2, ["b1"], do=["paint b2"]),)))
    assert warning.path == ("rules", 0, "tiles", 0, "include")
    assert "rule 3, tile (2,2)" in warning.message and "never fires" in warning.message
    (missing,) = warnings_of(Rule(3, "press", (rec(3, 2, ["b1"]),), "A"))
    assert missing.path == ("rules", 0, "tiles", "include")  # no centre record at all


def test_warning_2_smash_ignores_other_records_and_centre_extras() -> None:
    rule = Rule(4, "smash", (
        rec(2, 2, ["s1"], exclude=["s2"], dir="down", do=["move stop"]),
        rec(2, 3, ["b0"]), rec(1, 1, ["b2"]),
    ))
    ignored, centre = warnings_of(rule)
    assert ignored.path == ("rules", 0, "tiles", 2) and "tile (1,1)" in ignored.message
    assert centre.path == ("rules", 0, "tiles", 0) and "ignored" in centre.message


def test_warning_3_dir_without_witness() -> None:
    rule = Rule(2, "change", (rec(2, 2, ["s1"], do=["move up"]), rec(2, 1, ["b1"], dir="left")))
    (warning,) = warnings_of(rule)
    assert warning.path == ("rules", 0, "tiles", 1, "dir") and "tile (2,1)" in warning.message


def test_warning_4_backgrounds_in_centre_include() -> None:
    (warning,) = warnings_of(Rule(2, "press", (rec(2, 2, ["s0", "b1"], do=["move up"]),), "up"))
    assert warning.path == ("rules", 0, "tiles", 0, "include") and "redundant" in warning.message


# ------------------------------------------------------------------------ shape errors


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda b: b.update(extra=1), ("extra",)),
        (lambda b: b["game"].update(speed=1), ("game", "speed")),
        (lambda b: b["backgrounds"][2].update(colour="#000000"), ("backgrounds", 2, "colour")),
        (lambda b: b["map"].update(depth=2), ("map", "depth")),
        (lambda b: b["rules"][0].update(when=[]), ("rules", 0, "when")),
        (lambda b: b["rules"][0]["tiles"][1].update(incude=["b1"]), ("rules", 0, "tiles", 1, "incude")),
        (lambda b: b["sprites"].pop(), ("sprites",)),
        (lambda b: b["game"].update(round_ms=10), ("game", "round_ms")),
        (lambda b: b["game"].update(help="yes"), ("game", "help")),
        (lambda b: b["backgrounds"][0].update(glyph="abc"), ("backgrounds", 0, "glyph")),
        (lambda b: b["backgrounds"][0].update(color="red"), ("backgrounds", 0, "color")),
        (lambda b: b["sprites"][1].update(art="0" * 16 + "\n"), ("sprites", 1, "art")),
        (lambda b: b["sprites"][1].update(art="g" * 16 + "\n" + "0" * 16 * 15), ("sprites", 1, "art")),
        (lambda b: b["rules"][0].update(type="push"), ("rules", 0, "type")),
        (lambda b: b["rules"][0].update(transforms="spin"), ("rules", 0, "transforms")),
        (lambda b: b["rules"][0]["tiles"][0].update(col=4), ("rules", 0, "tiles", 0, "col")),
        (lambda b: b["rules"][0]["tiles"][0].update(include=["s9"]), ("rules", 0, "tiles", 0, "include")),
        (lambda b: b["rules"][0]["tiles"][0].update(dir="north"), ("rules", 0, "tiles", 0, "dir")),
        (lambda b: b["rules"][0]["tiles"][0].update(do=["jump"]), ("rules", 0, "tiles", 0, "do", 0)),
        (lambda b: b["rules"][0]["tiles"][1].update(col=2, row=2), ("rules", 0, "tiles", 1)),
        (lambda b: b["rules"].append(dict(b["rules"][0])), ("rules", 1, "id")),
        (lambda b: b["rules"][0].pop("button"), ("rules", 0)),
        (lambda b: b.pop("map"), ("map",)),
    ],
)
def test_shape_errors_name_their_field(change, path: tuple) -> None:
    body = body_with(WALK)
    change(body)
    assert error_of(body).field_path == path


def test_button_and_rule_type_must_agree_in_games_built_in_code() -> None:
    base = new_game("V")
    for rule in (Rule(1, "press", (rec(2, 2, ["s0"]),)), Rule(2, "change", (rec(2, 2, ["s1"]),), "A")):
        (problem,) = game_problems(Game("V", base.backgrounds, base.sprites, base.map, (rule,)))
        assert problem.is_error and problem.path == ("button",) and f"rule {rule.id}" in problem.message


def test_never_with_button_is_an_error() -> None:
    body = body_with(Rule(1, "never", (rec(2, 2, ["s1"], do=["game win"]),)))
    body["rules"][0]["button"] = "A"
    assert error_of(body).field_path == ("rules", 0, "button")


def test_field_paths_point_into_the_file_even_when_rules_are_out_of_order() -> None:
    bad = Rule(1, "change", (rec(2, 2, ["s1"]), rec(1, 1, do=["game score"])))
    body = body_with(WALK, bad)
    body["rules"].reverse()
    assert error_of(body).field_path == ("rules", 0, "tiles", 1, "do")


def test_checking_a_file_with_an_error_names_its_line(tmp_path) -> None:
    bad = Rule(7, "change", (rec(2, 2, ["s1"]), rec(3, 2, ["b1"], do=["destroy"])))
    base = new_game("L")
    text = dumps_project(game_to_project(Game("L", base.backgrounds, base.sprites, base.map, (bad,))))
    path = tmp_path / "l.toml"
    path.write_text(text, encoding="utf-8")
    project = loads_project(text, path)  # opens: the error is kept to be fixed, not lost
    with pytest.raises(ProjectError) as info:
        check_project(project)
    assert info.value.file == path
    line = text.splitlines()[info.value.line - 1]
    assert line.strip() == 'do = ["destroy"]'
    assert "rule 7, tile (3,2)" in str(info.value)


def test_check_returns_warnings_as_text() -> None:
    warnings = check(body_with(Rule(2, "press", (rec(2, 2, ["s0", "b1"], do=["move up"]),), "up")))
    assert warnings == ["rule 2, tile (2,2): background kinds in the centre include are redundant "
                        "(remove them; the centre sprite always stands there)"]


def test_validate_command_prints_warnings(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio import cli

    base = new_game("Warned")
    dead = Rule(3, "change", (rec(2, 2, ["b1"], do=["paint b2"]),))
    path = tmp_path / "warned.toml"
    path.write_text(dumps_project(game_to_project(Game("Warned", base.backgrounds, base.sprites,
                                                       base.map, (dead,)))), encoding="utf-8")
    assert cli.main(["validate", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (f"{path}: warning: rule 3, tile (2,2): no sprite kind in the centre include, "
                      "so the rule never fires (include the sprite kind the rule is for)")
    assert out[1] == f"{path}: ok, TileCode project 'Warned'"
