"""The ladder's catch-up on Dask (issue 31): a real LocalCluster of two worker processes plays
what a catch-up here plays, with the same results, replays and feed, and counts a match once."""

from __future__ import annotations

import json
from importlib.util import find_spec
from pathlib import Path

import pytest

from studio.sessions.haunted.ladder import catch_up, load_ladder, replay_path
from studio.sessions.haunted.tournament import feed_file
from studio.sessions.haunted.watch import replay_bodies
from tests.haunted.ladder_helpers import builtin_entrant, hand_in
from tests.haunted.test_cluster import replay_text
from tests.haunted.test_feed import body_of
from tests.haunted.test_ladder import three_submissions

pytestmark = pytest.mark.skipif(find_spec("distributed") is None,
                                reason="Dask distributed is not installed (the cluster extra)")


@pytest.fixture(scope="module")
def pool():
    from studio.sessions.haunted.cluster import ClusterPool

    with ClusterPool("local:2") as pool:
        yield pool


def on_cluster(pool, model, **more):
    from studio.sessions.haunted.ladder_cluster import catch_up_on

    return catch_up_on(pool, model, make_entrant=builtin_entrant, in_process=True, **more)


def index(model) -> dict:
    return json.loads((load_ladder(model).folder / "index.json").read_text())


def test_the_cluster_plays_the_ladder_a_catch_up_here_plays(tmp_path: Path, pool) -> None:
    (tmp_path / "here").mkdir()
    (tmp_path / "there").mkdir()
    here, there = three_submissions(tmp_path / "here"), three_submissions(tmp_path / "there")
    catch_up(here, make_entrant=builtin_entrant)
    told: list[str] = []
    report = on_cluster(pool, there, on_match=lambda match, entry: told.append(match.key))
    assert len(report.played) == 6 and report.pending == 0 and sorted(told) == sorted(
        report.played)
    assert index(here) == index(there)  # the same results and standings
    ladder = load_ladder(there)
    for match in ladder.matches:
        assert replay_text(replay_path(load_ladder(here).folder, match.key)) == replay_text(
            replay_path(ladder.folder, match.key))
    # The feed replayed gives the saved replays, as a catch-up here writes it.
    assert sorted(map(json.dumps, replay_bodies(feed_file(ladder.folder)))) == sorted(
        json.dumps(body_of(replay_path(ladder.folder, m.key))) for m in ladder.matches)
    # Nothing new: nothing sent. A new submission plays the two other teams, both sides.
    assert on_cluster(pool, there).played == []
    hand_in(there, "Ghouls", "greedy", 5)
    assert len(on_cluster(pool, there).played) == 4
    assert not load_ladder(there).missing


def test_a_result_entered_meanwhile_by_another_runner_is_counted_once(tmp_path: Path,
                                                                       pool) -> None:
    model = three_submissions(tmp_path)
    seen: list[str] = []

    def meanwhile(match, entry) -> None:  # after the first result, a runner here plays the rest
        if not seen:
            catch_up(model, make_entrant=builtin_entrant)
        seen.append(match.key)

    report = on_cluster(pool, model, on_match=meanwhile)
    ladder = load_ladder(model)
    assert not ladder.missing and len(ladder.results) == 6
    assert report.played == seen and len(seen) == 1  # the cluster's other five were dropped
    assert [r.played for r in ladder.rows] == [4, 4, 4]
