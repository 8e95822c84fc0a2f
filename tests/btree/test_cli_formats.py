"""``studio import``, ``export`` and ``expand`` (headless, through ``cli.main``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio import cli
from studio.commands.btree.formats import load_compiled
from studio.storage import ProjectError, load_project
from tests.btree.formats_corpus import BTREE, expected, normalise
from tests.shared_data import requires_shared

GAME = """\
name: mini-push
tree:
  type: order
  children:
  - type: set-board
    pattern: "X X X X; X P _ X; X X X X;"
  - type: loop-until-all
    children:
    - type: player
      pid: hero
      children:
      - type: x-spin
        children:
        - {type: rewrite, desc: step, button: right, lhs: P _, rhs: _ P}
"""


def test_import_export_expand(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "push.yaml").write_text(GAME, encoding="utf-8")
    assert cli.main(["import", "push.yaml"]) == 0
    out = Path(capsys.readouterr().out.strip())
    assert out.name == "mini-push.toml" and load_project(out).body["seats"] == {"hero": "human"}
    assert cli.main(["import", "push.yaml", "-o", str(out)]) == 1
    assert "exists" in capsys.readouterr().err
    assert cli.main(["export", str(out), "--format", "trrbt-json"]) == 0
    authored = json.loads(capsys.readouterr().out)
    assert authored["tree"]["children"][1]["children"][0]["children"][0]["type"] == "x-spin"
    assert cli.main(["export", str(out), "--compiled", "-o", "c.json"]) == 0
    assert capsys.readouterr().out == "c.json\n"
    compiled = json.loads((tmp_path / "c.json").read_text())
    assert len(compiled["tree"]["children"][1]["children"][0]["children"]) == 4
    assert cli.main(["expand", str(out)]) == 0
    expanded = json.loads(capsys.readouterr().out)
    assert expanded == {"name": "mini-push", "tree": compiled["tree"]}
    assert cli.main(["expand", "push.yaml"]) == 0
    assert json.loads(capsys.readouterr().out) == expanded


def test_a_second_game_of_one_name_is_imported_under_its_file_s_name_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for level in ("level_3", "level_4"):  # levels of one game share its name
        (tmp_path / f"{level}.yaml").write_text(GAME, encoding="utf-8")
        assert cli.main(["import", f"{level}.yaml"]) == 0
    first, second = capsys.readouterr().out.split()
    assert load_project(first).name == "mini-push"
    assert load_project(second).name == "mini-push (level_4)"
    assert Path(second).name == "mini-push-level_4.toml"


def test_the_same_game_imported_again_is_refused_unless_forced(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """It used to be written as `mini-push-level_3.toml`, a copy under another name."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "level_3.yaml").write_text(GAME, encoding="utf-8")
    assert cli.main(["import", "level_3.yaml"]) == 0
    capsys.readouterr()
    assert cli.main(["import", "level_3.yaml"]) == 1
    assert "the file exists" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["level_3.yaml", "mini-push.toml"]
    assert cli.main(["import", "level_3.yaml", "--force"]) == 0
    assert capsys.readouterr().out.strip() == "mini-push.toml"
    assert (tmp_path / "mini-push.toml.bak").exists()


def test_authoring_errors_exit_1_with_the_node_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: b\ntree:\n  type: order\n  children:\n  - {type: x-link, target: gone}\n", encoding="utf-8")
    assert cli.main(["import", str(bad), "-o", str(tmp_path / "b.toml")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tree/children[0]: x-link" in err and "'gone'" in err
    assert not (tmp_path / "b.toml").exists()
    assert cli.main(["expand", str(bad), "--missing-links", "empty"]) == 0
    assert cli.main(["import", str(tmp_path / "none.yaml")]) == 1
    with pytest.raises(ProjectError, match="x-link"):
        load_compiled(bad)


def test_every_corpus_game_imports_and_the_project_expands_like_the_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    requires_shared("corpus", "btree")
    for name, extra in [("games_yaml/dungeon_chase.yaml", []), ("games_yaml/dungeon.yaml", ["--missing-links", "empty"])]:
        target = tmp_path / (Path(name).stem + ".toml")
        assert cli.main(["import", str(BTREE / "games" / name), "-o", str(target), *extra]) == 0
        capsys.readouterr()
        assert cli.main(["expand", str(target)]) == 0
        got = json.loads(capsys.readouterr().out)
        assert normalise(got) == normalise(expected("expanded/" + name.replace("/", "__").replace(".yaml", ".json")))
