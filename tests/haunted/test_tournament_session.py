"""Running tournaments with a replays folder (haunted.md §11): resume, index.json, CSV."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.match import MatchConfig
from studio.engines.haunted.tournament import DOUBLE_ROUND_ROBIN, ROUND_ROBIN, SINGLE
from studio.sessions.haunted.results import Results, matches_path, write_csv
from studio.sessions.haunted.tournament import (
    TournamentCancelled,
    TournamentPlan,
    TournamentRun,
    has_results,
    read_index,
    replay_file,
    tournament_folder,
    same_plan,
)
from studio.storage.errors import ProjectError

FIVE = ("builtin:lookahead", "builtin:greedy", "builtin:cautious", "builtin:wander", "builtin:idle")
CONFIG = MatchConfig(rounds=3, max_rounds=6, maps=("Default", "WaffleTown"))


def plan(folder: Path | None, mode: str = SINGLE, entrants=FIVE, seed: int = 11, **more):
    return TournamentPlan(mode, tuple(entrants), more.pop("config", CONFIG), builtin_maps(), seed,
                          name="Cup", replays=folder, in_process_builtins=True, **more)


def without_paths(document: dict) -> dict:
    return {k: v for k, v in document.items() if k != "replays"}


@pytest.mark.parametrize("mode", [SINGLE, DOUBLE_ROUND_ROBIN])
def test_cancel_then_resume_gives_the_uninterrupted_results(tmp_path: Path, mode: str) -> None:
    whole = TournamentRun(plan(tmp_path / "whole", mode)).run()
    folder = tmp_path / "cut"

    def stop_after_two(played) -> None:
        if played.number == 2:
            first.cancel()

    first = TournamentRun(plan(folder, mode), on_match=stop_after_two)
    with pytest.raises(TournamentCancelled):
        first.run()
    saved = read_index(folder)
    assert saved is not None and not saved["complete"]
    assert [m["number"] for m in saved["matches"]] == [1, 2]
    assert not replay_file(folder, 3).exists()
    stamps = [replay_file(folder, n).stat().st_mtime_ns for n in (1, 2)]
    played_again = []
    resumed = TournamentRun(plan(folder, mode), resume=True, on_match=played_again.append).run()
    assert without_paths(resumed) == without_paths(whole)
    assert played_again[0].number == 3  # matches 1 and 2 were read back, not played
    assert [replay_file(folder, n).stat().st_mtime_ns for n in (1, 2)] == stamps
    assert read_index(folder) == resumed


def test_cancel_during_a_match_keeps_only_finished_matches(tmp_path: Path) -> None:
    def cancel_when_match_two_starts() -> None:
        progress = run.progress()
        if progress.current and progress.done == 1:
            run.cancel()

    run = TournamentRun(plan(tmp_path, ROUND_ROBIN, FIVE[:3]), notify=cancel_when_match_two_starts)
    with pytest.raises(TournamentCancelled):
        run.run()
    assert [m["number"] for m in read_index(tmp_path)["matches"]] == [1]
    assert replay_file(tmp_path, 1).exists() and not replay_file(tmp_path, 2).exists()
    assert run.progress().done == 1


def test_index_json_lists_the_plan_matches_and_results(tmp_path: Path) -> None:
    cup = plan(tmp_path, third_place=True)
    document = TournamentRun(cup).run()
    assert document == read_index(tmp_path)
    assert document["format"] == "studio-haunted-tournament" and document["complete"]
    assert document["scheduled"] == len(document["matches"]) == 5  # 4 knock-outs + third place
    assert [m["stage"] for m in document["matches"]] == [
        "quarter-final", "semi-final", "semi-final", "final", "third place"]
    assert [m["replay"] for m in document["matches"]] == [
        f"match-{n:03d}.json.gz" for n in range(1, 6)]
    assert document["replays"] == [str(replay_file(tmp_path, n)) for n in range(1, 6)]
    assert len(document["standings"]) == 3 and document["seed"] == 11
    assert document["plan"]["seeds"] == list(FIVE) and same_plan(document, cup)
    assert not same_plan(document, plan(tmp_path, third_place=True, seed=12))
    by_school = plan(tmp_path, school_sizes=(1, 5, 2, 4, 3))
    assert by_school.fingerprint()["seeds"] == [FIVE[i] for i in (1, 3, 4, 2, 0)]


def test_the_same_seed_gives_the_same_run_and_another_seed_may_not_resume(tmp_path) -> None:
    first = TournamentRun(plan(tmp_path / "a", ROUND_ROBIN)).run()
    second = TournamentRun(plan(tmp_path / "b", ROUND_ROBIN)).run()
    assert without_paths(first) == without_paths(second)
    with pytest.raises(ProjectError, match="seed"):
        TournamentRun(plan(tmp_path / "a", ROUND_ROBIN, seed=12), resume=True).run()
    other = MatchConfig(rounds=1, maps=("Default",))
    with pytest.raises(ProjectError, match="other match settings"):
        TournamentRun(plan(tmp_path / "a", ROUND_ROBIN, config=other), resume=True).run()


def test_a_fresh_run_forgets_the_previous_one(tmp_path: Path) -> None:
    TournamentRun(plan(tmp_path)).run()
    TournamentRun(plan(tmp_path, entrants=FIVE[:2])).run()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.json", "live.jsonl",
                                                          "match-001.json.gz"]


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_round_robin_csv_has_the_engines_elo_and_standings(tmp_path: Path) -> None:
    run = TournamentRun(plan(tmp_path, ROUND_ROBIN, FIVE[:4]))
    document = run.run()
    table, matches = write_csv(document, tmp_path / "cup.csv")
    assert matches == matches_path(tmp_path / "cup.csv") == tmp_path / "cup-matches.csv"
    lines = rows(table)
    result = run.result
    assert [r["team"] for r in lines] == [FIVE[i] for i in result.standings]
    assert [r["rank"] for r in lines] == ["1", "2", "3", "4"]
    for line in lines:
        index = FIVE.index(line["team"])
        assert line["elo"] == f"{result.ratings[index]:.1f}"
    assert sum(int(r["match_wins"]) for r in lines) == 6
    assert sum(int(r["match_losses"]) for r in lines) == 6
    assert sum(int(r["round_wins"]) for r in lines) == sum(int(r["round_losses"]) for r in lines)
    played = rows(matches)
    assert [r["number"] for r in played] == [str(n) for n in range(1, 7)]
    first = document["matches"][0]
    assert played[0]["home"] == first["home"] and played[0]["winner"] == first["winner"]
    assert played[0]["replay"] == "match-001.json.gz"


def test_single_elimination_ranks_share_the_stage_they_went_out_in(tmp_path: Path) -> None:
    document = TournamentRun(plan(tmp_path)).run()
    lines = rows(write_csv(document, tmp_path / "cup.csv")[0])
    assert [r["rank"] for r in lines] == ["1", "2", "3", "3", "5"]
    assert [r["team"] for r in lines][:2] == document["standings"]
    champion = lines[0]
    assert champion["match_losses"] == "0" and int(champion["match_wins"]) >= 2


def test_a_partial_bracket_leaves_later_matches_open(tmp_path: Path) -> None:
    document = TournamentRun(plan(tmp_path)).run()
    partial = Results({**document, "complete": False, "matches": document["matches"][:2]})
    columns = partial.columns()
    assert [len(c) for c in columns] == [4, 2, 1]
    assert [m.away is None for m in columns[0]] == [True, False, True, True]  # three byes
    semi = columns[1]
    assert semi[0].winner is not None and semi[1].winner is None
    assert columns[2][0].winner is None
    assert all(s.rank is None for s in partial.standings())
    full = Results(document)
    assert full.champion() == document["standings"][0]
    assert full.columns()[2][0].winner == FIVE.index(document["standings"][0])


def test_the_cli_writes_csv(tmp_path: Path, capsys) -> None:
    from studio import cli

    target = tmp_path / "out.csv"
    code = cli.main(["tournament", *FIVE[:3], "--format", "roundrobin", "--seed", "4",
                     "--in-process", "--rounds", "1", "--csv", str(target)])
    assert code == 0
    lines = rows(target)
    assert len(lines) == 3 and lines[0]["rank"] == "1"
    out = capsys.readouterr().out
    assert f"1. {lines[0]['team']}" in out
    assert len(rows(tmp_path / "out-matches.csv")) == 3


def test_worker_processes_play_a_small_round_robin(tmp_path: Path) -> None:
    """The real thing: built-ins in sandboxed workers, not in process."""
    workers = TournamentPlan(ROUND_ROBIN, FIVE[1:4], MatchConfig(rounds=1, maps=("Default",)),
                             builtin_maps(), 5, replays=tmp_path)
    document = TournamentRun(workers).run()
    fast = TournamentRun(plan(tmp_path / "fast", ROUND_ROBIN, FIVE[1:4], seed=5,
                              config=MatchConfig(rounds=1, maps=("Default",)))).run()
    assert document["complete"] and len(document["matches"]) == 3
    assert document["standings"] == fast["standings"]
    assert json.loads((tmp_path / "index.json").read_text())["matches"] == document["matches"]


def test_the_third_place_match_shows_before_it_is_played(tmp_path: Path) -> None:
    from studio.engines.haunted.tournament import TBD
    from studio.sessions.haunted.tournament import index_document

    cup = plan(tmp_path, entrants=FIVE[:4], third_place=True)
    draw = Results(index_document(cup, [])).columns()
    assert [c[0].stage for c in draw] == ["semi-final", "final", "third place"]
    assert (draw[2][0].home, draw[2][0].away) == (TBD, TBD)
    document = TournamentRun(cup).run()
    after_semis = Results({**document, "complete": False, "matches": document["matches"][:2]})
    third = after_semis.columns()[2][0]
    played = document["matches"][3]
    assert played["stage"] == "third place" and third.winner is None
    assert (FIVE[third.home], FIVE[third.away]) == (played["home"], played["away"])


def test_results_left_under_a_name_are_found_with_or_without_the_tournament(tmp_path: Path) -> None:
    assert not has_results(tmp_path, "Cup")
    folder = tournament_folder(tmp_path, "Cup")
    folder.mkdir(parents=True)
    assert not has_results(tmp_path, "Cup")  # an empty folder holds nothing
    replay_file(folder, 1).write_bytes(b"")
    assert has_results(tmp_path, "Cup") and not has_results(tmp_path, "Other")


def test_resume_replays_only_the_missing_matches_wherever_they_are(tmp_path: Path) -> None:
    """A parallel run saves matches in the order they finish: a gap is not the end."""
    whole = TournamentRun(plan(tmp_path, ROUND_ROBIN, FIVE[:4])).run()
    replay_file(tmp_path, 2).unlink()
    replay_file(tmp_path, 5).unlink()
    played_again = []
    resumed = TournamentRun(plan(tmp_path, ROUND_ROBIN, FIVE[:4]), resume=True,
                            on_match=played_again.append).run()
    assert [p.number for p in played_again] == [2, 5]
    assert without_paths(resumed) == without_paths(whole)
