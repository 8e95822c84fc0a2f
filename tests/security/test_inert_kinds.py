"""Names inside behaviour-tree and TileCode projects reach the terminal inert (issue 28, item
7): a node's comment and id, a tile kind's name. Their screens draw with the studio's line
widgets, which show such text as escapes: with the app's last guard off, what those write is
checked; a text field holding the name (which must keep it as it is, to edit it) is left to the
guard, checked with it on.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from studio.screens.home import HomeScreen
from tests.conftest import ROOT
from tests.security.escapes import HOSTILE, assert_inert, foreign, written
from tests.ui_helpers import studio_app, wait_until

SIZE = (120, 36)


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def hostile_copy(game: str, old: str, new: str) -> Path:
    folder = Path("games")
    folder.mkdir(exist_ok=True)
    path = folder / game
    shutil.copy(ROOT / "games" / game, path)
    path.write_text(path.read_text().replace(old, new))
    return path


async def opened(path: Path):
    app = studio_app(path)
    app._inert.enabled = False
    return app


async def test_a_node_s_comment_and_id_show_as_escapes_in_the_tree_editor() -> None:
    path = hostile_copy("tic-tac-toe.toml", '"rounds"', json.dumps(f"rounds{HOSTILE}"))
    text = path.read_text().replace(
        '"set up an empty 3x3 board, then X and O take turns until a line or a full board"',
        json.dumps(f"set up {HOSTILE}"))
    path.write_text(text)
    app = await opened(path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: not isinstance(app.screen, HomeScreen),
                         "the game did not open")
        await pilot.pause()
        tree = app.screen.query_one("#tree")
        assert "set up evil\\x1b]0;PWNED" in tree.text and foreign(tree.text) == []
        app._inert.enabled = True  # the comment's text field, too
        out = written(app)
        assert_inert(out)
        assert "evil\\x1b]0;PWNED" in out


async def test_a_tile_kind_s_name_shows_as_escapes() -> None:
    path = hostile_copy("hello-world.toml", 'name = "brick"', f"name = {json.dumps(HOSTILE)}")
    app = await opened(path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: not isinstance(app.screen, HomeScreen),
                         "the game did not open")
        await pilot.pause()
        out = written(app)
        assert_inert(out)
        assert "evil\\x1b" in out  # cut to its column, as it shows
