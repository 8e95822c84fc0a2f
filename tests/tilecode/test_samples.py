"""The bundled TileCode games: canonical files, clean validation, summaries, golden playthroughs.

A playthrough is a seed and one button set per round; its golden file holds the §4.5 state dump
every 10 rounds, the final dump and the result. Regenerate deliberately with
``STUDIO_UPDATE_GOLDEN=1 .venv/bin/pytest tests/tilecode/test_samples.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from studio import cli
from studio.engines.tilecode.engine import dump_state, load
from studio.storage import dumps_project, load_project
from studio.storage.tilecode.kind import body_problems, project_to_game

GAMES = Path(__file__).resolve().parents[2] / "games"
GOLDEN = Path(__file__).resolve().parent / "golden"
DUMP_EVERY = 10
KEYS = {"L": ("left",), "U": ("up",), "R": ("right",), "D": ("down",), "A": ("A",), ".": ()}

# name: (game file stem, seed, inputs, expected result, expected score).
# Inputs: one token per round: L U R D A or "." (no button); "5R" = five rounds of R.
PLAYTHROUGHS = {
    "hello-world": ("hello-world", 0, ". U U U R D 5R 3D 5R 2D .", "won", 30),
    "hello-world-snake": ("hello-world", 0, ". U R", "lost", 0),
    "sokoban": ("tilecode-sokoban", 0, ". R U U R D D U U L U L L L .", "won", 0),
    "boulder-dash": ("boulder-dash", 0,
                     ". D D R R R R D R R 3. 4R D D R R R U U U R D D L D D 12L .", "won", 40),
    "boulder-dash-crushed": ("boulder-dash", 0, ". D D R R R R D R D . .", "lost", 10),
    "snake": ("snake", 0, ". U . . R 5. D 4. L L 11.", "lost", 20),
    "maze-chase": ("maze-chase", 5, ". L 6. R 12. U 2. L .", "lost", 170),
    "gem-swap": ("gem-swap", 0, ". A 3. 6R A 3.", "won", 20),
}
RULES = {"hello-world": 4, "tilecode-sokoban": 5, "boulder-dash": 9, "snake": 6, "maze-chase": 10,
         "gem-swap": 7}
"""Rules per bundled game: each stays small enough to read."""


def rounds(inputs: str) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for token in inputs.split():
        count = int(token[:-1]) if len(token) > 1 else 1
        out += [KEYS[token[-1]]] * count
    return out


def play(name: str) -> tuple[str, str, int]:
    stem, seed, inputs, _result, _score = PLAYTHROUGHS[name]
    game = load(project_to_game(load_project(GAMES / f"{stem}.toml")))
    state = game.initial_state(seed=seed)
    lines = [f"# {name}: {stem}.toml, seed {seed}, inputs {inputs}", dump_state(state).rstrip("\n")]
    for buttons in rounds(inputs):
        if state.status != "play":
            break
        state, _events = game.step(state, buttons)
        if state.round % DUMP_EVERY == 0:
            lines.append(dump_state(state).rstrip("\n"))
    lines.append(f"final after round {state.round}: {state.status}, score {state.score}")
    lines.append(dump_state(state).rstrip("\n"))
    return "\n".join(lines) + "\n", state.status, state.score


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_golden_playthrough(name: str) -> None:
    text, status, score = play(name)
    assert (status, score) == PLAYTHROUGHS[name][3:]
    golden = GOLDEN / f"{name}.txt"
    if os.environ.get("STUDIO_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"no golden file {golden.name}: run with STUDIO_UPDATE_GOLDEN=1"
    assert text == golden.read_text(encoding="utf-8")


def test_playthroughs_stop_at_the_end_of_their_inputs_or_the_game() -> None:
    # Every input list is used up exactly when the game ends: no golden hides a tail of
    # ignored inputs, and every playthrough reaches a result.
    for name, (_stem, _seed, inputs, result, _score) in PLAYTHROUGHS.items():
        text = play(name)[0]
        final = int(text.split("final after round ", 1)[1].split(":", 1)[0])
        assert final == len(rounds(inputs)), name
        assert result in ("won", "lost")


TILECODE_GAMES = [p for p in sorted(GAMES.glob("*.toml")) if load_project(p).kind == "tilecode"]


def test_six_tilecode_games_are_bundled_and_each_has_a_playthrough() -> None:
    assert {p.stem for p in TILECODE_GAMES} == set(RULES)
    assert {stem for stem, *_ in PLAYTHROUGHS.values()} == set(RULES)


@pytest.mark.parametrize("path", TILECODE_GAMES, ids=lambda p: p.stem)
def test_bundled_games_are_canonical_and_clean(path: Path) -> None:
    project = load_project(path)
    assert dumps_project(project) == path.read_text(encoding="utf-8")
    assert body_problems(project.body) == []
    game = project_to_game(project)
    assert len(game.rules) == RULES[path.stem]
    assert all(kind.art is not None and kind.glyph for kind in game.backgrounds + game.sprites)


@pytest.mark.parametrize("path", TILECODE_GAMES, ids=lambda p: p.stem)
def test_validate_and_inspect_commands(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.strip().endswith(f"ok, TileCode project {load_project(path).name!r}")
    assert "warning" not in out
    assert cli.main(["inspect", "--json", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    game = project_to_game(load_project(path))
    assert summary["kind"] == "tilecode" and summary["base_rules"] == RULES[path.stem]
    assert sum(summary["rule_mix"].values()) == RULES[path.stem]
    assert summary["map"] == f"{game.map.width}×{game.map.height}"
    assert summary["sprites"] == len(game.map.sprites)


def test_validate_reports_an_error_with_its_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (GAMES / "snake.toml").read_text(encoding="utf-8")
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace('do = ["move right", "create s1"]', 'do = ["create s1", "create s2"]', 1),
                      encoding="utf-8")
    assert cli.main(["validate", str(broken)]) == 1
    err = capsys.readouterr().err
    assert "rules[0].tiles[0].do[1]" in err and "rule 0, tile (2,2)" in err and "create is used twice" in err
