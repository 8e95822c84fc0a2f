"""The studio command: sub-commands, exit codes and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from studio import cli
from studio.storage import load_project
from tests.conftest import ROOT


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "studio", *args], capture_output=True, text=True, cwd=cwd, timeout=60
    )


def test_help_lists_the_commands() -> None:
    result = run("--help")
    assert result.returncode == 0
    for word in ("new", "validate", "inspect", "FOLDER|FILE"):
        assert word in result.stdout


def test_the_command_index_names_every_command_where_it_is_registered() -> None:
    """`studio --help` and `studio FOLDER` read the index only: it must match the modules."""
    import importlib
    import pkgutil

    import studio.commands
    from studio.commands import COMMANDS, INDEX

    for info in pkgutil.walk_packages(studio.commands.__path__, prefix="studio.commands."):
        importlib.import_module(info.name)  # a command missing from the index raises here
    assert set(COMMANDS) == set(INDEX)
    for name, (_arguments, run) in COMMANDS.items():
        assert run.__module__ == INDEX[name][1], name


def test_help_and_a_command_load_only_what_they_need() -> None:
    code = (
        "import sys\n"
        "from studio import cli\n"
        "def commands():\n"
        "    return sorted(m for m in sys.modules if m.startswith('studio.commands.'))\n"
        "try:\n"
        "    cli.main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(commands(), file=sys.stderr)\n"
        "try:\n"
        "    cli.main(['new-ai', '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(commands(), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    after_help, after_new_ai = result.stderr.splitlines()[-2:]
    assert after_help == "[]"
    assert after_new_ai == "['studio.commands.haunted', 'studio.commands.haunted.ai']"


def test_usage_error_exits_2() -> None:
    result = run("new", "chess", "X")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


def test_new_writes_a_valid_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "mine.toml"
    assert cli.main(["new", "haunted", "My Cup", "-o", str(target)]) == 0
    assert capsys.readouterr().out.strip() == str(target)
    project = load_project(target)
    assert (project.kind, project.name) == ("haunted", "My Cup")


def test_new_without_output_names_the_file_after_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(["new", "btree", "Rush Hour"]) == 0
    # A second project of that name is refused (it quietly became rush-hour-2.toml, two projects
    # the home screen could not tell apart); --force overwrites the file, as with -o.
    assert cli.main(["new", "tilecode", "Rush Hour"]) == 1
    assert "rush-hour.toml: the file exists" in capsys.readouterr().err
    assert load_project(tmp_path / "rush-hour.toml").kind == "btree"
    assert cli.main(["new", "tilecode", "Rush Hour", "--force"]) == 0
    assert load_project(tmp_path / "rush-hour.toml").kind == "tilecode"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rush-hour.toml", "rush-hour.toml.bak"]


def test_new_refuses_to_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "x.toml"
    target.write_text("keep me")
    assert cli.main(["new", "btree", "X", "-o", str(target)]) == 1
    assert "exists" in capsys.readouterr().err
    assert target.read_text() == "keep me"
    assert cli.main(["new", "btree", "X", "-o", str(target), "--force"]) == 0
    assert load_project(target).name == "X"


def test_new_rejects_a_bad_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["new", "btree", "  ", "-o", str(tmp_path / "x.toml")]) == 1
    assert "empty" in capsys.readouterr().err


def test_validate_ok_and_broken(games_with_broken: Path) -> None:
    good = run("validate", "games/maze-runner.toml", cwd=games_with_broken.resolve().parent)
    assert good.returncode == 0 and "ok" in good.stdout
    bad = run("validate", "games/broken.toml", cwd=games_with_broken.resolve().parent)
    assert bad.returncode == 1
    assert bad.stderr.count("\n") == 1, "one line, no traceback"
    assert bad.stderr.startswith("studio: games/broken.toml:6:")


def test_inspect_text_and_json(games: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["inspect", str(games / "spooky-cup.toml")]) == 0
    text = capsys.readouterr().out
    assert "kind" in text and "haunted" in text and "Spooky Cup" in text
    assert cli.main(["inspect", "--json", str(games / "maze-runner.toml")]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["kind"] == "btree" and summary["name"] == "Maze Runner"
    assert summary["nodes"] == 3 and summary["compiled"] == 3 and summary["board"] == "3×3"


def test_missing_file_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["inspect", "no/such.toml"]) == 1
    assert "no such file" in capsys.readouterr().err


def test_ui_on_missing_path_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["no-such-folder"]) == 1
    assert "no such file or folder" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["sovle"], ["sovle", "x.toml"], ["valdate", "games"]])
def test_a_mistyped_command_is_named_with_the_nearest_not_taken_for_a_folder(
        argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as ended:
        cli.main(argv)
    err = capsys.readouterr().err
    assert ended.value.code == 2 and f"unknown command {argv[0]!r}" in err
    assert "did you mean 'solve'" in err or "did you mean 'validate'" in err
    assert "no such file" not in err and "unrecognized arguments" not in err


def test_an_unknown_word_with_arguments_is_an_unknown_command(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as ended:
        cli.main(["frobnicate", "x", "y"])
    assert ended.value.code == 2
    assert "unknown command 'frobnicate'; run 'studio --help'" in capsys.readouterr().err


def test_a_missing_folder_with_options_is_a_missing_folder_not_a_command(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(["my-games", "--theme", "ansi"]) == 1
    assert "my-games: no such file or folder" in capsys.readouterr().err


def test_a_folder_named_like_a_command_typo_still_opens(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sovle").mkdir()  # it exists: a path, whatever it looks like
    opened = []
    monkeypatch.setattr(cli, "_run_ui", lambda args: opened.append(args.path) or 0)
    assert cli.main(["sovle"]) == 0 and opened == ["sovle"]


def test_bare_path_means_open(monkeypatch: pytest.MonkeyPatch, games: Path) -> None:
    opened = []
    monkeypatch.setattr(cli, "_run_ui", lambda args: opened.append((args.path, args.theme)) or 0)
    assert cli.main(["games", "--theme", "ansi"]) == 0
    assert cli.main([]) == 0
    assert cli.main(["--theme", "light"]) == 0
    assert opened == [("games", "ansi"), ("games", None), ("games", "light")]


def test_dev_py_run_reads_a_folder_where_it_was_typed(tmp_path: Path) -> None:
    # It ran from the checkout, so `python3 dev.py run my-games/` looked for the checkout's.
    (tmp_path / "my-games").mkdir()
    result = subprocess.run([sys.executable, str(ROOT / "dev.py"), "run", "my-games"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=300,
                            stdin=subprocess.DEVNULL)
    assert "no such file or folder" not in result.stderr, result.stderr
    assert "needs a terminal" in result.stderr  # found it; then, without one, says so


def test_solve_for_a_player_the_game_has_not_is_an_error_naming_its_players(
        capsys: pytest.CaptureFixture[str]) -> None:
    # It searched and said "no win", as if that player could never win.
    assert cli.main(["solve", str(ROOT / "games" / "tic-tac-toe.toml"), "--player", "9"]) == 1
    err = capsys.readouterr().err
    assert "tic-tac-toe.toml: the game has no player '9' (its players: X, O)" in err


def test_an_error_with_no_place_is_its_message_alone() -> None:
    from studio.storage import ProjectError

    assert str(ProjectError("the game has no player '9'", hint="its players: X")) == \
        "the game has no player '9' (its players: X)"
    assert str(ProjectError("bad", line=3)) == "<text>:3: bad"  # a line of a text: still placed
