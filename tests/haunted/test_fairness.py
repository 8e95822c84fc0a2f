"""Fairness by simulation (``sim.fairness``) and ``studio map-check`` (haunted.md §10.3)."""

from __future__ import annotations

import json

import pytest

from studio import cli
from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.sim.batch import Policy
from studio.engines.haunted.sim.fairness import check, parse_policy, summary, wilson
from studio.storage import create_project
from tests.haunted.helpers import board

DEFAULT = builtin_maps()["Default"]
TILTED = board(["3333333", "3333333", "3333333", "3333333", "2222222", "2222222", "2222222"],
               name="Tilted")
"""Away starts on weak ground: every one of its steps costs it strength home never loses."""
SAFE = (Policy("safe"), Policy("safe").mirror())


@pytest.mark.parametrize(("wins", "trials", "low", "high"), [
    (50, 100, 0.4038, 0.5962),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (5000, 10000, 0.4902, 0.5098),
    (81, 263, 0.2553, 0.3662),
])
def test_wilson_interval(wins: int, trials: int, low: float, high: float) -> None:
    got = wilson(wins, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_without_trials_knows_nothing() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_symmetric_map_is_balanced_for_equal_policies() -> None:
    results = check(DEFAULT, 2000, pairs=[SAFE, (Policy("greedy", 0.2), Policy("greedy", 0.2).mirror())])
    assert [r.verdict for r in results] == ["balanced", "balanced"]
    for r in results:
        low, high = r.interval
        assert low <= 0.5 <= high and r.decided + r.ties == r.rounds == 2000
    assert summary(DEFAULT, results) == "Default: mirror-symmetric; balanced for every pair of equal policies"


def test_a_map_that_favours_home_says_so_and_by_how_much() -> None:
    results = check(TILTED, 2000, pairs=[SAFE])
    (result,) = results
    assert result.interval[0] > 0.5 and result.share > 0.6
    assert result.verdict == f"favours home by {(result.share - 0.5) * 100:.1f} points"
    assert summary(TILTED, results) == (
        f"Tilted: not mirror-symmetric; unbalanced: {result.home}: {result.verdict}")
    assert "favours home" in result.line()


def test_cross_pairs_have_no_verdict_and_results_do_not_depend_on_threads() -> None:
    pair = (Policy("safe"), Policy("greedy", 0.2).mirror())
    one = check(DEFAULT, 600, seed=4, pairs=[pair], jobs=1)[0]
    two = check(DEFAULT, 600, seed=4, pairs=[pair], jobs=2)[0]
    assert one.verdict == ""
    assert (one.home_wins, one.away_wins, one.ties) == (two.home_wins, two.away_wins, two.ties)
    plain = check(DEFAULT, 60, seed=4, pairs=[pair], plain=True)[0]
    fast = check(DEFAULT, 60, seed=4, pairs=[pair])[0]
    assert (plain.home_wins, plain.away_wins, plain.ties) == (fast.home_wins, fast.away_wins, fast.ties)


def test_default_pairs_and_json_form() -> None:
    results = check(DEFAULT, 50)
    assert [f"{r.home} vs {r.away}" for r in results] == [
        "safe vs safe", "greedy~0.2 vs greedy~0.2", "lookahead~0.2 vs lookahead~0.2",
        "safe vs greedy~0.2", "greedy~0.2 vs safe"]
    assert all(r.away.mirrored and not r.home.mirrored for r in results)
    data = results[0].to_json()
    assert set(data) == {"home", "away", "rounds", "home_wins", "away_wins", "ties", "home_share",
                         "low", "high", "verdict", "seconds"}


def test_parse_policy() -> None:
    assert parse_policy("greedy") == Policy("greedy")
    assert parse_policy("lookahead~0.25") == Policy("lookahead", 0.25)
    for text, message in (("smart", "unknown policy 'smart'"),
                          ("greedy~x", "noise 'x' of 'greedy~x' is not a number"),
                          ("safe~2", "noise must be in"), ("", "unknown policy ''")):
        with pytest.raises(ValueError, match=message):
            parse_policy(text)


# ------------------------------------------------------------------------------- the command


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(["map-check", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_map_check_text(capsys) -> None:
    code, out, err = run(capsys, "WaffleTown", "--rounds", "300", "--seed", "2")
    lines = out.strip().splitlines()
    assert code == 0 and err == ""
    assert lines[0].startswith("WaffleTown (7x7), 300 rounds per pair, ")
    assert len(lines) == 7 and "safe vs safe" in lines[1] and "% [" in lines[1]
    assert lines[-1].startswith("WaffleTown: mirror-symmetric; ")


def test_map_check_json_with_pairs_and_a_project(capsys, tmp_path) -> None:
    project = create_project(tmp_path, "haunted", "Cup").path
    code, out, _ = run(capsys, "Hourglass", "--project", str(project), "--rounds", "200", "--json",
                       "--pair", "greedy~0.2:greedy~0.2", "--pair", "safe:lookahead")
    data = json.loads(out)
    assert code == 0 and data["map"] == "Hourglass" and data["symmetric"] is True
    assert data["path"] == "numba" or data["path"].startswith("plain Python (")
    assert [(p["home"], p["away"], p["rounds"]) for p in data["pairs"]] == [
        ("greedy~0.2", "greedy~0.2", 200), ("safe", "lookahead", 200)]
    assert data["pairs"][0]["verdict"] in ("balanced",) or data["pairs"][0]["verdict"].startswith("favours")
    assert data["pairs"][1]["verdict"] == "" and data["summary"].startswith("Hourglass: ")


@pytest.mark.parametrize(("args", "needles"), [
    (["Nope"], ["no map named 'Nope' in the built-in maps", "give --project", "maps: Default, WaffleTown"]),
    (["Default", "--pair", "greedy"], ["bad --pair 'greedy': no HOME:AWAY", "e.g. greedy~0.2:safe"]),
    (["Default", "--pair", "greedy:smart"], ["unknown policy 'smart'", "write HOME:AWAY"]),
    (["Default", "--pair", "greedy~x:safe"], ["noise 'x' of 'greedy~x' is not a number"]),
])
def test_map_check_errors_say_what_to_do(capsys, args: list[str], needles: list[str]) -> None:
    code, out, err = run(capsys, *args, "--rounds", "5")
    assert code == 1 and out == ""
    assert err.startswith("studio: ") and err.count("\n") == 1
    for needle in needles:
        assert needle in err


def test_map_check_refuses_another_kind_of_project(capsys, tmp_path) -> None:
    project = create_project(tmp_path, "btree", "Tree").path
    code, _, err = run(capsys, "Default", "--project", str(project))
    assert code == 1 and "not a Haunted Tiles project" in err and project.name in err


def test_map_check_without_numba_runs_the_plain_path_and_says_so(capsys, monkeypatch) -> None:
    from studio.engines import jit

    monkeypatch.setattr(jit, "available", lambda: False)
    monkeypatch.setattr(jit, "reason", lambda: "numba cannot load: test")
    code, out, err = run(capsys, "Open 5", "--rounds", "20", "--pair", "safe:safe")
    assert code == 0 and "20 rounds per pair, plain Python (numba cannot load: test):" in out
    assert "numba cannot load: test: the plain path plays the rounds" in err
