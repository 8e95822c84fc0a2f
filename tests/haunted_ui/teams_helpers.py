"""Helpers for the Teams & AIs and AI editor tests: open the screens, fill forms, wait for work."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from textual.widgets import Input, Select

from studio.screens.haunted.team_dialogs import FormDialog
from studio.screens.haunted.teams import TeamsScreen
from tests.ui_helpers import studio_app

GOOD_AI = "def main(game_state, side):\n    return ['south', 'none', 'north']\n"
BROKEN_AI = "def main(game_state, side):\n    raise ValueError('my AI is broken')\n"
HANGING_AI = "import time\n\n\ndef main(game_state, side):\n    time.sleep(60)\n"


def saved_teams(project: Path) -> list[dict[str, Any]]:
    """The ``[[team]]`` tables of the project file as saved."""
    return tomllib.loads(project.read_text())["team"]


def write_ai(folder: Path, name: str, text: str) -> Path:
    path = folder / "ais" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return path


def set_limits(project: Path, time_limit: float) -> None:
    """Give the project's matches (and so its load tests) a short move limit."""
    text = project.read_text()
    project.write_text(text.replace("time_limit = 2.0", f"time_limit = {time_limit}"))


def add_file_team(project: Path, name: str, file: str, runtime: str = "python") -> None:
    """Register an AI file in the project file itself, before the app opens it."""
    with project.open("a") as out:
        out.write(f'\n[[team]]\nname = "{name}"\nruntime = "{runtime}"\nsource = "{file}"\n')


async def open_teams(pilot, select: str | None = None) -> TeamsScreen:
    """From the hub to the Teams & AIs screen, the cursor on team ``select``."""
    await pilot.pause()
    await pilot.press("a")
    screen = pilot.app.screen
    assert isinstance(screen, TeamsScreen)
    if select is not None:
        names = [t["name"] for t in screen.model.team_tables]
        for _ in range(names.index(select)):
            await pilot.press("down")
    return screen


async def fill(pilot, **values: str) -> FormDialog:
    """Set fields of the open form (text or drop-down) by key."""
    form = pilot.app.screen
    assert isinstance(form, FormDialog)
    for key, value in values.items():
        widget = form.query_one(f"#field-{key}")
        if isinstance(widget, Select):
            widget.value = value
        else:
            assert isinstance(widget, Input)
            widget.value = value
    await pilot.pause()
    return form


def problem_text(form: FormDialog) -> str:
    return str(form.query_one("#problem").render())


async def finish(pilot) -> None:
    """Wait for the load tests and syntax checks, and the messages they post.

    Only those: a dialog's worker waits for an answer, so waiting for it would never end.
    """
    busy = [worker for worker in pilot.app.workers if worker.group in ("load-test", "check")]
    if busy:  # an empty list would mean "every worker" to wait_for_complete
        await pilot.app.workers.wait_for_complete(busy)
    await pilot.pause()
    await pilot.pause()


def app_on(project: Path, theme: str | None = None):
    return studio_app(project, theme)
