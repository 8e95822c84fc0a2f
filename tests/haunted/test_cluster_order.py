"""The order a cluster run sends its matches in (issue 31): the dearest first, a slot at a time."""

from __future__ import annotations

import pytest

from studio.engines.haunted.tournament import Fixture
from studio.sessions.haunted.cluster_order import Costs, thinking


def fixture(number: int, home: int, away: int) -> Fixture:
    return Fixture(number, "round 1", home, away, number)


ROUND = [fixture(1, 0, 1), fixture(2, 2, 3), fixture(3, 0, 2), fixture(4, 1, 3),
         fixture(5, 0, 3), fixture(6, 1, 2)]


def test_nothing_seen_keeps_the_schedule_order() -> None:
    assert [f.number for f in Costs().dearest(ROUND, 6)] == [1, 2, 3, 4, 5, 6]


def replay(home_ms: float, away_ms: float) -> dict:
    """Two rounds, home and away swapped: team A thinks ``home_ms`` a turn, B ``away_ms``."""
    def turns(a: float, b: float, home: str) -> list:
        mine, theirs = (a, b) if home == "A" else (b, a)
        return [{"turn": n, "home": {"ms": mine}, "away": {"ms": theirs}} for n in range(10)]
    return {"rounds": [{"home": home, "load": {"A": {"ms": 1.0}, "B": {"ms": 1.0}},
                        "turns": turns(home_ms, away_ms, home)} for home in ("A", "B")]}


def test_what_each_ai_thought_is_read_from_the_replay() -> None:
    assert thinking(replay(300.0, 5.0)) == {"A": pytest.approx(6.002), "B": pytest.approx(0.102)}
    assert thinking({"rounds": [{"home": "A", "turns": "nonsense"}]}) == {"A": 0.0, "B": 0.0}
    assert thinking(None) == {"A": 0.0, "B": 0.0}


def test_a_replay_that_says_what_no_clock_does_counts_for_nothing() -> None:
    nothing = {"A": 0.0, "B": 0.0}
    for ms in (float("nan"), float("inf"), -5000.0, "1e999", "soon", [1]):
        forged = replay(300.0, 5.0)
        forged["rounds"][1]["turns"][3]["away"]["ms"] = ms
        assert thinking(forged) == nothing, ms
    forged = replay(300.0, 5.0)
    forged["rounds"][0]["home"] = "Z"  # a team that is neither
    assert thinking(forged) == nothing


def test_matches_of_a_slow_entrant_go_first_once_it_was_seen() -> None:
    costs = Costs()
    costs.learn(ROUND[0], 6.5, replay(300.0, 5.0))  # entrant 0 thinks, 1 does not
    costs.learn(ROUND[1], 0.5, replay(5.0, 5.0))
    # 0 costs 6.2 s a match, the others 0.25-0.3 s: its two matches first, then schedule order
    assert [f.number for f in costs.dearest(ROUND[2:], 4)] == [3, 5, 4, 6]


def test_without_thinking_times_a_match_is_shared_evenly() -> None:
    costs = Costs()
    costs.learn(ROUND[0], 6.0)  # entrants 0 and 1
    costs.learn(ROUND[1], 0.5)  # 2 and 3
    rest = [fixture(7, 2, 3), fixture(8, 0, 1)]
    assert [f.number for f in costs.dearest(rest, 2)] == [8, 7]


def test_a_match_with_an_entrant_never_seen_goes_before_any_seen() -> None:
    costs = Costs()
    costs.learn(ROUND[0], 60.0)
    rest = [fixture(7, 0, 1), fixture(8, 4, 5), fixture(9, 0, 4)]
    assert [f.number for f in costs.dearest(rest, 3)] == [8, 9, 7]  # two unseen, one, none


def test_only_as_many_as_asked() -> None:
    assert Costs().dearest(ROUND, 0) == [] and Costs().dearest(ROUND, -1) == []
    assert len(Costs().dearest(ROUND, 2)) == 2
