"""Haunted Tiles text from outside reaches the terminal inert (issue 28, item 7): what an AI
prints and raises, the refusal of a CSV or a project naming a team or a map with control
characters (storage refuses such names; its message names the character by its escape), and
what a replay holds.

As in ``test_inert_home``, the app's last guard (the line filter) is off, so each test fails
unless the screen itself shows the text as escapes; what is checked is what the app would write
to the terminal.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from pathlib import Path

import pytest

from studio.engines.haunted import replay as replays
from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.match import MatchConfig, run_match
from studio.screens.dialogs import ErrorDialog
from studio.screens.haunted.match_view import MatchViewScreen
from studio.screens.haunted.replay_viewer import ReplayViewerScreen
from studio.sessions.haunted.entrants import MatchPlan, resolve_entrant
from studio.storage.haunted.replay import save_replay
from tests.haunted_ui.teams_helpers import add_file_team, fill, open_teams, write_ai
from tests.security.escapes import HOSTILE, SHOWN, assert_inert, written
from tests.ui_helpers import studio_app, wait_until

SIZE = (120, 36)
ONE = MatchConfig(rounds=1, max_rounds=1, maps=("Default",))
TOML_HOSTILE = json.dumps(HOSTILE)
"""``HOSTILE`` as a TOML string (JSON's escapes are TOML's)."""


def unguarded(path: Path):
    app = studio_app(path)
    app._inert.enabled = False
    return app


async def test_what_an_ai_prints_and_raises_and_its_team_name_show_as_escapes(
        ht_project: Path) -> None:
    ai = ht_project.parent / "evil.py"
    ai.write_text(f"def main(game_state, side):\n    print({HOSTILE!r})\n"
                  f"    raise ValueError({HOSTILE!r})\n")
    plan = MatchPlan(home=str(ai), away="builtin:idle", config=ONE, seed=3, maps=builtin_maps(),
                     folder=ht_project.parent, home_name=HOSTILE, pace=0.0)
    app = unguarded(ht_project)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = MatchViewScreen(app.screen.document, plan)
        app.push_screen(view)
        await wait_until(pilot, lambda: not view.live.running, "the match did not end", 30)
        await wait_until(pilot, lambda: "escape: back" in view.query_one("#banner").text,
                         "the match's end was not drawn")
        await pilot.press("l")  # the log: what the AI printed, and why it lost
        await pilot.pause()
        log = "".join(view.query_one("#log").text.splitlines())  # folded to the panel's width
        assert "ValueError: evil\\x1b]0;PWNED" in log
        out = written(app)
        assert_inert(out)
        assert SHOWN[:16] in out  # the team's name, in the scoreboard and the banner


async def test_a_csv_naming_a_team_with_control_characters_is_refused_as_escapes(
        ht_project: Path) -> None:
    (ht_project.parent / "teams.csv").write_text(
        "ID,Start time,Completion time,Email,Name,Team Name,School,Home Monster Choice,"
        "Away Monster Choice,URL/Code\n"
        f"1,t,t,a@example.edu,Ann,{HOSTILE},School{HOSTILE},Bobo,Pinky,"
        "https://example.com/x.js\n")
    app = unguarded(ht_project)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_teams(pilot)
        before = screen.model.team_tables
        await pilot.press("i")
        await fill(pilot, file="teams.csv")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is not screen  # the form stays open, saying why
        out = written(app)
        assert_inert(out)
        assert "control character (\\x1b)" in out
        assert screen.model.team_tables == before
        assert not (ht_project.parent / "ais").exists()


@pytest.mark.parametrize(("old", "field"), [('"Lookahead Ghouls"', "team[0].name"),
                                           ('"WaffleTown"', "map[1].name")])
async def test_a_project_naming_a_team_or_a_map_with_control_characters_is_refused_as_escapes(
        ht_project: Path, old: str, field: str) -> None:
    ht_project.write_text(ht_project.read_text().replace(old, TOML_HOSTILE))  # and its entries
    app = unguarded(ht_project)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ErrorDialog),
                         "the error did not show")
        await pilot.pause()
        out = written(app)
        assert_inert(out)
        assert field in out and "control character (\\x1b)" in out


async def test_a_replay_s_names_and_log_show_as_escapes(ht_project: Path) -> None:
    entrants = [dataclasses.replace(resolve_entrant(f"builtin:{name}", ONE, in_process=True),
                                    name=f"{name}{HOSTILE}") for name in ("greedy", "idle")]
    result = run_match(*entrants, builtin_maps(), ONE, 5)
    document = replays.build(result, "test", dt.datetime(2026, 11, 27, tzinfo=dt.timezone.utc))
    for record in document["rounds"]:  # what an AI printed, as the replay keeps it
        for turn in record["turns"][:4]:
            turn["home"]["stdout"] = f"said {HOSTILE}\n"
            turn["home"]["warnings"] = [f"warned {HOSTILE}"]
    path = save_replay(document, ht_project.parent / "replays" / f"m{HOSTILE}.json.gz")
    app = unguarded(ht_project)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await wait_until(pilot, lambda: getattr(app.screen, "shown", None), "no replay listed")
        await pilot.pause()
        out = written(app)
        assert_inert(out)
        assert "greedyevil\\x1b]0;" in out and "mevil\\x1b]0;" in out
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayViewerScreen),
                         "the replay did not open")
        await pilot.press("l", "right", "right", "right")
        await pilot.pause()
        out = written(app)
        assert_inert(out)
        assert "greedyevil\\x1b]0;" in out
    assert path.exists()


async def test_an_ai_s_source_in_the_editor_is_kept_and_shown_as_escapes(ht_project: Path) -> None:
    # A text area must keep the file as it is to edit it: the app's last guard (on here) is
    # what shows its control characters as escapes.
    source = f"# {HOSTILE}\ndef main(game_state, side):\n    return ['none'] * 3\n"
    write_ai(ht_project.parent, "evil.py", source)
    add_file_team(ht_project, "Evil", "ais/evil.py")
    app = studio_app(ht_project)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_teams(pilot, select="Evil")
        await pilot.press("e")
        await wait_until(pilot, lambda: app.screen is not screen, "the editor did not open")
        await pilot.pause()
        assert app.screen.area.text == source
        out = written(app)
        assert_inert(out)
        assert " evil\\x1b]0;PWNED" in out  # the comment's line
