"""Teams & AIs: adding, editing, ordering and deleting entries, load tests, the CSV import.

Every test asserts on what is saved (the TOML and the AI files), not on pixels.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from studio.screens.dialogs import ConfirmDialog
from studio.screens.haunted.ai_editor import AIEditorScreen
from studio.screens.haunted.team_dialogs import FormDialog
from studio.screens.haunted.teams import TeamsScreen
from tests.haunted_ui.teams_helpers import (
    BROKEN_AI, GOOD_AI, HANGING_AI, add_file_team, app_on, fill, finish, open_teams,
    problem_text, saved_teams, set_limits, write_ai,
)
from tests.ui_helpers import wait_until

def key_of(screen: TeamsScreen, source: str) -> tuple:
    return screen.key({"runtime": "python", "source": source})


def result_of(screen: TeamsScreen, source: str):
    return screen.tests[key_of(screen, source)]


BUILT_IN = ["Lookahead Ghouls", "Greedy Ghosts", "Cautious Creepers", "Wandering Wisps",
            "Idle Imps"]


async def test_a_team_from_the_template_writes_its_file_and_is_saved(ht_project: Path) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_teams(pilot)
        await pilot.press("a", "p")
        await fill(pilot, name="Night Owls")
        await pilot.press("enter")
        assert isinstance(app.screen, TeamsScreen)
        assert screen.selected == 5
        assert saved_teams(ht_project)[-1]["name"] == "Idle Imps"  # not saved yet
        await pilot.press("ctrl+s")
        await pilot.pause()
    written = ht_project.parent / "ais" / "Night_Owls.py"
    assert "def main(game_state, side)" in written.read_text()
    assert saved_teams(ht_project)[-1] == {"name": "Night Owls", "runtime": "python",
                                           "source": "ais/Night_Owls.py"}


async def test_a_new_ai_never_overwrites_a_file_and_a_bad_name_writes_nothing(
        ht_project: Path) -> None:
    mine = write_ai(ht_project.parent, "Night_Owls.js", "// mine\n")
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_teams(pilot)
        await pilot.press("a", "j")
        form = await fill(pilot, name="Greedy Ghosts")
        await pilot.press("enter")
        assert "two teams are named 'Greedy Ghosts'" in problem_text(form)
        assert sorted(p.name for p in mine.parent.iterdir()) == ["Night_Owls.js"]
        await fill(pilot, name="Night Owls")
        await pilot.press("enter")
        assert screen.model.team_tables[-1]["source"] == "ais/Night_Owls-2.js"
    assert mine.read_text() == "// mine\n"
    assert "function main(gameState, side)" in (mine.parent / "Night_Owls-2.js").read_text()


async def test_fields_are_validated_and_a_refused_form_stays_open(ht_project: Path) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_teams(pilot, select="Greedy Ghosts")
        before = screen.model
        await pilot.press("enter")
        form = await fill(pilot, school_size="lots", school="CSM")
        await pilot.press("enter")
        assert app.screen is form
        assert "school_size must be a whole number" in problem_text(form)
        await fill(pilot, school_size="40", name="Lookahead Ghouls")
        await pilot.press("enter")
        assert "two teams are named 'Lookahead Ghouls'" in problem_text(form)
        assert screen.model is before
        await fill(pilot, name="Greedy Goblins", monster="pinky", team="Goblins")
        await pilot.press("enter")  # pinky twice: the alternate could never differ
        assert "the alternate must differ" in problem_text(form)
        await fill(pilot, monster="spike")
        await pilot.press("enter")
        assert app.screen is screen
        await pilot.press("ctrl+s")
        await pilot.pause()
    saved = saved_teams(ht_project)[1]
    assert saved == {"name": "Greedy Goblins", "team": "Goblins", "school": "CSM",
                     "school_size": 40, "runtime": "builtin", "source": "greedy",
                     "monster": "spike", "alternate": "pinky"}
    # The tournament that entered the team follows the new name (the project stays saveable).
    assert "Greedy Goblins" in ht_project.read_text().split("[[tournament]]")[1]


async def test_duplicate_delete_and_reorder_are_saved_in_registration_order(
        ht_project: Path) -> None:
    ai = write_ai(ht_project.parent, "good.py", GOOD_AI)
    add_file_team(ht_project, "Good Bot", "ais/good.py")
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_teams(pilot, select="Good Bot")
        await pilot.press("c")
        assert [t["name"] for t in screen.model.team_tables][-2:] == ["Good Bot", "Good Bot (2)"]
        await pilot.press("k", "k")  # the copy moves up two places
        await pilot.press("up", "d")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
    names = [t["name"] for t in saved_teams(ht_project)]
    assert names == ["Lookahead Ghouls", "Greedy Ghosts", "Cautious Creepers", "Good Bot (2)",
                     "Idle Imps", "Good Bot"]
    assert ai.read_text() == GOOD_AI  # deleting an entry never deletes its file
    assert "Wandering Wisps" not in ht_project.read_text()  # gone from the tournament too


async def test_a_refused_delete_says_why(ht_project: Path) -> None:
    text = ht_project.read_text().replace(
        'entrants = ["Lookahead Ghouls", "Greedy Ghosts", "Cautious Creepers", "Wandering Wisps", '
        '"Idle Imps"]', 'entrants = ["Lookahead Ghouls", "Greedy Ghosts"]')
    ht_project.write_text(text)
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_teams(pilot)
        await pilot.press("d", "y")
        await pilot.pause()
        assert len(screen.model.team_tables) == 5
        assert any("entrants lists at least two team names" in n.message
                   for n in app._notifications)


async def test_undo_and_redo_of_registry_edits(ht_project: Path) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_teams(pilot, select="Idle Imps")
        await pilot.press("k", "c")
        names = [t["name"] for t in screen.model.team_tables]
        assert names[3:] == ["Idle Imps", "Idle Imps (2)", "Wandering Wisps"]
        await pilot.press("ctrl+z")
        assert [t["name"] for t in screen.model.team_tables][3:] == ["Idle Imps", "Wandering Wisps"]
        await pilot.press("ctrl+z")
        assert [t["name"] for t in screen.model.team_tables] == BUILT_IN
        await pilot.press("ctrl+y", "ctrl+y")
        assert [t["name"] for t in screen.model.team_tables] == names
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert [t["name"] for t in saved_teams(ht_project)] == names


async def test_a_load_test_shows_the_answer_of_a_good_ai(ht_project: Path) -> None:
    write_ai(ht_project.parent, "good.py", GOOD_AI)
    add_file_team(ht_project, "Good Bot", "ais/good.py")
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_teams(pilot, select="Good Bot")
        await pilot.press("t")
        await finish(pilot)
        result = result_of(screen, "ais/good.py")
        assert result.ok and result.moves == ("south", "none", "north")
        details = str(screen.query_one("#details").render())
        assert "answered ['south', 'none', 'north']" in details
        await pilot.press("escape", "a")  # leaving and coming back forgot the result
        await pilot.pause()
        again = app.screen
        assert again is not screen and result_of(again, "ais/good.py") is result
        write_ai(ht_project.parent, "good.py", GOOD_AI + "\n# changed\n")
        assert key_of(again, "ais/good.py") not in again.tests  # a changed file: untested


async def test_a_load_test_of_a_broken_ai_shows_the_reason(ht_project: Path) -> None:
    write_ai(ht_project.parent, "broken.py", BROKEN_AI)
    add_file_team(ht_project, "Broken Bot", "ais/broken.py")
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_teams(pilot, select="Broken Bot")
        await pilot.press("t")
        await finish(pilot)
        assert result_of(screen, "ais/broken.py").failure == "exception"
        details = str(screen.query_one("#details").render())
        assert "failed on its first move: exception" in details
        assert "ValueError: my AI is broken" in details


async def test_a_hanging_ai_times_out_while_the_screen_keeps_working(ht_project: Path) -> None:
    set_limits(ht_project, 2.0)
    write_ai(ht_project.parent, "hang.py", HANGING_AI)
    add_file_team(ht_project, "Hanging Bot", "ais/hang.py")
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_teams(pilot, select="Hanging Bot")
        # What the test showed at the moment `k` was handled: reading it after `press` returns
        # raced the time limit on a slow machine.
        seen = []
        move_up = screen.action_move_up

        def spy() -> None:
            seen.append(screen.tests.get(key_of(screen, "ais/hang.py"), "not started"))
            move_up()

        screen.action_move_up = spy
        await pilot.press("t", "k")
        # The key was handled while the worker still waited for the AI's answer.
        assert seen == [None]
        assert screen.selected == 4 and screen.model.team_tables[4]["name"] == "Hanging Bot"
        await finish(pilot)
        result = result_of(screen, "ais/hang.py")
        assert result.failure == "timeout" and "no answer within 2.00 s" in result.error
        assert "✗ timeout" in str(screen.query_one("#teams").get_row_at(4)[-1])


async def test_adding_an_existing_file_and_a_built_in(ht_project: Path) -> None:
    write_ai(ht_project.parent, "good.py", GOOD_AI)
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_teams(pilot)
        await pilot.press("a", "f", "t")  # t: type a path rather than pick a file
        form = await fill(pilot, file="ais/missing.py")
        await pilot.press("enter")
        assert "no such file" in problem_text(form)
        await fill(pilot, file="ais/good.txt")
        await pilot.press("enter")
        assert "ends with .py (Python) or .js" in problem_text(form)
        await fill(pilot, file="ais/good.py")
        await pilot.press("enter")
        assert screen.model.team_tables[-1] == {"name": "good", "runtime": "python",
                                                "source": "ais/good.py"}
        await pilot.press("a", "b")
        await fill(pilot, name="Huntress", builtin="hunter")
        await pilot.press("enter")
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert saved_teams(ht_project)[-1] == {"name": "Huntress", "runtime": "builtin",
                                           "source": "hunter"}


CSV = ("ID,Start time,Completion time,Email,Name,Team Name,School,Home Monster Choice,"
       "Away Monster Choice,URL/Code\n"
       '1,t,t,ann@example.edu,Ann Lee,Byte Ghosts,CSM,Goldy,Spike,"function main(s, side) {\n'
       "  return ['south', 'south', 'south'];\n}\"\n"
       "2,t,t,bob@example.edu,Bob Roe,Greedy Ghosts,Mines,Bobo,Pinky,https://example.com/x.js\n")


async def test_importing_the_original_team_list(ht_project: Path) -> None:
    (ht_project.parent / "teams.csv").write_text(CSV)
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_teams(pilot)
        await pilot.press("i")
        # The form names the columns it reads, not only "a Microsoft Forms export".
        said = " ".join(str(label.render()) for label in app.screen.query("Static, Label"))
        assert "Team Name" in said and "Url/Code" in said and "Home Monster Choice" in said
        form = await fill(pilot, file="nothing.csv")
        await pilot.press("enter")
        assert "cannot read the team list" in problem_text(form)
        await fill(pilot, file="teams.csv")
        await pilot.press("enter")
        assert isinstance(app.screen, TeamsScreen) and screen.selected == 5
        await pilot.press("ctrl+s")
        await pilot.pause()
    teams = saved_teams(ht_project)
    assert teams[5:] == [
        {"name": "Byte Ghosts", "team": "Byte Ghosts", "school": "CSM", "runtime": "js",
         "source": "ais/Byte_Ghosts.js", "monster": "goldy", "alternate": "spike"},
        {"name": "Greedy Ghosts (2)", "team": "Greedy Ghosts", "school": "Mines", "runtime": "js",
         "source": "ais/Greedy_Ghosts.js", "monster": "bobo", "alternate": "pinky"}]
    assert "ann@example.edu" not in ht_project.read_text()
    assert "return ['south'" in (ht_project.parent / "ais" / "Byte_Ghosts.js").read_text()


async def test_e_opens_the_editor_and_a_built_in_read_only(ht_project: Path) -> None:
    write_ai(ht_project.parent, "good.py", GOOD_AI)
    add_file_team(ht_project, "Good Bot", "ais/good.py")
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_teams(pilot, select="Greedy Ghosts")
        await pilot.press("e")
        editor = app.screen
        assert isinstance(editor, AIEditorScreen) and editor.read_only
        assert editor.area.read_only and "def main" in editor.area.text
        await pilot.press("x", "escape")
        assert isinstance(app.screen, TeamsScreen)
        await pilot.press("down", "down", "down", "down", "e")
        assert isinstance(app.screen, AIEditorScreen) and not app.screen.read_only
        assert app.screen.area.text == GOOD_AI


async def test_the_form_opens_with_enter_and_escape_cancels(ht_project: Path) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_teams(pilot)
        await pilot.press("enter")
        assert isinstance(app.screen, FormDialog)
        await fill(pilot, name="Changed")
        await pilot.press("escape")
        assert app.screen is screen and screen.model.team_tables[0]["name"] == "Lookahead Ghouls"


async def test_a_whole_add_typed_in_one_burst_fills_the_form(ht_project: Path) -> None:
    # "a f NAME tab FILE enter" arriving at once: the pick answers a dialog flow, which then
    # shows the form; the keys after "f" reached the Teams screen (and ran its keys) before.
    from textual import events

    write_ai(ht_project.parent, "good.py", GOOD_AI)
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_teams(pilot)
        for key in ("a", "f", "t", *"Owls", "tab", *"ais/good.py", "enter"):
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await wait_until(pilot, lambda: len(screen.model.team_tables) == 6
                         and app.screen is screen, "the team was not added")
        assert screen.model.team_tables[-1] == {"name": "Owls", "runtime": "python",
                                                "source": "ais/good.py"}


async def test_a_name_cut_to_its_column_ends_in_an_ellipsis(ht_project: Path) -> None:
    # "Inner Sch" read as the whole school.
    app = app_on(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_teams(pilot, select="Idle Imps")
        tables = screen.model.team_tables
        tables[0] = {**tables[0], "school": "Inner School of the Northern Valleys"}
        screen.edit("school", screen.model.with_table("team", tables))
        await pilot.pause()
        school = str(screen.query_one("#teams").get_row_at(0)[3])
        assert school.endswith("…") and school.startswith("Inner")


async def test_the_keys_ask_about_the_selection_while_the_list_is_not_there(
        ht_project: Path) -> None:
    """Textual asks a screen's check_action (for its own keys, such as copy) while the screen is
    mounted or taken down: asked before the list was there, the screen raised NoMatches and the
    studio ended (seen over SSH, a student's session opening Teams & AIs)."""
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_teams(pilot)
        assert screen.selected == 0
        await screen.query_one("DataTable").remove()
        assert screen.selected is None
        assert screen.check_action("copy_text", ()) in (True, False, None)
        assert screen.check_action("edit", ()) is False


@pytest.mark.parametrize("school", ["", "Inner City Secondary"])
async def test_at_60_columns_the_list_fits_the_screen_with_whole_headings(
        ht_project: Path, school: str) -> None:
    if school:
        with ht_project.open("a") as out:
            out.write(f'\n[[team]]\nname = "Owls"\nteam = "Night Owls of Year 9"\n'
                      f'school = "{school}"\nruntime = "builtin"\nsource = "greedy"\n')
    app = app_on(ht_project)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await open_teams(pilot)
        await pilot.pause()
        table = screen.query_one(DataTable)
        columns = list(table.columns.values())
        headings = [str(column.label) for column in columns]
        assert sum(column.get_render_width(table) for column in columns) <= 60, headings
        assert headings[-1] in ("Last test", "Test"), headings
        assert all(len(h) <= c.width for h, c in zip(headings, columns)), headings
        assert ("School" in headings) == bool(school), headings
