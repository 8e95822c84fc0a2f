"""`studio run`, `studio trace` on behaviour-tree games."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from studio import cli
from studio.storage import create_project
from tests.btree.corpus import corpus_dir, normalise, read_jsonl

GAMES = Path(__file__).resolve().parents[2] / "games"


def studio(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "studio", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_human_play_with_undo_and_quit() -> None:
    result = studio("run", str(GAMES / "tic-tac-toe.toml"), stdin="5\nu\n1\n2\nq\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "player X to move:" in out and "player O to move:" in out
    assert "9. place a mark _ → X @2,2" in out
    assert out.rstrip().endswith("Game stopped")
    # after the undo X's mark went to the first cell, and O took the second free one
    assert "X   O" in out


def test_automatic_seats_play_to_the_end_deterministically() -> None:
    args = ("run", str(GAMES / "connect-four.toml"), "--player", "R=random", "--player", "Y=first",
            "--seed", "3")
    first, second = studio(*args), studio(*args)
    assert first.returncode == 0 and first.stdout == second.stdout
    assert first.stdout.rstrip().splitlines()[-1].startswith("Game over")
    assert "player R (random): drop a chip" in first.stdout


def test_bad_seat_and_unsupported_kind(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert cli.main(["run", str(GAMES / "tic-tac-toe.toml"), "--player", "X=robot"]) == 1
    assert "bad --player" in capsys.readouterr().err
    haunted = create_project(tmp_path, "haunted", "Spooky Cup").path
    assert cli.main(["run", str(haunted)]) == 1
    assert "cannot be run yet" in capsys.readouterr().err


def test_eof_on_stdin_stops_the_game(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert cli.main(["run", str(GAMES / "sokoban.toml")]) == 0
    assert capsys.readouterr().out.rstrip().endswith("Game stopped")


@pytest.mark.parametrize("name", ["games_yaml__checkers.a", "games_json__sweeper.b", "games_yaml__loop.a"])
def test_trace_command_reproduces_corpus_traces(name: str, tmp_path: Path) -> None:
    corpus = corpus_dir()
    expected = read_jsonl(corpus / "traces" / f"{name}.jsonl")
    header = expected[0]
    game = corpus / "games" / header["game"]
    out = tmp_path / "trace.jsonl"
    args = ["trace", str(game), "--seed", str(header["engine_seed"]), "--chooser", header["chooser"]["rule"],
            "--max-waits", str(header["max_waits"]), "--max-displays", str(header["max_displays"]),
            "-o", str(out)]
    if not header["display_boards"]:
        args.append("--no-display-boards")
    if "dungeon" in name:
        args += ["--missing-links", "empty"]
    assert cli.main(args) == 0
    ours = read_jsonl(out)
    assert ours[0]["format"] == "btree-trace/1" and ours[0]["engine_seed"] == header["engine_seed"]
    assert [normalise(line) for line in ours[1:]] == [normalise(line) for line in expected[1:]]


def test_trace_of_a_project_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["trace", str(GAMES / "tic-tac-toe.toml"), "--max-waits", "3"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["type"] for line in lines] == ["header", "choice", "choice", "choice", "choice", "end"]
    assert lines[-1]["reason"] == "cap_waits" and lines[1]["chosen"] == 3


def test_validate_compiles_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (GAMES / "crypt.toml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('rhs.main = "_ @"', 'rhs.main = "_ @ @"', 1), encoding="utf-8")
    assert cli.main(["validate", str(GAMES / "crypt.toml")]) == 0
    assert "ok" in capsys.readouterr().out
    assert cli.main(["validate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"studio: {bad}: tree/children[1]/children[0]/children[0]/children[0]: rewrite")
    assert "same size" in err


def test_display_glyphs_are_used_and_colours_validated(tmp_path: Path) -> None:
    text = (GAMES / "sokoban.toml").read_text(encoding="utf-8")
    styled = tmp_path / "styled.toml"
    styled.write_text(text.replace(
        "show_hidden = false", 'show_hidden = false\nglyphs = { "#" = "▓" }\ncolors = { "#" = "#808080" }'
    ), encoding="utf-8")
    result = studio("run", str(styled), stdin="q\n")
    assert result.returncode == 0 and result.stdout.startswith("▓ ▓ ▓ ▓ ▓ ▓ ▓\n")
    bad = tmp_path / "bad.toml"
    bad.write_text(styled.read_text(encoding="utf-8").replace('"#808080"', '"grey"'), encoding="utf-8")
    check = studio("validate", str(bad))
    assert check.returncode == 1 and "display.colors.#" in check.stderr
