"""What a replay or a live feed shows of a team to someone who may not read its code (issue 30):
a tournament keeps each AI's traceback (its source lines), what it printed and its answers in the
replay and the feed; a student sees all that of their own team only, a spectator of none, and a
teacher of every team."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.match import MatchConfig
from studio.engines.haunted.tournament import ROUND_ROBIN
from studio.sessions.access import SPECTATOR, STUDENT, Access
from studio.sessions.haunted.tournament import TournamentPlan, TournamentRun, feed_file, replay_file
from studio.sessions.haunted.veil import VEILED, FeedVeil, veiled_replay
from studio.sessions.haunted.watch import Spectator
from studio.storage.haunted.replay import load_replay

SECRET_SOURCE = "the-plan-of-beta-in-its-source"
SECRET_PRINT = "beta-printed-this"
LEAKY = (f"PLAN = '{SECRET_SOURCE}'\n"
         "def main(game_state, side):\n"
         f"    print('{SECRET_PRINT}')\n"
         "    raise ValueError(PLAN)\n")
CHATTY = ("def main(game_state, side):\n"
          "    print('alpha-printed-this')\n"
          "    return ['north', 'south', 'east']\n")


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A real tournament of two file AIs in their sandboxes: Alpha chatty, Beta failing loudly."""
    folder = tmp_path_factory.mktemp("cup")
    (folder / "alpha.py").write_text(CHATTY)
    (folder / "beta.py").write_text(LEAKY)
    plan = TournamentPlan(ROUND_ROBIN, ("Alpha", "Beta"), MatchConfig(rounds=1, maps=("Default",)),
                          builtin_maps(), 3, teams=(), folder=folder, replays=folder / "replays")
    plan = _with_files(plan, folder)
    TournamentRun(plan).run()
    return folder / "replays"


def _with_files(plan: TournamentPlan, folder: Path) -> TournamentPlan:
    from dataclasses import replace

    from studio.storage.haunted.kind import TeamEntry

    teams = tuple(TeamEntry(name=name, runtime="python", source=f"{name.lower()}.py")
                  for name in ("Alpha", "Beta"))
    return replace(plan, teams=teams)


def shown(app) -> str:
    """The screen's text as drawn (escape sequences taken out)."""
    import re

    from tests.security.escapes import written

    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", written(app))


def text_of(document) -> str:
    return json.dumps(document)


def test_the_files_keep_everything_for_the_teacher(played: Path) -> None:
    replay = load_replay(replay_file(played, 1))
    assert SECRET_SOURCE in text_of(replay) and SECRET_PRINT in text_of(replay)  # the premise
    assert veiled_replay(replay, Access()) is replay


@pytest.mark.parametrize("person, hidden, shown", [
    (Access(STUDENT, "Ann", "Alpha"), (SECRET_SOURCE, SECRET_PRINT), ("alpha-printed-this",)),
    (Access(STUDENT, "Bob", "Beta"), ("alpha-printed-this",), (SECRET_SOURCE, SECRET_PRINT)),
    (Access(SPECTATOR, "Sam"), (SECRET_SOURCE, SECRET_PRINT, "alpha-printed-this"), ()),
])
def test_a_replay_shows_a_person_their_own_teams_words_only(played: Path, person, hidden,
                                                            shown) -> None:
    replay = veiled_replay(load_replay(replay_file(played, 1)), person)
    text = text_of(replay)
    for secret in hidden:
        assert secret not in text
    for words in shown:
        assert words in text
    assert (VEILED in text) == (SECRET_SOURCE in hidden)  # Beta's failure: its kind, not its words
    from studio.engines.haunted import replay as replays

    assert replays.verify(replay) == []  # the moves are all still there


@pytest.mark.parametrize("person, hidden", [
    (Access(STUDENT, "Ann", "Alpha"), (SECRET_SOURCE, SECRET_PRINT)),
    (Access(SPECTATOR, "Sam"), (SECRET_SOURCE, SECRET_PRINT, "alpha-printed-this")),
])
def test_the_live_feed_shows_a_spectator_no_hidden_words(played: Path, person, hidden) -> None:
    assert SECRET_SOURCE in feed_file(played).read_text()  # the premise: the file has it all
    spectator = Spectator(feed_file(played), veil=FeedVeil(person))
    spectator.poll()
    view = spectator.view()
    seen = text_of([list(view.log), view.record, [r.record for r in view.rounds],
                    [r.failures for r in view.rounds]])
    for secret in hidden:
        assert secret not in seen
    unveiled = Spectator(feed_file(played))
    unveiled.poll()
    assert SECRET_SOURCE in text_of([list(unveiled.view().log),
                                     [r.record for r in unveiled.view().rounds]])


async def test_a_student_stepping_through_the_replay_never_sees_another_teams_words(
        played: Path, ht_project: Path, monkeypatch) -> None:
    import shutil

    from studio.screens.haunted.replay_viewer import ReplayViewerScreen  # noqa: F401
    from studio.sessions import access
    from tests.haunted_ui.test_replay_screens import open_browser
    from tests.ui_helpers import studio_app, wait_until

    target = ht_project.parent / "replays" / "cup" / "match-001.json.gz"
    target.parent.mkdir(parents=True)
    shutil.copy(replay_file(played, 1), target)
    monkeypatch.setattr(access, "_granted", [Access(STUDENT, "Ann", "Alpha")])
    app = studio_app(ht_project)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_browser(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayViewerScreen), "no viewer")
        await pilot.press("l")
        for _ in range(12):  # every turn of the round, the log open
            await pilot.pause()
            screen = shown(app)
            assert SECRET_SOURCE not in screen and SECRET_PRINT not in screen
            await pilot.press("n")
        # the failed turn (its moves not played, so not a frame of its own) as the log writes it
        from studio.screens.haunted.replay_viewer import turn_log

        lines = "\n".join(turn_log(app.screen.replay["rounds"][0]["turns"][0]))
        assert "away: exception: " + VEILED in lines and "alpha-printed-this" in lines
        assert SECRET_SOURCE not in lines and SECRET_PRINT not in lines
