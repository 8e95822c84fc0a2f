"""Adding an AI file offers the project folder's .py/.js files to pick from: names shown inert,
the listing bounded (a crowded folder opens the dialog at once and says it stopped), and typing
a path still works."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList

from studio.engines.common.limits import AI_FILES_LISTED, AI_FILES_SCANNED
from studio.screens.haunted.team_dialogs import FormDialog, PickDialog
from studio.sessions.haunted.ai_listing import ai_files
from tests.haunted_ui.teams_helpers import GOOD_AI, app_on, open_teams, write_ai


def test_the_listing_finds_ai_files_shallowest_first(tmp_path: Path) -> None:
    write_ai(tmp_path, "b.py", GOOD_AI)
    write_ai(tmp_path, "a.js", "function main() {}")
    (tmp_path / "top.py").write_text(GOOD_AI)
    (tmp_path / "notes.txt").write_text("")
    for skipped in (".git", "__pycache__", "replays"):
        (tmp_path / skipped).mkdir()
        (tmp_path / skipped / "x.py").write_text("")
    (tmp_path / "linked").symlink_to(tmp_path / "ais")  # a folder link is not followed
    assert ai_files(tmp_path).paths == ("top.py", "ais/a.js", "ais/b.py")
    assert ai_files(tmp_path).complete


def test_a_crowded_folder_is_listed_only_so_far(tmp_path: Path) -> None:
    for k in range(10_000):
        (tmp_path / f"f{k:05}.py").touch()
    found = ai_files(tmp_path)
    assert not found.complete and len(found.paths) == AI_FILES_LISTED
    assert AI_FILES_SCANNED < 10_000  # the walk stops before it has seen them all


async def test_picking_a_file_fills_the_form_with_its_path(ht_project: Path) -> None:
    folder = ht_project.parent
    write_ai(folder, "good.py", GOOD_AI)
    write_ai(folder, "\x1b[31mred\u202e.py", GOOD_AI)
    app = app_on(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_teams(pilot)
        await pilot.press("a", "f")
        pick = app.screen
        assert isinstance(pick, PickDialog)
        labels = [str(option.prompt) for option in pick.query_one(OptionList).options]
        assert labels[0] == "t  Type a path…" and "ais/good.py" in labels
        evil = next(label for label in labels if "red" in label)
        assert "\x1b" not in evil and "\u202e" not in evil  # shown inert
        await pilot.press("down", "down")
        assert labels[2] == "ais/good.py"
        await pilot.press("enter")
        form = app.screen
        assert isinstance(form, FormDialog)
        assert form.values()["file"] == "ais/good.py"
        await pilot.press("enter")
        await pilot.pause()
        assert screen.model.team_tables[-1] == {"name": "good", "runtime": "python",
                                                "source": "ais/good.py"}


async def test_the_dialog_says_when_the_folder_holds_too_many(ht_project: Path) -> None:
    for k in range(AI_FILES_SCANNED + 10):
        (ht_project.parent / f"f{k:05}.py").touch()
    app = app_on(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_teams(pilot)
        await pilot.press("a", "f")
        pick = app.screen
        assert isinstance(pick, PickDialog)
        title = str(pick.query_one(".title").render())
        assert f"the first {AI_FILES_LISTED} found" in title and "type a path" in title
