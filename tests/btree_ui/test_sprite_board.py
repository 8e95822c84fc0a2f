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


async def test_the_ansi_theme_turns_images_into_glyphs_and_back(sprite_game: Path) -> None:
    app = studio_app(sprite_game)
    async with app.run_test(size=(120, 40)) as pilot:
        play = await start(pilot, app)
        await pilot.pause(0.2)
        board = play.query_one(Board)
        assert isinstance(board.renderer, SpriteRenderer)
        app._apply_theme("ansi")
        await pilot.pause(0.3)
        assert type(board.renderer) is BtreeRenderer
        app._apply_theme("dark")
        await pilot.pause(0.3)
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


@pytest.mark.parametrize("why", ["ansi", "no colour", "setting", "room"])
async def test_glyphs_where_images_cannot_or_should_not_be_drawn(
        sprite_game: Path, why: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if why == "no colour":
        monkeypatch.setenv("NO_COLOR", "1")
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
            wanted = "more room" if why == "room" else "colour"
            assert any(wanted in n.message for n in app._notifications)


async def test_a_game_without_images_says_so_on_i(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(120, 40)) as pilot:
        play = await start(pilot, app)
        await pilot.press("i")
        assert type(play.query_one(Board).renderer) is BtreeRenderer
        assert any("no sprite images" in n.message for n in app._notifications)


async def test_the_debugger_draws_the_images_to_fit_its_own_pane(sprite_game: Path) -> None:
    from studio.screens.btree.debugger import DebuggerScreen

    app = studio_app(sprite_game)
    async with app.run_test(size=(120, 40)) as pilot:
        play = await start(pilot, app)
        await pilot.pause(0.2)
        await pilot.press("b")
        await pilot.pause(0.5)
        debugger = app.screen
        assert isinstance(debugger, DebuggerScreen)
        board = debugger.query_one(Board)
        renderer = board.renderer
        assert isinstance(renderer, SpriteRenderer)
        width, height = renderer.width * renderer.cell_size[0], renderer.height * renderer.lines
        assert width <= board.size.width and height <= board.size.height
        assert_centred(board)
        del play


def assert_centred(board: Board) -> None:
    """The image board in the middle of its pane to the column and line, as a glyph board is,
    and the mouse finds its cells where they are drawn."""
    r = board.renderer
    pad = getattr(board, "pad", (0, 0))  # the board's own offset, past whole cells
    for axis, view in enumerate(board.size):
        cell = r.cell_size[axis]
        used = (r.width, r.height)[axis] * cell
        before = pad[axis] - board.camera[axis] * cell
        after = view - before - used
        assert abs(before - after) <= 1, (axis, before, after)
    left, top = pad[0] - board.camera[0] * r.cell_size[0], pad[1] - board.camera[1] * r.cell_size[1]
    assert board.cell_at(left, top) == (0, 0)
    if left:
        assert board.cell_at(left - 1, top) is None


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 20)])
async def test_play_centres_the_image_board_in_its_pane(sprite_game: Path, size) -> None:
    app = studio_app(sprite_game)
    async with app.run_test(size=size) as pilot:
        play = await start(pilot, app)
        await pilot.pause(0.2)
        board = play.query_one(Board)
        if isinstance(board.renderer, SpriteRenderer):
            assert_centred(board)


def test_every_line_is_as_wide_as_its_cells_whatever_is_drawn_on_it() -> None:
    from dataclasses import fields

    from rich.segment import Segment
    from rich.style import Style

    from studio.engines.btree.model.board import Board as TileBoard
    from studio.engines.btree.model.sprites import SpriteSet
    from studio.screens.btree.board_render import Preview
    from studio.widgets.canvas import UIStyles
    from tests.btree.sprite_data import SPRITES

    styles = UIStyles(*[Style()] * len(fields(UIStyles)))
    board = TileBoard({"main": [["#", "P", "LV11", "📦"], ["_", "B", "G", "."]]})
    sprites = SpriteSet(SPRITES)
    for lines in (2, 3, 4):
        renderer = SpriteRenderer(board, styles, 1, rects={(0, 0, 2, 2): 3, (0, 2, 1, 2): 1},
                                  tint="#ff0000", preview=Preview(1, 1, {"main": [["G"]]}),
                                  sprites=sprites, lines=lines)
        columns = renderer.cell_size[0]
        for y in range(board.rows):
            for line in range(lines):
                segments = renderer.render_row(y, 0, board.cols, line)
                assert Segment.get_line_length(segments) == board.cols * columns, (lines, y)
                for x in range(board.cols):  # the cursor keeps each cell's width too
                    cell = renderer.render_row(y, x, x + 1, line)
                    marked = renderer.render_cursor(y, x, line, cell)
                    assert Segment.get_line_length(marked) == columns
        top = "".join(s.text for s in renderer.render_row(0, 0, board.cols, 0))
        assert top.count("┏") == 4 and top.index("3") == columns - 1  # the shared one's count
        bottom = "".join(s.text for s in renderer.render_row(1, 0, board.cols, lines - 1))
        assert "╚" in bottom and "G" in "".join(  # the previewed move's cell, its tile drawn
            s.text for s in renderer.render_row(1, 0, board.cols, lines // 2))
        middle = "".join(s.text for s in renderer.render_row(0, 0, board.cols, lines // 2))
        assert ("L…" if lines == 2 else "LV11") in middle and "📦" in middle  # cut to fit
