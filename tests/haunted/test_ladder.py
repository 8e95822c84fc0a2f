"""The ladder (issue 30): its schedule is a function of the submissions, its standings do not
depend on the order matches finished in, and a run resumes, counts a match once, and shares the
ladder with a second runner."""

from __future__ import annotations

import json
import random
import threading
from datetime import timedelta
from pathlib import Path

import pytest

from studio.engines.haunted.ladder import Outcome, Version, schedule, standings
from studio.sessions.haunted.ladder import (
    LadderBusy, LadderCancelled, catch_up, ladder_folder, ladder_lock, load_ladder, replay_path,
    reset_ladder,
)
from studio.storage.errors import ProjectError
from studio.storage.haunted.kind import validate
from studio.storage.haunted.ladder import ladder_of
from tests.haunted.ladder_helpers import T0, builtin_entrant, competition, hand_in


def v(team: str, sha: str, minutes: int) -> Version:
    return Version(team, sha * 64, T0 + timedelta(minutes=minutes))


# ----------------------------------------------------------------------------- the schedule


def test_each_submission_plays_every_other_latest_submission_on_both_sides() -> None:
    a1, b1, c1, a2 = v("A", "a", 0), v("B", "b", 1), v("C", "c", 2), v("A", "d", 3)
    matches = schedule([a2, c1, a1, b1], ["M1", "M2", "M3"])  # given in any order
    pairs = [(m.home.sha256[0], m.away.sha256[0]) for m in matches]
    # a1 joins alone; b1 meets a1; c1 meets a1 and b1; a2 meets b1 and c1 (a1 is A's own).
    assert pairs == [("b", "a"), ("a", "b"), ("c", "a"), ("a", "c"), ("c", "b"), ("b", "c"),
                     ("d", "b"), ("b", "d"), ("d", "c"), ("c", "d")]
    assert [m.map_name for m in matches] == ["M1", "M2", "M3"] * 3 + ["M1"]
    assert [m.number for m in matches] == list(range(1, 11))
    assert schedule([a1, b1, c1, a2], ["M1", "M2", "M3"]) == matches


def test_a_resubmitted_file_plays_no_match_twice_and_games_repeat_per_side() -> None:
    a1, b1, a_same = v("A", "a", 0), v("B", "b", 1), v("A", "a", 2)
    matches = schedule([a1, b1, a_same], ["M"], games=2)
    assert [(m.home.sha256[0], m.away.sha256[0], m.game) for m in matches] == [
        ("b", "a", 1), ("a", "b", 1), ("b", "a", 2), ("a", "b", 2)]
    assert len({m.key for m in matches}) == len(matches)


def test_match_seeds_come_from_the_ladder_seed_and_the_two_hashes() -> None:
    a, b = v("A", "a", 0), v("B", "b", 1)
    first, second = schedule([a, b], ["M"], seed=1)
    assert first.seed != second.seed
    assert schedule([a, b], ["M"], seed=1)[0].seed == first.seed
    assert schedule([a, b], ["M"], seed=2)[0].seed != first.seed


def test_elo_does_not_depend_on_the_order_matches_finished_in() -> None:
    versions = [v("A", "a", 0), v("B", "b", 1), v("C", "c", 2), v("A", "d", 3)]
    matches = schedule(versions, ["M"])
    results = {m.key: Outcome("home" if m.number % 3 else "away", 1, 0) for m in matches}
    expected = standings(versions, matches, results)
    for attempt in range(5):
        keys = list(results)
        random.Random(attempt).shuffle(keys)
        assert standings(versions, matches, {k: results[k] for k in keys}) == expected
    assert sum(r.played for r in expected) == 2 * len(matches)
    assert sum(r.wins for r in expected) == sum(r.losses for r in expected) == len(matches)


# ----------------------------------------------------------------------------- the settings


def test_the_ladder_table_is_checked_with_its_field_path(tmp_path: Path) -> None:
    model = competition(tmp_path)
    assert ladder_of(model.body).enabled
    for bad, field in (({"enabled": "yes"}, "enabled"), ({"games_per_pair": 9}, "games_per_pair"),
                       ({"seed": -1}, "seed")):
        body = {**model.body, "ladder": bad}
        with pytest.raises(ProjectError) as caught:
            validate(body)
        assert caught.value.field_path == ("ladder", field)
    with pytest.raises(ProjectError, match="unknown key 'speed'"):
        validate({**model.body, "ladder": {"speed": 2}})


# ----------------------------------------------------------------------------- running it


def three_submissions(tmp_path: Path, **options):
    model = competition(tmp_path, **options)
    hand_in(model, "Ghosts", "greedy", 0)
    hand_in(model, "Ghouls", "idle", 1)
    hand_in(model, "Wraiths", "wander", 2)
    return model


def test_the_ladder_after_three_submissions(tmp_path: Path) -> None:
    model = three_submissions(tmp_path)
    report = catch_up(model, make_entrant=builtin_entrant)
    assert len(report.played) == 6 and report.pending == 0
    ladder = load_ladder(model)
    assert not ladder.missing
    assert sorted(r.team for r in ladder.rows) == ["Ghosts", "Ghouls", "Wraiths"]
    assert [r.played for r in ladder.rows] == [4, 4, 4]
    assert ladder.rows[-1].team == "Ghouls"  # the idle AI loses every match
    index = json.loads((ladder.folder / "index.json").read_text())
    assert [s["team"] for s in index["standings"]] == [r.team for r in ladder.rows]
    for entry in index["matches"].values():
        assert (ladder.folder / entry["replay"]).is_file()
    # Nothing new: nothing played. A new submission plays the two other teams, both sides.
    assert catch_up(model, make_entrant=builtin_entrant).played == []
    hand_in(model, "Ghouls", "greedy", 5)
    again = catch_up(model, make_entrant=builtin_entrant)
    assert len(again.played) == 4
    assert {load_ladder(model).results[k]["home"] for k in again.played} == {
        "Ghouls", "Ghosts", "Wraiths"}


def test_a_match_cut_off_mid_way_is_played_again_and_counted_once(tmp_path: Path) -> None:
    model = three_submissions(tmp_path)
    cancel = threading.Event()

    def cut(match, entry) -> None:
        if entry is None and match.number == 3:
            cancel.set()  # stops at its first turn: nothing of it is saved

    with pytest.raises(LadderCancelled):
        catch_up(model, make_entrant=builtin_entrant, cancel=cancel, on_match=cut)
    ladder = load_ladder(model)
    assert len(ladder.results) == 2 and len(ladder.missing) == 4
    assert not replay_path(ladder.folder, ladder.missing[0].key).exists()
    assert len(catch_up(model, make_entrant=builtin_entrant).played) == 4
    assert len(load_ladder(model).results) == 6


def test_a_replay_saved_but_never_entered_is_counted_once(tmp_path: Path) -> None:
    model = three_submissions(tmp_path)
    catch_up(model, make_entrant=builtin_entrant)
    ladder = load_ladder(model)
    expected = [(r.team, r.elo, r.played) for r in ladder.rows]
    index = json.loads((ladder.folder / "index.json").read_text())
    last = ladder.matches[-1].key
    del index["matches"][last]  # killed between saving the replay and entering it
    (ladder.folder / "index.json").write_text(json.dumps(index))
    report = catch_up(model, make_entrant=builtin_entrant)
    assert report.played == [] and report.mended == [last]
    assert [(r.team, r.elo, r.played) for r in load_ladder(model).rows] == expected


def test_two_runners_at_once_play_each_match_once(tmp_path: Path) -> None:
    model = three_submissions(tmp_path)
    reports = []

    def runner() -> None:
        reports.append(catch_up(model, make_entrant=builtin_entrant, live_feed=False))

    threads = [threading.Thread(target=runner) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    played = reports[0].played + reports[1].played
    assert sorted(played) == sorted(m.key for m in load_ladder(model).matches)
    assert len(load_ladder(model).results) == 6


def test_the_lock_is_exclusive_and_a_waiter_can_give_up(tmp_path: Path) -> None:
    folder = ladder_folder(tmp_path)
    with ladder_lock(folder):
        with pytest.raises(LadderBusy):
            with ladder_lock(folder, wait=0.1):
                pass
        stop = threading.Event()
        stop.set()
        with pytest.raises(LadderCancelled):
            with ladder_lock(folder, cancel=stop):
                pass
    with ladder_lock(folder, wait=0.1):  # released
        pass


def test_changed_settings_stop_the_ladder_until_it_is_reset(tmp_path: Path) -> None:
    model = three_submissions(tmp_path)
    catch_up(model, make_entrant=builtin_entrant, limit=1)
    changed = model.with_table("ladder", {"enabled": True, "games_per_pair": 2, "seed": 5})
    with pytest.raises(ProjectError, match="reset the ladder") as caught:
        catch_up(changed, make_entrant=builtin_entrant)
    assert "changed since" in caught.value.message
    assert reset_ladder(tmp_path) == 1
    assert len(catch_up(changed, make_entrant=builtin_entrant).played) == 12


def test_a_late_submission_does_not_play(tmp_path: Path) -> None:
    model = three_submissions(tmp_path)
    model = model.with_table("submissions", {"deadline": (T0 + timedelta(minutes=3)).isoformat()})
    hand_in(model, "Ghosts", "wander", 10)  # stored while the deadline was elsewhere
    assert len(load_ladder(model).matches) == 6


def test_a_damaged_index_is_refused_with_its_field(tmp_path: Path) -> None:
    model = three_submissions(tmp_path)
    index = ladder_folder(tmp_path) / "index.json"
    index.parent.mkdir(parents=True)
    for text, field in (('{"format": "other"}', ()), ('[1]', ()),
                        ('{"format": "studio-haunted-ladder", "matches": []}', ("matches",)),
                        ('{"format": "studio-haunted-ladder", "matches": {"k": {"winner": "me", '
                         '"home_rounds": 1, "away_rounds": 0}}}', ("matches", "k")),
                        ('{"format": "studio-haunted-ladder", "matches": {"k": {"winner": '
                         '"home", "home_rounds": true, "away_rounds": 0}}}', ("matches", "k"))):
        index.write_text(text)
        with pytest.raises(ProjectError, match="ladder") as caught:
            load_ladder(model)
        assert caught.value.file == index and caught.value.field_path == field
        assert caught.value.hint == "reset the ladder"


def test_the_ladders_feed_replayed_equals_its_saved_replays(tmp_path: Path) -> None:
    from studio.sessions.haunted.tournament import feed_file
    from studio.sessions.haunted.watch import replay_bodies
    from tests.haunted.test_feed import body_of

    model = three_submissions(tmp_path)
    catch_up(model, make_entrant=builtin_entrant)
    ladder = load_ladder(model)
    bodies = replay_bodies(feed_file(ladder.folder))
    assert bodies == [body_of(replay_path(ladder.folder, m.key)) for m in ladder.matches]
