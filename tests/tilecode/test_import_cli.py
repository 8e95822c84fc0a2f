"""``studio import`` of original TileCode games (settings JSON) through ``cli.main``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio import cli
from studio.engines.tilecode.importer import import_settings
from studio.storage import dumps_project, load_project
from studio.storage.tilecode.kind import project_to_game
from tests.shared_data import requires_shared
from tests.tilecode.test_codec import GAMES
from tests.tilecode.test_import import document, record, rule_hex


def write_json(path: Path, data: dict) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", GAMES)
def test_every_corpus_game_imports_validates_and_round_trips(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = requires_shared("corpus", "tilecode") / f"{name}.json"
    target = tmp_path / f"{name}.toml"
    assert cli.main(["import", str(source), "-o", str(target)]) == 0
    out, err = capsys.readouterr()
    assert out == f"{target}\n" and err == ""
    text = target.read_text(encoding="utf-8")
    project = load_project(target)
    assert project.kind == "tilecode" and project.name == name
    assert dumps_project(project) == text
    assert project_to_game(project) == import_settings(json.loads(source.read_text(encoding="utf-8"))).game
    assert 'license = "MIT"' in text and 'copyright = "Copyright (c) Microsoft Corporation."' in text
    assert cli.main(["validate", str(target)]) == 0
    assert "warning" not in capsys.readouterr().out


def test_default_output_is_named_after_the_game_and_is_not_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    source = write_json(tmp_path / "tiny.json", document())
    assert cli.main(["import", str(source)]) == 0
    first = Path(capsys.readouterr().out.strip())
    assert first.exists() and load_project(first).name == "Tiny"
    # Again: refused, not a second "Tiny" quietly beside the first (tiny-2.toml).
    assert cli.main(["import", str(source)]) == 1
    assert "the file exists" in capsys.readouterr().err
    assert cli.main(["import", str(source), "--force"]) == 0
    assert Path(capsys.readouterr().out.strip()) == first
    assert sorted(p.name for p in tmp_path.glob("*.toml")) == [first.name]
    assert cli.main(["import", str(source), "-o", str(first)]) == 1
    assert "exists" in capsys.readouterr().err
    assert cli.main(["import", str(source), "-o", str(first), "--force"]) == 0


def test_warnings_go_to_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    uturn = rule_hex(1, 6, record(2, 2, (1, 0, 0, 0), commands=((0, 5),)))
    source = write_json(tmp_path / "tiny.json", document({"RuleB4": uturn}))
    assert cli.main(["import", str(source), "-o", str(tmp_path / "t.toml")]) == 0
    err = capsys.readouterr().err
    assert err == "warning: Tiny: rule 4 record (2, 2): 'move u-turn' is not supported, dropped\n"


@pytest.mark.parametrize(("key", "value", "words"), [
    ("BackN", 3, "BackN: kind count is 3"),
    ("RuleB0", "20262200011623030c06000200", "RuleB0: byte 12: "),
    ("WBackM", "0808ff", "WBackM: byte 3: buffer covers 15 of the 64 pixels"),
])
def test_malformed_games_exit_1_with_one_line_and_write_nothing(
    key: str, value: object, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = document()
    doc["keys"][key] = value
    source = write_json(tmp_path / "bad.json", doc)
    target = tmp_path / "bad.toml"
    assert cli.main(["import", str(source), "-o", str(target)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and str(source) in err
    assert not target.exists()


def test_other_json_still_goes_to_the_trrbt_importer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_json(tmp_path / "game.json", {"name": "x", "keys": {"NotTileCode": 1}})
    assert cli.main(["import", str(source), "-o", str(tmp_path / "g.toml")]) == 1
    err = capsys.readouterr().err
    assert "TileCode" not in err and not (tmp_path / "g.toml").exists()


def test_games_ts_imports_every_game_into_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.tilecode.test_import import games_ts

    tiny = document()["keys"]
    source = tmp_path / "games.ts"
    source.write_text(games_ts([("Tiny", tiny), ("Other", tiny)], 'createTiny("TW1-");\n'), encoding="utf-8")
    out = tmp_path / "out"
    assert cli.main(["import", str(source), "-o", str(out)]) == 1
    assert "holds 2 games" in capsys.readouterr().err
    out.mkdir()
    assert cli.main(["import", str(source), "-o", str(out)]) == 0
    written = [Path(line) for line in capsys.readouterr().out.split()]
    assert [load_project(p).name for p in written] == ["Tiny", "Other"]
    assert cli.main(["import", str(source), "-o", str(out)]) == 0  # again: free names, nothing overwritten
    assert len(list(out.glob("*.toml"))) == 4
    single = tmp_path / "one.ts"
    single.write_text(games_ts([("Tiny", tiny)], ""), encoding="utf-8")
    assert cli.main(["import", str(single), "-o", str(tmp_path / "one.toml")]) == 0
    assert load_project(tmp_path / "one.toml").name == "Tiny"
    (tmp_path / "empty.ts").write_text("// no games\n", encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["import", str(tmp_path / "empty.ts")]) == 1
    assert "no createXxx(prefix) game functions" in capsys.readouterr().err
