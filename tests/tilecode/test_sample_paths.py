"""Reference vs fast paths round by round on the shipped samples and the original corpus games."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from studio.engines.tilecode.importer import import_settings
from tests.shared_data import requires_shared
from tests.tilecode.build import run

ROOT = Path(__file__).resolve().parents[2]
BUTTONS = ("left", "up", "right", "down", "A")
CORPUS_GAMES = ["ApplesGrow", "ChangeBug", "EatDots", "HelloWorld", "MineRocks", "Paint",
                "PushBoxes", "SideScroller", "Sokoban2", "SortingDiamonds", "SwapSprites"]


def inputs(seed: int, rounds: int = 60) -> list[tuple[str, ...]]:
    pick = random.Random(seed)
    return [(pick.choice(BUTTONS),) if pick.random() < 0.6 else () for _ in range(rounds)]


def sample_paths() -> list[Path]:
    found = []
    for path in sorted((ROOT / "games").glob("*.toml")):
        if 'kind = "tilecode"' in path.read_text(encoding="utf-8")[:200]:
            found.append(path)
    return found


@pytest.mark.parametrize("path", sample_paths(), ids=lambda p: p.stem)
def test_shipped_samples_agree(path: Path) -> None:
    from studio.storage import load_project
    from studio.storage.tilecode.kind import project_to_game

    game = project_to_game(load_project(path))
    for seed in (1, 2):
        run(game, inputs(seed), seed=seed)


@pytest.mark.parametrize("name", CORPUS_GAMES)
def test_corpus_games_agree(name: str) -> None:
    corpus = requires_shared("corpus", "tilecode")
    document = json.loads((corpus / f"{name}.json").read_text(encoding="utf-8"))
    game = import_settings(document).game
    for seed in (1, 2):
        state, history = run(game, inputs(seed), seed=seed)
        assert history  # round 0 at least
