"""Snapshots of every home-screen state a user sees (100x30, no animations, fixed file times)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from tests.ui_helpers import SIZE, HeldReads, home_read, palette_ready, studio_app


def home(snap_compare, press: tuple[str, ...] | list[str] = (), app=None, size: tuple[int, int] = SIZE) -> bool:
    """The home screen's snapshot once its folder is read, after ``press``."""
    return snap_compare(app or studio_app(), terminal_size=size, run_before=home_read,
                        press=list(press))


def test_empty_folder(snap_compare, empty_games: Path) -> None:
    assert home(snap_compare)


def test_populated_folder(snap_compare, games_with_broken: Path) -> None:
    assert home(snap_compare)


def test_populated_folder_at_80x24(snap_compare, games: Path) -> None:
    assert home(snap_compare, size=(80, 24))


def test_broken_row_selected(snap_compare, games_with_broken: Path) -> None:
    assert home(snap_compare, ["down"])


def test_new_project_dialog(snap_compare, games: Path) -> None:
    assert home(snap_compare, ["n", *"Cave"])


def test_delete_confirmation(snap_compare, games: Path) -> None:
    assert home(snap_compare, ["delete"])


def test_error_dialog(snap_compare, games_with_broken: Path) -> None:
    assert home(snap_compare, ["down", "enter"])


def test_help_screen(snap_compare, games: Path) -> None:
    assert home(snap_compare, ["question_mark"])


def test_rename_dialog(snap_compare, games: Path) -> None:
    assert home(snap_compare, ["r"])


def test_haunted_hub_opened_from_home(snap_compare, games: Path) -> None:
    assert home(snap_compare, ["down", "down", "enter"])


def test_light_theme(snap_compare, games: Path) -> None:
    assert home(snap_compare, app=studio_app(theme="light"))


def test_ansi_theme(snap_compare, games: Path) -> None:
    assert home(snap_compare, app=studio_app(theme="ansi"))


def test_command_palette(snap_compare, games: Path) -> None:
    async def open_palette(pilot) -> None:
        await home_read(pilot)
        pilot.app.screen.query_one(DataTable).move_cursor(row=1)
        await pilot.press("ctrl+p", *"proj")
        await palette_ready(pilot)  # every match listed (the search is async, in batches)
        await pilot.pause(0.3)

    assert snap_compare(studio_app(), terminal_size=SIZE, run_before=open_palette)


def test_home_while_a_slow_folder_is_read(snap_compare, games: Path, monkeypatch) -> None:
    from studio.app import StudioApp

    reads = HeldReads(monkeypatch)
    app = StudioApp(games)  # not studio_app(): that waits for the read
    app.animation_level = "none"
    export = app.export_screenshot

    def export_then_release(*args, **kwargs):
        try:
            return export(*args, **kwargs)
        finally:
            reads.release.set()  # the app's exit waits for the reading thread

    app.export_screenshot = export_then_release
    try:
        assert snap_compare(app, terminal_size=(80, 24))
    finally:
        reads.release.set()


def _with_trrbt_game(folder: Path) -> Path:
    from tests.btree.trrbt_texts import TTT_YAML
    from tests.conftest import fix_times

    (folder / "ttt.yaml").write_text(TTT_YAML)
    fix_times(folder)
    return folder


def test_trrbt_file_listed_as_importable(snap_compare, games: Path) -> None:
    _with_trrbt_game(games)
    assert home(snap_compare, ["end"])


def test_trrbt_file_import_asks_for_a_name(snap_compare, games: Path) -> None:
    _with_trrbt_game(games)
    assert home(snap_compare, ["end", "enter"], size=(80, 24))
