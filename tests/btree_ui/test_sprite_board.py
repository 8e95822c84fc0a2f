"""trrbt sprite images drawn on the play board as half-block pixels, glyphs where they cannot be."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.screens.btree.board_render import BtreeRenderer
from studio.screens.btree.sprite_render import SpriteRenderer
from studio.widgets.board import Board
from tests.btree.sprite_data import sokoban_with_sprites
from tests.btree_ui.test_play import settle, start
from tests.ui_helpers import studio_app


@pytest.fixture
def sprite_game(bt_folder: Path) -> Path:
    return sokoban_with_sprites(bt_folder / "sokoban.toml")


def board_text(board: Board) -> list[str]:
    return [board.render_line(y).text for y in range(board.size.height)]


@pytest.mark.parametrize(("size", "lines"), [((120, 40), 4), ((80, 24), 2)])
async def test_play_draws_the_images_as_big_as_the_pane_allows(sprite_game: Path, size,
                                                               lines) -> None:
    app = studio_app(sprite_game)
    async with app.run_test(size=size) as pilot:
        play = await start(pilot, app)
        await pilot.pause(0.2)
        board = play.query_one(Board)
        renderer = board.renderer
        assert isinstance(renderer, SpriteRenderer) and renderer.lines == lines
        assert renderer.cell_size == (2 * lines, lines)
        text = board_text(board)
        assert all(len(line) == board.size.width for line in text)
        assert any("▀" in line for line in text)
        assert any("G" in line for line in text)  # the goal has no image: its glyph
        # the keeper's two moves (right, down) frame the three cells they cover
        assert sum(line.count("┏") for line in text) == 3


async def test_i_switches_between_images_and_glyphs(sprite_game: Path) -> None:
    app = studio_app(sprite_game)
    async with app.run_test(size=(120, 40)) as pilot:
        play = await start(pilot, app)
        await pilot.pause(0.2)
        board = play.query_one(Board)
        assert isinstance(board.renderer, SpriteRenderer)
        await pilot.press("i")
        assert type(board.renderer) is BtreeRenderer
        assert "#" in "".join(board_text(board))
        await pilot.press("right")  # a move keeps the choice
        await settle(pilot, play)
        assert type(board.renderer) is BtreeRenderer
        await pilot.press("i")
        assert isinstance(board.renderer, SpriteRenderer)


async def test_nothing_repaints_while_nothing_changes(sprite_game: Path) -> None:
    app = studio_app(sprite_game)
    async with app.run_test(size=(120, 40)) as pilot:
        play = await start(pilot, app)
        await pilot.pause(0.3)
        board = play.query_one(Board)
        before = board.lines_rendered
        await pilot.pause(0.5)
        play.refresh_view()  # redrawn with the same state: every row's key is the same
        await pilot.pause(0.2)
        assert board.lines_rendered == before


@pytest.mark.parametrize("why", ["ansi", "setting", "room"])
async def test_glyphs_where_images_cannot_or_should_not_be_drawn(sprite_game: Path,
                                                                 why: str) -> None:
    if why == "setting":
        text = sprite_game.read_text().replace("show_hidden = false",
                                               "show_hidden = false\nimages = false")
        sprite_game.write_text(text)
    app = studio_app(sprite_game, theme="ansi" if why == "ansi" else None)
    async with app.run_test(size=(60, 20) if why == "room" else (120, 40)) as pilot:
        play = await start(pilot, app)
        await pilot.pause(0.2)
        assert type(play.query_one(Board).renderer) is BtreeRenderer
        await pilot.press("i")
        await pilot.pause()
        if why == "setting":  # asked for: shown
            assert isinstance(play.query_one(Board).renderer, SpriteRenderer)
        else:
            assert type(play.query_one(Board).renderer) is BtreeRenderer
            wanted = "colour theme" if why == "ansi" else "more room"
            assert any(wanted in n.message for n in app._notifications)


async def test_a_game_without_images_says_so_on_i(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(120, 40)) as pilot:
        play = await start(pilot, app)
        await pilot.press("i")
        assert type(play.query_one(Board).renderer) is BtreeRenderer
        assert any("no sprite images" in n.message for n in app._notifications)
