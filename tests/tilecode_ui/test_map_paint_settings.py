"""Map editor, paint editor and settings, driven with keys; assertions on the model."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from studio.engines.tilecode.art_edit import pixel
from studio.engines.tilecode.map_edit import sprites_on
from studio.screens.tilecode.map_editor import MapEditorScreen
from studio.screens.tilecode.paint_editor import PaintEditorScreen
from studio.widgets.board import Board
from tests.tilecode_ui.helpers import app_on, game_of
from tests.ui_helpers import wait_until, workers_done


async def test_brushes_paint_place_toggle_and_clear(tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        editor = app.screen
        assert isinstance(editor, MapEditorScreen)
        await pilot.press("down", "right")  # (1,1): grass inside the brick border
        await pilot.press("3", "space")  # water
        assert game_of(app).map.background[1][1] == 2
        await pilot.press("5", "space")  # the player sprite
        assert sprites_on(game_of(app).map, 1, 1) == [0]
        await pilot.press("space")  # the same sprite again: removed (the editor never stacks)
        assert sprites_on(game_of(app).map, 1, 1) == []
        assert editor.document.history.undo_label == "remove s0 at (1,1)"  # it said "place"
        await pilot.press("6", "space", "5", "space")  # another kind replaces it
        assert sprites_on(game_of(app).map, 1, 1) == [0]
        await pilot.press("i")  # eyedropper: the tile's sprite
        assert editor.brush == 4
        await pilot.press("delete")
        assert sprites_on(game_of(app).map, 1, 1) == []
        assert "(1,1) water · no sprite" in editor.query_one("#status").text


async def test_a_pen_stroke_is_one_undo_step(tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        await pilot.press("down", "right", "4", "p", "right", "right", "down", "p")
        tmap = game_of(app).map
        assert [tmap.background[y][x] for x, y in ((1, 1), (2, 1), (3, 1), (3, 2))] == [3] * 4
        history = app.screen.document.history
        assert len(history) == 1 and history.undo_label == "stroke of b3"
        await pilot.press("ctrl+z")
        assert all(game_of(app).map.background[y][x] == 1 for x, y in ((1, 1), (3, 2)))


async def test_undo_pressed_again_and_again_shows_one_note_not_a_stack(tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m", "down", "right", "4", "space", "right", "space", "right", "space")
        assert len(app.screen.document.history) == 3
        await pilot.press("ctrl+z", "ctrl+z", "ctrl+z", "ctrl+y")
        await pilot.pause()
        notes = [note.message for note in app._notifications]
        assert len(notes) == 1 and notes[0].startswith("Redo: "), notes
        # The themes first, the undo last: the undo's note lives 2 s, and two theme switches
        # (each restyles the whole screen) took longer than that on a loaded machine.
        await pilot.press("t", "t", "ctrl+z")
        await pilot.pause()
        notes = sorted(note.message for note in app._notifications)
        assert len(notes) == 2 and notes[0] == "Theme: ansi" and notes[1].startswith("Undo"), notes


async def test_a_burst_of_keys_paints_every_cell_of_the_stroke(tc_folder: Path) -> None:
    from textual import events

    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m", "down", "right", "4")
        board = app.screen.query_one(Board)
        # "p right right down p" arriving in one packet, as over SSH: every key is handled
        # before the board's CursorMoved messages reach the screen (the pen was up by then).
        for key in ("p", "right", "right", "down", "p"):
            app.post_message(events.Key(key, None if len(key) > 1 else key))
        # Until the burst is handled (a fixed 0.2 s pause was too short on a loaded machine).
        await wait_until(pilot, lambda: board.cursor == (3, 2)
                         and game_of(app).map.background[2][3] == 3, "the burst was not handled")
        assert board.cursor == (3, 2)
        tmap = game_of(app).map
        assert [tmap.background[y][x] for x, y in ((1, 1), (2, 1), (3, 1), (3, 2))] == [3] * 4


async def test_flood_fill_and_mouse_clicks(tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        await pilot.press("down", "right", "3", "f")
        tmap = game_of(app).map
        assert tmap.background[1][1] == 2 and tmap.background[22][30] == 2
        assert tmap.background[0][0] == 0  # the border is another region
        board = app.screen.query_one(Board)
        await pilot.press("7")
        x0, y0 = board.camera
        await pilot.click(Board, offset=((5 - x0) * 2, 4 - y0))
        assert sprites_on(game_of(app).map, 5, 4) == [2] and board.cursor == (5, 4)


async def test_art_mode_switches_the_cell_size(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        board = app.screen.query_one(Board)
        assert board.renderer.cell_size == (2, 1)
        await pilot.press("v")
        assert game_of(app).render == "art" and board.renderer.cell_size == (4, 2)
        # The mode is the project's setting (tilecode.md §8: "switchable per project"), saved
        # with it, so the README calls `v` an edit: it marks the project unsaved and undoes.
        assert app.screen.document.dirty
        await pilot.press("ctrl+z")
        assert game_of(app).render == "glyph" and board.renderer.cell_size == (2, 1)


async def test_paint_pixels_strokes_fill_and_eyedropper(tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        editor = app.screen
        assert isinstance(editor, PaintEditorScreen) and editor.kind == 4
        art = lambda: game_of(app).sprites[0].art  # noqa: E731
        await pilot.press("right_square_bracket")  # colour 2 (red)
        await pilot.press("space")
        assert pixel(art(), 8, 8) == 2
        await pilot.press("p", "right", "right", "p")
        assert [pixel(art(), x, 8) for x in (8, 9, 10)] == [2, 2, 2]
        assert len(editor.document.history) == 2
        await pilot.press("pageup")  # the background before it: b3, dirt
        assert editor.kind == 3
        dirt = game_of(app).backgrounds[3].art
        await pilot.press("f")  # fills the connected pixels of the colour under the cursor
        filled = game_of(app).backgrounds[3].art
        for x in range(16):
            for y in range(16):
                same = pixel(dirt, x, y) == pixel(dirt, 10, 8)
                assert pixel(filled, x, y) == (2 if same else pixel(dirt, x, y))
        await pilot.press("ctrl+z")
        assert game_of(app).backgrounds[3].art == dirt
        await pilot.press("pagedown", "left", "i")  # pick the colour under the cursor
        assert editor.kind == 4 and editor.colour == pixel(art(), 9, 8) == 2


async def test_settings_resize_with_crop_confirmation_seed_and_render(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        before = game_of(app).map
        await pilot.press("comma")
        screen = app.screen
        screen.query_one("#width", Input).value = "8"
        screen.query_one("#seed", Input).value = "42"
        await pilot.click("#apply")
        await pilot.pause()
        assert type(app.screen).__name__ == "ConfirmDialog"
        await pilot.press("n")  # keep the map
        await pilot.pause()
        assert game_of(app).map == before and game_of(app).seed is None
        await pilot.click("#apply")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        game = game_of(app)
        assert game.map.width == 8 and game.seed == 42
        assert all(s.x < 8 for s in game.map.sprites)
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert game_of(app).map == before
        assert screen.query_one("#width", Input).value == str(before.width)  # the form follows


async def test_settings_refuse_bad_values_with_a_reason(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma")
        screen = app.screen
        screen.query_one("#round_ms", Input).value = "5"
        await pilot.click("#apply")
        await pilot.pause()
        assert "round period must be from 30 to 2000" in str(screen.query_one("#problem").content)
        assert not screen.document.dirty


async def test_settings_render_mode_round_period_and_help(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma")
        screen = app.screen
        screen.query_one("#round_ms", Input).value = "90"
        await pilot.click("#render")
        await pilot.click("#help")
        await pilot.click("#apply")
        await pilot.pause()
        game = game_of(app)
        assert (game.render, game.round_ms, game.help, game.seed) == ("art", 90, False, None)
        assert screen.document.history.undo_label == "settings"  # one undoable edit


async def test_space_ticks_a_settings_box_and_enter_applies_the_form(tc_folder: Path) -> None:
    # enter on a box ticked it again (the README says enter records the form).
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma")
        screen = app.screen
        screen.query_one("#render").focus()
        await pilot.pause()
        await pilot.press("space", "enter")
        await workers_done(pilot, "settings")
        assert game_of(app).render == "art"
        assert screen.query_one("#render").value is True


async def test_settings_typed_but_not_applied_are_saved_and_kept_on_leaving(
        tc_folder: Path) -> None:
    from studio.storage import load_project
    from studio.storage.tilecode.kind import project_to_game

    path = tc_folder / "hello-world.toml"
    app = app_on(path)
    async with app.run_test(size=(80, 24)) as pilot:
        home = app.screen
        await pilot.press("comma")
        screen = app.screen
        screen.query_one("#seed", Input).value = "42"
        await pilot.press("ctrl+s")  # said "Saved" and wrote no seed
        await workers_done(pilot, "save")
        assert project_to_game(load_project(path)).seed == 42
        screen.query_one("#round_ms", Input).value = "90"
        await pilot.press("escape")  # leaving applies it (one undoable edit), not drops it
        await workers_done(pilot, "settings")
        assert app.screen is home and game_of(app).round_ms == 90
        await pilot.press("comma")
        screen = app.screen
        screen.query_one("#width", Input).value = "abc"
        await pilot.press("escape")  # a value that does not parse: the form stays, says why
        await workers_done(pilot, "settings")
        assert app.screen is screen and "width must be a whole number" in str(
            screen.query_one("#problem").content)


async def test_quitting_from_settings_saves_what_was_typed(tc_folder: Path) -> None:
    # ctrl+q, s: the save question did not know of the typed value, and it was not saved.
    from studio.storage import load_project
    from studio.storage.tilecode.kind import project_to_game

    path = tc_folder / "hello-world.toml"
    app = app_on(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma")
        app.screen.query_one("#round_ms", Input).value = "250"
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("s")
        await wait_until(pilot, lambda: not app.is_running, "the studio did not quit")
    assert project_to_game(load_project(path)).round_ms == 250


async def test_help_of_the_map_and_paint_editors_lists_the_arrows_beside_wasd(
        tc_folder: Path) -> None:
    from studio.screens.help import binding_rows

    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        for key, screen_type in (("m", MapEditorScreen), ("p", PaintEditorScreen)):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, screen_type)
            rows = dict((description, keys) for keys, description in binding_rows(app.screen))
            assert rows["Up"] == "w ↑" and rows["Left"] == "a ←", rows
            cursor = app.screen.board.cursor
            await pilot.press("down")  # and they move the cursor, as w a s d do
            assert app.screen.board.cursor != cursor
            await pilot.press("escape")
            await pilot.pause()


async def test_the_gallery_replaces_the_image_in_one_undoable_edit(tc_folder: Path) -> None:
    from studio.screens.tilecode.gallery_dialog import GalleryDialog
    from studio.storage.tilecode.gallery import GALLERY, preset

    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        editor = app.screen
        assert isinstance(editor, PaintEditorScreen) and editor.kind == 4  # s0, the player
        before = game_of(app).sprites[0].art
        await pilot.press("g")
        dialog = app.screen
        assert isinstance(dialog, GalleryDialog)
        await pilot.press("escape")  # keeps the image
        assert app.screen is editor and game_of(app).sprites[0].art == before
        await pilot.press("g")
        names = [p.name for p in GALLERY]
        sprites = [p.name for p in GALLERY if p.sprite]
        # A sprite is painted: the list opens on the first sprite; down to the coin.
        for _ in range(sprites.index("coin")):
            await pilot.press("down")
        await pilot.press("enter")
        assert app.screen is editor
        assert game_of(app).sprites[0].art == preset("coin").pixels != before
        assert "coin" in names
        await pilot.press("ctrl+z")
        assert game_of(app).sprites[0].art == before
