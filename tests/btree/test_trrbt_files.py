"""trrbt game files in a folder: told apart cheaply, imported without overwriting, exported."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from studio.engines.btree import export_yaml, parse_json_game, parse_yaml_game
from studio.storage import ProjectError, folder_stamp, load_project, scan_folder
from studio.storage.btree.trrbt import export_game, export_target, import_into_folder, load_game
from studio.storage.trrbt_files import SNIFF_BYTES, sniff_trrbt
from tests.btree.trrbt_texts import TTT_JSON, TTT_YAML


def test_a_yaml_or_json_game_is_known_by_its_head(tmp_path: Path) -> None:
    (tmp_path / "ttt.yaml").write_text(TTT_YAML)
    (tmp_path / "game.json").write_text(TTT_JSON)
    (tmp_path / "ci.yml").write_text("name: build\non:\n  push: {}\n")
    (tmp_path / "settings.json").write_text('{"name": "x", "rules": []}')
    assert sniff_trrbt(tmp_path / "ttt.yaml") == "tiny tic-tac-toe"
    assert sniff_trrbt(tmp_path / "game.json") == "json game"
    assert sniff_trrbt(tmp_path / "ci.yml") is None
    assert sniff_trrbt(tmp_path / "settings.json") is None


def test_the_folder_lists_trrbt_games_beside_projects(tmp_path: Path) -> None:
    (tmp_path / "ttt.yaml").write_text(TTT_YAML)
    (tmp_path / "notes.json").write_text("[1, 2]")
    (tmp_path / "x.btreplay.json").write_text('{"tree": 1}')
    entries = [e for e in scan_folder(tmp_path) if e.btreplay is None and e.error is None]
    assert [(e.name, e.trrbt) for e in entries] == [("tiny tic-tac-toe", "tiny tic-tac-toe")]
    assert "ttt.yaml" in {name for name, _size, _time in folder_stamp(tmp_path)}


def test_a_huge_yaml_is_listed_without_being_read(tmp_path: Path) -> None:
    # A game's head, then 50 MB that a parser would chew on: the listing reads the head only.
    with open(tmp_path / "big.yaml", "w") as out:
        out.write("name: big\ntree:\n  type: order\n")
        out.write(("# " + "x" * 1000 + "\n") * 50_000)
    started = time.monotonic()
    entries = scan_folder(tmp_path)
    assert time.monotonic() - started < 1.0
    assert [e.name for e in entries] == ["big"]


def test_a_fifo_named_yaml_does_not_hang_the_listing(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "head.yaml").write_text("tree:\n" + "a" * (2 * SNIFF_BYTES))
    assert [e.path.name for e in scan_folder(tmp_path)] == ["head.yaml"]


def test_import_into_a_folder_never_overwrites(tmp_path: Path) -> None:
    game = tmp_path / "ttt.yaml"
    game.write_text(TTT_YAML)
    first, _ = import_into_folder(game, tmp_path)
    second, _ = import_into_folder(game, tmp_path)
    named, _ = import_into_folder(game, tmp_path, "My Copy")
    assert first.path.name == "tiny-tic-tac-toe.toml"
    assert second.path != first.path and second.name == "tiny tic-tac-toe (ttt)"
    assert named.path.name == "my-copy.toml" and load_project(named.path).name == "My Copy"
    assert game.read_text() == TTT_YAML


def test_import_of_a_broken_game_is_a_project_error(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text("tree:\n  type: nosuchnode\n")
    with pytest.raises(ProjectError):
        import_into_folder(tmp_path / "bad.yaml", tmp_path)
    assert list(tmp_path.glob("*.toml")) == []


def test_yaml_export_reads_back_as_the_same_game() -> None:
    for game in (parse_yaml_game(TTT_YAML), parse_json_game(TTT_JSON)):
        back = parse_yaml_game(export_yaml(game))
        assert (back.name, back.tree) == (game.name, game.tree)


def test_a_tile_the_text_form_cannot_hold_stays_a_grid() -> None:
    game = parse_json_game('{"name": "g", "tree": {"type": "match", '
                           '"pattern": {"main": [["a b", ";"]]}}}')
    assert parse_yaml_game(export_yaml(game)).tree == game.tree


def test_export_picks_the_format_by_suffix_and_never_overwrites(tmp_path: Path) -> None:
    game = parse_yaml_game(TTT_YAML)
    yaml_file = export_game(game, export_target(tmp_path, "out.yaml"))
    json_file = export_game(game, export_target(tmp_path, "out.json"))
    assert load_game(yaml_file).tree == game.tree
    assert load_game(json_file).tree == game.tree
    assert json_file.read_text().startswith("{")
    with pytest.raises(ProjectError, match="exists"):
        export_target(tmp_path, "out.yaml")
    with pytest.raises(ProjectError, match=".yaml, .yml or .json"):
        export_target(tmp_path, "out.txt")
