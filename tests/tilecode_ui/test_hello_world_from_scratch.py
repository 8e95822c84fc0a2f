"""The whole job in the UI alone: Hello World from an empty folder, played, explained, saved."""

from __future__ import annotations

from pathlib import Path

from studio.engines.tilecode.model import Command
from studio.screens.tilecode.game_over import GameOverDialog
from studio.screens.tilecode.home import GameHomeScreen
from studio.screens.tilecode.play import PlayScreen
from studio.storage import load_project
from studio.storage.tilecode.kind import project_to_game
from tests.tilecode_ui.rule_helpers import goto, open_new_rule, position_of
from tests.ui_helpers import studio_app, wait_until


async def test_build_hello_world_in_the_ui_play_it_and_reopen_it(empty_games: Path) -> None:
    app = studio_app(empty_games)
    async with app.run_test(size=(80, 24)) as pilot:
        # A new TileCode project (the first kind offered): it opens as it is made.
        await pilot.press("n", *"Hello", "enter")
        await pilot.pause()
        home = app.screen
        assert isinstance(home, GameHomeScreen)
        path = home.document.path

        # Name the second sprite kind "apple".
        await pilot.press("down", "down", "right", "e")
        await pilot.pause()
        name = app.screen.query_one("#name")
        name.value = "apple"
        await pilot.press("enter")
        assert home.game.sprites[1].name == "apple"

        # Art: one red pixel in the apple.
        await pilot.press("p", "pagedown", "right_square_bracket", "space", "escape")
        assert home.game.sprites[1].art[8][8] == "2"

        # Map: the player at (2,2), an apple at (4,2) on the grass inside the brick border.
        await pilot.press("m", "down", "down", "right", "right", "5", "space")
        await pilot.press("right", "right", "6", "space", "escape")
        assert [(s.x, s.y, s.kind) for s in home.game.map.sprites] == [(2, 2, 0), (4, 2, 1)]

        # Rules. Walk: press right (generalised to 4 ways) onto grass.
        editor = await open_new_rule(pilot, app, "press", "right", kind="1")
        await goto(pilot, editor, position_of(editor, ("cmd", 2, 2, 0)))
        await pilot.press("enter", "enter", "right")  # move, then → chooses right
        await goto(pilot, editor, position_of(editor, ("tile", 3, 2)))
        await pilot.press("enter", "i", "2", "escape")  # the tile to the right: grass
        walk = editor.rule
        assert walk.transforms == "rotate-3-way" and walk.centre.do == (Command("move", "right"),)
        await pilot.press("escape", "escape", "escape")

        # Eat: smash right into an apple destroys it and scores.
        editor = await open_new_rule(pilot, app, "smash", "right", kind="1")
        await goto(pilot, editor, position_of(editor, ("tile", 3, 2)))
        await pilot.press("enter", "6", "escape")  # collide tile includes the apple
        await goto(pilot, editor, position_of(editor, ("cmd", 3, 2, 0)))
        await pilot.press("enter", "right", "enter")  # destroy
        await pilot.press("right", "enter")
        await pilot.press("right", "right", "right", "right", "enter", "right", "right", "enter")
        assert [c.text for c in editor.rule.tile(3, 2).do] == ["destroy", "game score"]
        await pilot.press("escape", "escape", "escape")

        # Win: never an apple.
        editor = await open_new_rule(pilot, app, "misc", "never", kind="2")
        await goto(pilot, editor, position_of(editor, ("cmd", 2, 2, 0)))
        await pilot.press("enter", "right", "enter", "enter")  # game → win
        assert editor.rule.centre.do == (Command("game", "win"),)
        await pilot.press("escape", "escape", "escape")
        assert app.screen is home and len(home.game.rules) == 3
        assert "No problems" in home.query_one("#home").text

        # Play: two steps right eat the apple; then nothing is left and the never rule wins.
        await pilot.press("g", "p")
        play = app.screen
        assert isinstance(play, PlayScreen)
        # Restarting does nothing while a round the timer began runs in its worker thread.
        await wait_until(pilot, lambda: not play.busy, "the round in progress did not end")
        play.action_restart()
        for _ in range(3):
            await pilot.press("right", "n")
            while play.busy:
                await pilot.pause(0.01)
            if play.session.over:
                break
        await pilot.pause()
        assert play.session.state.status == "won" and play.session.state.score == 10
        assert isinstance(app.screen, GameOverDialog)
        await pilot.press("tab")  # see why: the debug panel on the player
        panel = play.query_one("#debug").text.replace("\n  ", " ")
        assert "rule 0 (press right) fired with it as centre: move right" in panel
        await pilot.press("escape")
        assert app.screen is home and home.game.high_score == 10

        # Undo the high score and redo it; save; reopen equal.
        await pilot.press("ctrl+z")
        assert home.game.high_score == 0
        await pilot.press("ctrl+y", "ctrl+s")
        await pilot.pause()
        model = home.game
    reopened = project_to_game(load_project(path))
    assert reopened == model and reopened.high_score == 10
