"""A team's AI file stays inside the project's folder (issue 28).

A project file may come from anyone. Its ``[[team]] source`` is run (in a sandbox allowed to read
that file), opened in the AI editor and saved over: were it ``../../victim.py``, an absolute path
elsewhere or a link out of the folder, a shared project could read or overwrite any ``.py`` file
of the person who opened it. Each way out is refused with an error naming the team and the
field, and saying what to do.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.match import MatchConfig
from studio.sessions.haunted.checks import check_syntax
from studio.sessions.haunted.entrants import resolve_entrant, team_source
from studio.sessions.haunted.teams import file_entry
from studio.storage import ProjectError
from studio.screens.haunted.ai_editor import AIEditorScreen
from studio.storage.haunted.kind import TeamEntry, source_path
from tests.haunted_ui.teams_helpers import add_file_team, app_on, open_teams

AI = "def main(game_state, side):\n    return ['none'] * 3\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder with ais/good.py inside, and a victim file next to (outside) it."""
    folder = tmp_path / "project"
    (folder / "ais").mkdir(parents=True)
    (folder / "ais" / "good.py").write_text(AI)
    (tmp_path / "victim.py").write_text("SECRET = 1\n")
    return folder


def team(source: str) -> TeamEntry:
    return TeamEntry("Sly", "python", source)


def test_a_source_inside_the_folder_resolves_to_its_real_path(project: Path) -> None:
    assert source_path(project, "ais/good.py") == (project / "ais" / "good.py").resolve()
    assert source_path(project, str(project / "ais" / "good.py")) == source_path(project,
                                                                                 "ais/good.py")
    assert source_path(project, "ais/../ais/good.py") == source_path(project, "ais/good.py")
    assert source_path(project, "ais/new.py").name == "new.py"  # not written yet: fine


@pytest.mark.parametrize("source", ["../victim.py", "ais/../../victim.py", "{tmp}/victim.py",
                                    "/etc/passwd.py"])
def test_a_path_out_of_the_folder_is_refused(project: Path, source: str) -> None:
    source = source.format(tmp=project.parent)
    with pytest.raises(ProjectError, match="outside the project's folder .by its path.") as error:
        team_source(team(source), project)
    assert error.value.message.startswith("team 'Sly': the AI file")
    assert "copy it into" in error.value.hint and error.value.field_path == ("source",)


def test_a_link_out_of_the_folder_is_refused(project: Path) -> None:
    (project / "ais" / "innocent.py").symlink_to(project.parent / "victim.py")
    (project / "elsewhere").symlink_to(project.parent)
    for source in ("ais/innocent.py", "elsewhere/victim.py"):
        with pytest.raises(ProjectError, match=r"outside the project's folder \(through a link\)"):
            source_path(project, source)
    (project / "ais" / "alias.py").symlink_to(project / "ais" / "good.py")
    assert source_path(project, "ais/alias.py") == (project / "ais" / "good.py").resolve()


def test_a_tilde_is_a_name_not_the_home_folder(project: Path) -> None:
    assert source_path(project, "~/ai.py") == (project / "~" / "ai.py").resolve()


def test_a_match_refuses_a_team_whose_file_is_outside(project: Path) -> None:
    entrant = TeamEntry("Sly", "python", "../victim.py")
    with pytest.raises(ProjectError, match="team 'Sly'.*outside the project's folder"):
        resolve_entrant("Sly", MatchConfig(), [entrant], project)


def test_builtins_are_not_files(project: Path) -> None:
    assert team_source(TeamEntry("B", "builtin", "greedy"), project) == "builtin:greedy"
    assert builtin_maps()  # (the match needs maps; built-ins never touch the folder)


def test_adding_a_file_from_outside_is_refused_saying_to_copy_it(project: Path) -> None:
    assert file_entry("Good", project, "ais/good.py")["source"] == "ais/good.py"
    with pytest.raises(ProjectError, match="outside the project's folder") as error:
        file_entry("Sly", project, str(project.parent / "victim.py"))
    assert "copy it into" in error.value.hint


def test_the_syntax_check_answers_for_code_nested_too_deep() -> None:
    # compile() refuses such code with RecursionError or MemoryError; the editor's f5 showed
    # a traceback instead of a problem.
    for text in ("x = " + "-" * 100_000 + "1\n", "x = 1" + " + 1" * 100_000 + "\n",
                 "x = " + "not " * 100_000 + "y\n"):
        problem = check_syntax(text, js=False)
        assert problem is not None and "nests too deep" in problem.message


# ------------------------------------------------------------------- the screens, end to end


async def test_the_editor_shows_a_file_outside_read_only_and_never_saves_over_it(
        ht_project: Path) -> None:  # noqa: F811
    victim = ht_project.parent.parent / "victim.py"
    victim.write_text("SECRET = 1\n")
    add_file_team(ht_project, "Sly", "../victim.py")
    async with app_on(ht_project).run_test(size=(100, 30)) as pilot:
        teams = await open_teams(pilot, select="Sly")
        await pilot.pause()
        assert "outside the project's folder" in str(teams.query_one("#details").render())
        await pilot.press("t")  # a load test would have run it: refused
        await pilot.pause()
        assert any("outside the project's folder" in str(n.message)
                   for n in pilot.app._notifications)
        await pilot.press("e")
        editor = pilot.app.screen
        assert isinstance(editor, AIEditorScreen) and editor.read_only
        assert editor.area.text == "" and "outside the project's folder" in str(
            editor.query_one("#status").render())
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert victim.read_text() == "SECRET = 1\n"


async def test_the_editor_on_a_fifo_does_not_hang(ht_project: Path) -> None:  # noqa: F811
    (ht_project.parent / "ais").mkdir()
    os.mkfifo(ht_project.parent / "ais" / "pipe.py")
    add_file_team(ht_project, "Pipe", "ais/pipe.py")
    async with app_on(ht_project).run_test(size=(100, 30)) as pilot:
        await open_teams(pilot, select="Pipe")
        await pilot.press("e")
        editor = pilot.app.screen
        assert isinstance(editor, AIEditorScreen) and editor.read_only
        assert "FIFO" in str(editor.load_error)
