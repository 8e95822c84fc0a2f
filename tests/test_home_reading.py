"""The home screen reads its folder in a thread: keys work meanwhile, and the list it shows
is the latest read, with the selection asked for."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from studio.screens.dialogs import NewProjectDialog
from studio.screens.help import HelpScreen
from studio.screens.home import HomeScreen
from tests.test_home import _names, _select
from tests.ui_helpers import SIZE, HeldReads, studio_app, wait_until


async def test_a_slow_folder_does_not_hold_the_keys(games: Path, monkeypatch) -> None:
    from studio.app import StudioApp

    scan = HeldReads(monkeypatch)
    app = StudioApp(games)  # not studio_app(): its run_test waits for the read
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: scan.calls == 1, "the folder was not read")
            home = app.screen
            assert isinstance(home, HomeScreen) and home.scanning
            assert "Reading" in str(home.query_one("#empty").render())
            # Keys work while the read is stuck: a dialog opens and closes, help shows.
            await pilot.press("n")
            assert isinstance(app.screen, NewProjectDialog)
            await pilot.press("escape", "question_mark")
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            assert app.screen is home and home.entries == [] and home.scanning
            scan.release.set()
            await wait_until(pilot, lambda: not home.scanning, "the list never came")
            assert "Spooky Cup" in _names(app)
            assert app.screen.query_one(DataTable).row_count == len(home.entries)
    finally:
        scan.release.set()


async def test_a_newer_read_keeps_the_selection_an_older_one_asked_for(games: Path) -> None:
    # Creating a project reads the folder to select it; the home screen resuming as the dialog
    # closes reads it again and supersedes that read: the new project must still be selected.
    async with studio_app().run_test(size=SIZE) as pilot:
        home = pilot.app.screen
        await pilot.press("n", *"Zeta", "enter")  # made, and opened
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, (HomeScreen,
                                                                          NewProjectDialog)),
                         "the new project did not open")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HomeScreen)
                         and not home.scanning and home.selected is not None
                         and home.selected.name == "Zeta", "the new project is not selected")
        # A plain refresh afterwards keeps the row the cursor is on, not the old request.
        await _select(pilot, "Spooky Cup")
        await pilot.press("f5")
        await wait_until(pilot, lambda: not home.scanning, "the refresh did not finish")
        assert home.selected.name == "Spooky Cup"


async def test_an_unchanged_folder_is_not_listed_again_on_return(games: Path,
                                                                 monkeypatch) -> None:
    import studio.storage.folder as folder_module

    reads = []
    real = folder_module.scan_folder
    monkeypatch.setattr(folder_module, "scan_folder",
                        lambda folder: reads.append(1) or real(folder))
    async with studio_app().run_test(size=SIZE) as pilot:
        home = pilot.app.screen
        assert len(reads) == 1
        await pilot.press("question_mark", "escape")
        await wait_until(pilot, lambda: not home.scanning, "the check did not finish")
        assert len(reads) == 1  # only looked at (names, sizes, times), not read again
        (games / "spooky-cup.toml").write_text((games / "spooky-cup.toml").read_text() + "\n")
        # (a save elsewhere: read again on return)
        await pilot.press("question_mark", "escape")
        await wait_until(pilot, lambda: not home.scanning, "the re-read did not finish")
        assert len(reads) == 2 and "Spooky Cup" in _names(pilot.app)


async def test_an_empty_folder_says_so_after_each_look_not_reading(empty_games: Path) -> None:
    # Returning to the screen looks at the folder again; an unchanged empty folder kept the
    # "Reading…" that look put up, as no list came to replace it.
    async with studio_app().run_test(size=SIZE) as pilot:
        home = pilot.app.screen
        for _ in range(2):
            await wait_until(pilot, lambda: not home.scanning, "the look did not finish")
            assert "No projects in" in str(home.query_one("#empty").render())
            await pilot.press("question_mark", "escape")


async def test_the_first_frame_lists_the_folder_from_its_headers_then_reads_it_in_full(
        games_with_broken: Path, monkeypatch) -> None:
    """The list shows before the full read (which loads every kind's storage and engine) ends:
    names and kinds from the headers, details and the broken mark once the read is done."""
    import threading

    import studio.storage.folder as folder_module
    from studio.app import StudioApp

    release, real = threading.Event(), folder_module.scan_folder
    monkeypatch.setattr(folder_module, "scan_folder",
                        lambda folder: release.wait(10) and real(folder))
    app = StudioApp(games_with_broken)
    try:
        async with app.run_test(size=SIZE) as pilot:
            home = app.screen
            await wait_until(pilot, lambda: bool(home.entries), "nothing was listed")
            assert home.scanning and all(entry.pending for entry in home.entries)
            table = home.query_one(DataTable)
            kinds = {str(table.get_row_at(row)[0]): str(table.get_row_at(row)[1])
                     for row in range(table.row_count)}
            assert kinds == {"Broken": "Behaviour tree", "Boulder Sketch": "TileCode",
                             "Maze Runner": "Behaviour tree", "Spooky Cup": "Haunted Tiles"}
            await _select(pilot, "Spooky Cup")
            assert "reading…" in str(home.query_one("#details").render())
            release.set()
            await wait_until(pilot, lambda: not home.scanning, "the full read never came")
            assert not any(entry.pending for entry in home.entries)
            assert home.selected.name == "Spooky Cup"  # the read kept the selection
            assert "reading…" not in str(home.query_one("#details").render())
            broken = next(row for row in range(table.row_count)
                          if str(table.get_row_at(row)[0]) == "broken")
            assert "broken" in str(table.get_row_at(broken)[1])
    finally:
        release.set()
