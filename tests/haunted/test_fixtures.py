"""Open fixtures (parallel runners): the same numbers, seeds and sides as a sequential run, in
whatever order the results come in."""

from __future__ import annotations

import random

import pytest

from studio.engines.haunted import tournament as engine
from studio.engines.haunted.fixtures import open_fixtures
from studio.engines.haunted.match import Entrant, MatchConfig, MatchResult
from studio.engines.haunted.tournament import (DOUBLE_ROUND_ROBIN, ROUND_ROBIN, SINGLE, Fixture,
                                               round_robin, single_elimination)
from tests.haunted.helpers import open_map

MAPS = {"Default": open_map()}
CONFIG = MatchConfig(rounds=1, max_rounds=1, maps=("Default",))


def fake_result(seed: int, fixture: Fixture | None = None) -> MatchResult:
    """A result decided by the match seed alone, so that a run needs no AI; with its
    ``fixture``, the replay fields a resumed run checks."""
    winner = "A" if seed % 3 else "B"
    result = MatchResult(winner, {"A": int(winner == "A"), "B": int(winner == "B")}, 0, [])
    if fixture is not None:
        result.replay = {"teams": {"A": {"name": f"t{fixture.home}"},
                                   "B": {"name": f"t{fixture.away}"}},
                         "seed": seed, "config": CONFIG.to_json(),
                         "maps": {"Default": MAPS["Default"].to_json()}}
    return result


@pytest.fixture
def no_matches(monkeypatch):
    monkeypatch.setattr(engine, "run_match",
                        lambda a, b, maps, config, seed, **_: fake_result(seed))


def sequential(mode: str, n: int, seed: int, **more):
    entrants = [Entrant(f"t{i}", lambda: None) for i in range(n)]
    if mode == SINGLE:
        return single_elimination(entrants, MAPS, CONFIG, seed, **more)
    return round_robin(entrants, MAPS, CONFIG, seed, double=mode == DOUBLE_ROUND_ROBIN, **more)


@pytest.mark.parametrize(("mode", "n", "more"), [
    (SINGLE, 2, {}), (SINGLE, 5, {}), (SINGLE, 8, {"third_place": True}),
    (SINGLE, 13, {"third_place": True, "school_sizes": [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9]}),
    (ROUND_ROBIN, 5, {}), (DOUBLE_ROUND_ROBIN, 4, {}),
])
def test_results_in_any_order_open_the_sequential_schedule(no_matches, monkeypatch, mode, n,
                                                           more) -> None:
    whole = sequential(mode, n, 42, **more)
    expected = {m.number: Fixture(m.number, m.stage, m.home, m.away, m.seed)
                for m in whole.matches}
    shuffle = random.Random(n)
    done: dict[int, MatchResult] = {}
    opened: set[int] = set()
    while fixtures := open_fixtures(mode, n, 42, done, **more):
        for fixture in fixtures:
            assert fixture == expected[fixture.number]
        opened.update(f.number for f in fixtures)
        finished = shuffle.choice(fixtures)  # one result at a time, in a random order
        done[finished.number] = fake_result(finished.seed, finished)
    assert opened == set(expected) == set(done)
    monkeypatch.setattr(engine, "run_match", None)  # given every result, it plays nothing
    assert sequential(mode, n, 42, **more, done=done).to_json() == whole.to_json()


def test_a_round_robin_opens_every_match_at_once() -> None:
    assert [f.number for f in open_fixtures(ROUND_ROBIN, 16, 1, {})] == list(range(1, 121))


def test_a_bracket_opens_a_match_once_both_its_entrants_are_decided(no_matches) -> None:
    first = open_fixtures(SINGLE, 8, 5, {})
    assert [f.stage for f in first] == ["quarter-final"] * 4
    done = {first[0].number: fake_result(first[0].seed)}
    assert open_fixtures(SINGLE, 8, 5, done) == first[1:]  # its semi-final waits for match 2
    done[first[1].number] = fake_result(first[1].seed)
    semi = open_fixtures(SINGLE, 8, 5, done)[-1]
    assert (semi.stage, semi.number) == ("semi-final", 5)
