"""The play screen's choice list as a user reads it: whole positions, cuts marked."""

from __future__ import annotations

import shutil
from pathlib import Path

from studio.widgets.lines import LinesView
from tests.btree_ui.test_play import start
from tests.ui_helpers import studio_app

DATA = Path(__file__).parent / "data"


def shown(view: LinesView) -> list[str]:
    return [strip.text.rstrip() for strip in view._strips]


async def test_a_vertical_move_on_an_emoji_board_shows_its_whole_column(tmp_path: Path) -> None:
    # The list measured its lines in characters: two-cell emoji made each line longer than its
    # canvas, which cut the last digit of "@0,11" (read as column 1).
    game = tmp_path / "emoji-climb.toml"
    shutil.copy(DATA / "emoji-climb.toml", game)
    app = studio_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        play = await start(pilot, app)
        lines = shown(play.query_one("#choices", LinesView))
        assert lines[0] == " 1 [↑] @0,11 move _; 👷 → 👷; _"


async def test_moves_alike_but_for_their_place_read_apart_and_cuts_end_in_an_ellipsis(
        tmp_path: Path) -> None:
    game = tmp_path / "lamps.toml"
    shutil.copy(DATA / "lamps.toml", game)
    app = studio_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        play = await start(pilot, app)
        view = play.query_one("#choices", LinesView)
        lines = shown(view)
        assert len(lines) == 9 and len(set(lines)) == 9
        assert lines[4].startswith(" 5 @1,1 switch")
        assert all(line.endswith("…") for line in lines)
        assert max(len(line) for line in lines) <= view.scrollable_content_region.width


async def test_from_120_columns_the_move_list_widens_so_lines_are_whole(tmp_path: Path) -> None:
    game = tmp_path / "lamps.toml"
    shutil.copy(DATA / "lamps.toml", game)
    app = studio_app(game)
    async with app.run_test(size=(120, 40)) as pilot:
        play = await start(pilot, app)
        lines = shown(play.query_one("#choices", LinesView))
        assert lines[0] == " 1 @0,0 switch this lamp and the lamps around it o → x"
