"""Tournaments (spec haunted.md §11, §14.7): bracket order, byes, seeding, round robin, Elo."""

from __future__ import annotations

from itertools import combinations

import pytest

from studio.engines.common.splitmix import SplitMix64
from studio.engines.haunted.match import Entrant, MatchConfig
from studio.engines.haunted.tournament import (
    bracket_order,
    elo_update,
    round_robin,
    round_robin_schedule,
    single_elimination,
)
from tests.haunted.helpers import ScriptedPlayer, open_map

MAPS = {"Default": open_map()}
CONFIG = MatchConfig(rounds=1, max_rounds=1, maps=("Default",))


def ranked(n: int) -> list[Entrant]:
    """Entrants t0..t(n-1) where the lower index always wins: in every round the player with
    the higher index walks off the board in turn 1 while the other jumps."""
    return [Entrant(f"t{i}", _maker(i)) for i in range(n)]


_CURRENT: dict[str, int] = {}
"""Which entrant plays which side in the current round (set when a player loads)."""


def _maker(i: int):
    def answer(turn, state, side):
        other = _CURRENT["away" if side == "home" else "home"]
        if other < i:
            return ["north" if side == "home" else "south"] * 3  # lose: walk off
        return ["none"] * 3

    def make():
        player = ScriptedPlayer(answer, f"t{i}")
        original = player.load

        def load(seed, side):
            _CURRENT[side] = i
            return original(seed, side)

        player.load = load  # type: ignore[method-assign]
        return player

    return make


@pytest.mark.parametrize(("size", "order"), [
    (1, [1]), (2, [1, 2]), (4, [1, 4, 2, 3]), (8, [1, 8, 4, 5, 2, 7, 3, 6]),
    (16, [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]),
])
def test_bracket_slot_order(size, order) -> None:
    assert bracket_order(size) == order


def test_bracket_size_must_be_a_power_of_two() -> None:
    with pytest.raises(ValueError):
        bracket_order(6)


def test_first_registered_plays_the_last() -> None:
    result = single_elimination(ranked(4), MAPS, CONFIG)
    firsts = [(m.home, m.away) for m in result.matches if m.stage == "semi-final"]
    assert firsts == [(0, 3), (1, 2)]
    assert result.standings == [0, 1]


@pytest.mark.parametrize(("n", "byes"), [(3, [0]), (5, [0, 1, 2]), (6, [0, 1]), (7, [0]),
                                         (9, [0, 1, 2, 3, 4, 5, 6])])
def test_byes_go_to_the_best_seeds(n, byes) -> None:
    result = single_elimination(ranked(n), MAPS, CONFIG)
    first_stage = result.matches[0].stage
    assert sorted(e for s, e in result.byes if s == first_stage) == byes
    assert len(result.matches) == n - 1
    assert result.standings[0] == 0


def test_better_seed_is_home_and_third_place_match() -> None:
    result = single_elimination(ranked(8), MAPS, CONFIG, third_place=True)
    assert all(m.home < m.away for m in result.matches)
    assert result.matches[-1].stage == "third place"
    assert result.standings == [0, 1, 2]


def test_school_size_seeding() -> None:
    # Seeds by school size descending: entrant 3 (largest school) is seed 1 and plays seed 4.
    result = single_elimination(ranked(4), MAPS, CONFIG, school_sizes=[10, 20, 5, 40])
    semis = [(m.home, m.away) for m in result.matches if m.stage == "semi-final"]
    assert semis == [(3, 2), (1, 0)]


def test_match_seeds_are_drawn_in_schedule_order() -> None:
    result = single_elimination(ranked(4), MAPS, CONFIG, seed=9)
    rng = SplitMix64(9)
    assert [m.seed for m in result.matches] == [rng.next64() >> 1 for _ in range(3)]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_round_robin_schedule_covers_every_pair(n) -> None:
    rounds = round_robin_schedule(n)
    pairs = [frozenset(p) for r in rounds for p in r]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset, combinations(range(n), 2))))
    for r in rounds:  # nobody plays twice in a round
        players = [i for p in r for i in p]
        assert len(players) == len(set(players))
    double = round_robin_schedule(n, double=True)
    directed = [p for r in double for p in r]
    assert len(directed) == n * (n - 1) and len(set(directed)) == n * (n - 1)


def test_elo_example() -> None:
    assert elo_update(1500, 1500, True) == (1516.0, 1484.0)
    a, b = elo_update(1600, 1400, False)
    assert a < 1600 - 16 and b > 1400 + 16 and a + b == pytest.approx(3000)


def test_round_robin_standings_and_ratings() -> None:
    result = round_robin(ranked(4), MAPS, CONFIG, seed=3)
    assert result.standings == [0, 1, 2, 3]
    assert result.ratings[0] > result.ratings[1] > result.ratings[2] > result.ratings[3]
    assert len(result.matches) == 6
    assert result.to_json()["standings"] == ["t0", "t1", "t2", "t3"]
    double = round_robin(ranked(3), MAPS, CONFIG, double=True)
    assert len(double.matches) == 6 and len(double.byes) == 6


def test_every_match_keeps_its_replay() -> None:
    seen = []
    result = round_robin(ranked(3), MAPS, CONFIG, on_match=seen.append)
    assert seen == result.matches
    assert all(m.result.replay["rounds"] for m in result.matches)


def test_needs_two_entrants() -> None:
    with pytest.raises(ValueError):
        single_elimination(ranked(1), MAPS, CONFIG)


def test_resume_reuses_played_matches_and_keeps_the_seeds() -> None:
    full = single_elimination(ranked(5), MAPS, CONFIG, seed=4)
    fresh: list = []
    done = {m.number: m.result for m in full.matches[:2]}
    resumed = single_elimination(ranked(5), MAPS, CONFIG, seed=4, done=done, on_match=fresh.append)
    assert [m.number for m in fresh] == [3, 4]
    assert [m.seed for m in resumed.matches] == [m.seed for m in full.matches]
    assert resumed.matches[0].result is done[1]
    assert resumed.standings == full.standings
    wrong = {1: full.matches[1].result}
    with pytest.raises(ValueError, match="saved match 1"):
        single_elimination(ranked(5), MAPS, CONFIG, seed=4, done=wrong)


def test_match_result_from_replay() -> None:
    from studio.engines.haunted.match import MatchResult

    played = round_robin(ranked(2), MAPS, MatchConfig(rounds=3, maps=("Default",))).matches[0]
    again = MatchResult.from_replay(played.result.replay)
    assert (again.winner, again.wins, again.ties, again.coin_toss) == (
        played.result.winner, played.result.wins, played.result.ties, played.result.coin_toss)
    assert [r.winner_team for r in again.rounds] == [r.winner_team for r in played.result.rounds]


@pytest.mark.parametrize("n", range(2, 10))
def test_scheduled_matches_counts_what_is_played(n: int) -> None:
    from studio.engines.haunted.tournament import (
        DOUBLE_ROUND_ROBIN,
        ROUND_ROBIN,
        SINGLE,
        scheduled_matches,
    )

    for third in (False, True):
        played = single_elimination(ranked(n), MAPS, CONFIG, third_place=third).matches
        assert scheduled_matches(SINGLE, n, third) == len(played)
    assert scheduled_matches(ROUND_ROBIN, n) == len(round_robin(ranked(n), MAPS, CONFIG).matches)
    double = round_robin(ranked(n), MAPS, CONFIG, double=True).matches
    assert scheduled_matches(DOUBLE_ROUND_ROBIN, n) == len(double)


def test_on_start_announces_every_match_and_an_observer_can_stop_the_run() -> None:
    full = single_elimination(ranked(5), MAPS, CONFIG, seed=4)
    starts: list = []
    done = {1: full.matches[0].result}
    single_elimination(ranked(5), MAPS, CONFIG, seed=4, done=done, on_start=starts.append)
    assert [(f.number, f.stage, f.home, f.away, f.seed) for f in starts] == [
        (m.number, m.stage, m.home, m.away, m.seed) for m in full.matches]

    class Stop(Exception):
        pass

    def observer(*_):
        raise Stop

    finished: list = []
    with pytest.raises(Stop):
        round_robin(ranked(3), MAPS, CONFIG, on_match=finished.append, observer=observer)
    assert finished == []


def test_a_saved_match_must_have_the_schedules_seed_settings_and_maps() -> None:
    full = single_elimination(ranked(4), MAPS, CONFIG, seed=4)
    done = {1: full.matches[0].result}
    with pytest.raises(ValueError, match="seed"):
        single_elimination(ranked(4), MAPS, CONFIG, seed=5, done=done)
    longer = MatchConfig(rounds=3, max_rounds=3, maps=("Default",))
    with pytest.raises(ValueError, match="other match settings"):
        single_elimination(ranked(4), MAPS, longer, seed=4, done=done)
    with pytest.raises(ValueError, match="other maps"):
        single_elimination(ranked(4), {"Default": open_map(9)}, CONFIG, seed=4, done=done)


def test_the_bracket_layout_is_the_one_single_elimination_plays() -> None:
    from studio.engines.haunted.tournament import TBD, bracket

    columns = bracket(list(range(6)), lambda stage, home, away: None)
    assert [len(c) for c in columns] == [4, 2, 1]
    assert [(m.home, m.away) for m in columns[0]] == [(0, None), (3, 4), (1, None), (2, 5)]
    assert columns[1][0].home == 0 and columns[1][0].away == TBD
    result = single_elimination(ranked(6), MAPS, CONFIG)
    winners = {(m.stage, m.home, m.away): m.winner for m in result.matches}
    played = bracket(list(range(6)), lambda *key: winners.get(key))
    assert played[-1][0].winner == result.standings[0] == 0
