"""Helpers for the tournament screen tests: set a tournament up in the file, open the screen,
wait for a run, and the same run headless to compare with."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from studio.screens.haunted.screens import make
from studio.screens.haunted.tournament import TournamentScreen
from studio.sessions.haunted.tournament import TournamentRun, project_plan
from studio.storage import load_project, save_project
from studio.storage.haunted.project import project_model
from tests.conftest import fix_times

CUP = "Built-in cup"
FOUR = ["Lookahead Ghouls", "Greedy Ghosts", "Cautious Creepers", "Wandering Wisps"]
THREE = ["Greedy Ghosts", "Wandering Wisps", "Idle Imps"]


def set_up(path: Path, rounds: int | None = None, **tournament) -> None:
    """Change the project file before the app opens it: the cup's table, the match rounds."""
    project = load_project(path)
    body = project.body
    body["tournament"][0].update(tournament)
    if rounds is not None:
        body["match"]["rounds"] = rounds
    save_project(project)
    fix_times(path.parent)


async def open_screen(app, pilot, in_process: bool = True) -> TournamentScreen:
    """The tournament screen over the hub (built-ins in process unless told otherwise)."""
    await pilot.pause()
    if in_process:
        await app.push_screen(make("tournament", app.screen.document, in_process_builtins=True))
    else:
        await pilot.press("t")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, TournamentScreen)
    return screen


async def finish(pilot, screen: TournamentScreen, seconds: float = 30) -> None:
    """Wait until the screen's run is over."""
    for _ in range(int(seconds / 0.05)):
        await pilot.pause(0.05)
        if not screen.running:
            await pilot.pause()
            return
    raise AssertionError("the tournament did not finish")


def headless(path: Path, name: str = CUP) -> dict:
    """The same tournament run by the session alone (as ``studio tournament`` runs it), in a
    folder of its own; its document without the file paths."""
    model = project_model(load_project(path))
    table = next(t for t in model.tournaments() if t["name"] == name)
    plan = project_plan(table, model.teams(), model.maps(), model.config(), model.folder,
                        in_process=True)
    document = TournamentRun(replace(plan, replays=path.parent / "headless")).run()
    return comparable(document)


def comparable(document: dict) -> dict:
    return {k: v for k, v in document.items() if k != "replays"}


def run_with_cli(path: Path) -> None:
    """The cup at one round a match, run by ``studio tournament`` before the app opens."""
    from studio import cli

    set_up(path, rounds=1)
    assert cli.main(["tournament", "--project", str(path), "--name", CUP, "--in-process"]) == 0
