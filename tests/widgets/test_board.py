"""Board and LinesView: only visible rows rendered, cursor scrolling, clicks, partial repaints."""

from __future__ import annotations

from rich.segment import Segment
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from studio.widgets.board import Board
from studio.widgets.lines import LinesView


class Letters:
    """A board of letters: cell (x, y) shows a letter and its row number, 2 columns wide."""

    cell_size = (2, 1)

    def __init__(self, width: int, height: int, marks: dict[tuple[int, int], str] | None = None):
        self.width, self.height = width, height
        self.marks = marks or {}
        self.rendered_rows: list[int] = []

    def row_key(self, y: int):
        return tuple(sorted((x, m) for (x, yy), m in self.marks.items() if yy == y))

    def render_row(self, y: int, x0: int, x1: int, line: int) -> list[Segment]:
        self.rendered_rows.append(y)
        return [Segment(self.marks.get((x, y), chr(97 + x % 26)) + str(y % 10))
                for x in range(x0, x1)]


class BoardApp(App[None]):
    def __init__(self, renderer, cursor=(0, 0)) -> None:
        super().__init__()
        self.renderer = renderer
        self.cursor = cursor
        self.messages: list[object] = []

    def compose(self) -> ComposeResult:
        yield Board(self.renderer, cursor=self.cursor)

    def on_board_cursor_moved(self, message: Board.CursorMoved) -> None:
        self.messages.append(("moved", message.x, message.y))

    def on_board_cell_clicked(self, message: Board.CellClicked) -> None:
        self.messages.append(("clicked", message.x, message.y))


async def test_only_visible_rows_are_rendered_and_cells_map_to_columns() -> None:
    renderer = Letters(100, 100)
    app = BoardApp(renderer)
    async with app.run_test(size=(20, 5)) as pilot:
        board = app.query_one(Board)
        await pilot.pause()
        assert board.view_cells == (10, 5)
        assert set(renderer.rendered_rows) == {0, 1, 2, 3, 4}
        assert board.render_line(1).text == "a1b1c1d1e1f1g1h1i1j1"
        await pilot.click(Board, offset=(5, 2))
        assert app.messages[-1] == ("clicked", 2, 2)


async def test_the_cursor_scrolls_the_camera_near_the_edge() -> None:
    app = BoardApp(Letters(30, 30))
    async with app.run_test(size=(20, 6)) as pilot:
        board = app.query_one(Board)
        board.focus()
        await pilot.press(*["right"] * 7)
        assert board.cursor == (7, 0) and board.camera == (0, 0)
        await pilot.press("right")
        assert board.camera == (1, 0)  # keeps two cells between the cursor and the edge
        await pilot.press(*["down"] * 40)
        assert board.cursor == (8, 29) and board.camera[1] == 30 - 6  # stops at the bottom edge
        assert app.messages[-1] == ("moved", 8, 29)
        board.recentre()  # as far as the board allows: nothing shown below its last row
        assert board.camera == (8 - 5, 30 - 6)


class BigLetters(Letters):
    """The same board in art-sized cells, 4 columns by 2 lines."""

    cell_size = (4, 2)

    def render_row(self, y: int, x0: int, x1: int, line: int) -> list[Segment]:
        return [Segment(f"{chr(97 + x % 26)}{y % 10}{line}_") for x in range(x0, x1)]


async def test_cells_of_another_size_place_the_camera_again() -> None:
    # The map editor's v (glyph to art cells) kept the camera that centred the small glyph
    # board: in art cells the map's corner sat mid-screen and most of it was out of view.
    app = BoardApp(Letters(8, 4))
    async with app.run_test(size=(20, 10)) as pilot:
        board = app.query_one(Board)
        await pilot.pause()
        assert board.camera == (-1, -3)  # centred: the board is smaller than the view
        board.renderer = BigLetters(8, 4)
        await pilot.pause()
        assert board.camera == (0, 0)  # 5 cells across for 8: from the left edge; 4 down fit
        assert board.render_line(0).text.startswith("a00_b00_")


async def test_a_cursor_move_repaints_two_rows_and_a_state_change_only_its_rows() -> None:
    renderer = Letters(10, 10)
    app = BoardApp(renderer)
    async with app.run_test(size=(20, 10)) as pilot:
        board = app.query_one(Board)
        board.focus()
        await pilot.pause()
        renderer.rendered_rows.clear()
        await pilot.press("down")
        await pilot.pause()
        assert sorted(set(renderer.rendered_rows)) == [0, 1]
        renderer.rendered_rows.clear()
        board.renderer = Letters(10, 10, {(3, 6): "X"})
        await pilot.pause()
        assert board.renderer.rendered_rows == [6]
        assert board.render_line(6).text.startswith("a6b6c6X6")
        assert board.refresh_changed() == 0


async def test_follow_clamps_the_camera_to_the_board() -> None:
    app = BoardApp(Letters(40, 40), cursor=None)
    async with app.run_test(size=(20, 10)):
        board = app.query_one(Board)
        board.follow(1, 1)
        assert board.camera == (0, 0)
        board.follow(39, 39)
        assert board.camera == (30, 30)
        board.follow(20, 20)
        assert board.camera == (15, 15)


async def test_a_resize_follows_the_last_followed_cell_again() -> None:
    app = BoardApp(Letters(40, 40), cursor=None)
    async with app.run_test(size=(20, 10)) as pilot:
        board = app.query_one(Board)
        board.follow(30, 30)
        assert board.camera == (25, 25)
        await pilot.resize_terminal(40, 20)
        await pilot.pause()
        assert board.camera == (20, 20)  # centred again in the bigger view


async def test_follow_centres_a_board_smaller_than_the_view() -> None:
    app = BoardApp(Letters(4, 2), cursor=None)
    async with app.run_test(size=(20, 10)):
        board = app.query_one(Board)
        board.follow(0, 0)
        assert board.camera == (-3, -4)


async def test_off_board_area_is_blank() -> None:
    app = BoardApp(Letters(3, 2))
    async with app.run_test(size=(10, 4)):
        board = app.query_one(Board)
        board.set_camera(-1, -1)
        assert board.render_line(0).text == " " * 10
        assert board.render_line(1).text == "  a0b0c0  "


class LinesApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.clicked: list[object] = []

    def compose(self) -> ComposeResult:
        yield LinesView()

    def on_lines_view_clicked(self, message: LinesView.Clicked) -> None:
        self.clicked.append(message.key)


async def test_lines_view_repaints_only_changed_lines_and_maps_clicks() -> None:
    from textual.geometry import Region

    app = LinesApp()
    async with app.run_test(size=(30, 8)) as pilot:
        view = app.query_one(LinesView)
        lines = [Text(f"line {i}") for i in range(5)]
        assert view.set_lines(lines, [(Region(0, 2, 6, 1), "two")]) == 5
        assert view.set_lines(lines) == 0
        lines[3] = Text("line three", style="bold")
        assert view.set_lines(lines, [(Region(0, 2, 6, 1), "two")]) == 1
        assert view.text.splitlines()[3] == "line three"
        await pilot.pause()
        await pilot.click(LinesView, offset=(1, 2))
        assert app.clicked == ["two"]


class FixedLinesApp(App[None]):
    CSS = "LinesView { height: 6; }"

    def compose(self) -> ComposeResult:
        yield LinesView()


async def test_a_fixed_height_lines_view_changes_its_lines_without_a_new_layout() -> None:
    """A log or panel whose text changes width or length every turn must not lay the screen
    out again each time (a layout per frame of a live match); one growing past its box must
    (its scrollbar appears), and lines that went are blanked."""
    app = FixedLinesApp()
    async with app.run_test(size=(30, 10)) as pilot:
        view = app.query_one(LinesView)
        view.set_lines([Text("one"), Text("two"), Text("three")])
        await pilot.pause()
        assert not view._layout_required
        view.set_lines([Text("one, longer"), Text("two")])
        assert not view._layout_required
        await pilot.pause()
        assert view.render_line(2).text.strip() == ""  # "three" went
        view.set_lines([Text(f"line {i}") for i in range(9)])  # past 6 rows: a scrollbar
        assert view._layout_required


class PanesApp(App[None]):
    CSS = "LinesView { height: 4; width: 12; } Static { height: auto; }"

    def compose(self) -> ComposeResult:
        yield LinesView()
        yield Static("one line")


async def test_a_layout_elsewhere_does_not_redraw_a_lines_views_scrollbars() -> None:
    """Another widget changing height lays the screen out; over SSH every scrollbar redrawn then
    is bytes sent for nothing (a tree-editor move sent the tree's two scrollbars each time)."""
    app = PanesApp()
    async with app.run_test(size=(30, 12)) as pilot:
        view = app.query_one(LinesView)
        view.set_lines([Text(f"a longer line {i}") for i in range(9)])  # both scrollbars
        await pilot.pause()
        bars = (view.vertical_scrollbar, view.horizontal_scrollbar)
        assert view.show_vertical_scrollbar and view.show_horizontal_scrollbar
        redrawn: list[str] = []
        for bar in bars:
            bar.refresh = lambda *a, bar=bar, **k: redrawn.append(bar.name)  # type: ignore[method-assign]
        app.query_one(Static).update("two\nlines")
        await pilot.pause()
        assert not app.screen._layout_required and redrawn == []
        view.set_lines([Text(f"line {i}") for i in range(12)])  # its own picture grew: they do
        await pilot.pause()
        assert "vertical" in redrawn


async def test_follow_with_slack_keeps_the_camera_while_the_target_is_central() -> None:
    app = BoardApp(Letters(100, 100), cursor=None)
    async with app.run_test(size=(40, 20)):
        board = app.query_one(Board)
        board.follow(50, 50)
        assert board.camera == (40, 40)
        board.follow(52, 47, slack=True)  # still in the middle half: no repaint of everything
        assert board.camera == (40, 40)
        board.follow(56, 50, slack=True)  # near the right edge: re-centred
        assert board.camera == (46, 40)


async def test_fixed_lines_stay_on_top_while_the_rest_scrolls_under_them() -> None:
    """A bracket's round names: scrolled away, a column of names said nothing about its round."""
    from textual.geometry import Region

    class App6(LinesApp):
        CSS = FixedLinesApp.CSS

    app = App6()
    async with app.run_test(size=(30, 10)) as pilot:
        view = app.query_one(LinesView)
        lines = [Text("heading"), Text("───────")] + [Text(f"row {i}") for i in range(2, 20)]
        view.set_lines(lines, [(Region(0, 0, 7, 1), "head"), (Region(0, 17, 6, 1), "17")],
                       fixed=2)
        await pilot.pause()
        view.show_line(17)
        await pilot.pause()
        shown = [view.render_line(y).text.strip() for y in range(6)]
        assert shown[:2] == ["heading", "───────"] and "row 17" in shown[2:]
        await pilot.click(LinesView, offset=(1, 0))
        await pilot.click(LinesView, offset=(1, shown.index("row 17")))
        assert app.clicked == ["head", "17"]
        view.show_line(3)  # above the window: it comes out below the headings, not under them
        await pilot.pause()
        shown = [view.render_line(y).text.strip() for y in range(6)]
        assert shown[:3] == ["heading", "───────", "row 3"]
        view.set_lines(lines)  # no fixed lines: line 0 scrolls with the rest again
        view.show_line(17)
        await pilot.pause()
        assert view.render_line(0).text.strip() != "heading"
