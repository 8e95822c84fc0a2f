"""The referee: failures, rounds, best-of-N, extra rounds, coin toss, RNG order (§6, §7, §14.2, §14.5)."""

from __future__ import annotations

import pytest

from studio.engines.common.splitmix import SplitMix64
from studio.engines.haunted.match import (
    ROUND_LOG_LIMIT,
    TRUNCATED,
    Entrant,
    MatchConfig,
    decided,
    run_match,
)
from studio.engines.haunted.players import AIReply
from tests.haunted.helpers import ScriptedPlayer, always, open_map

MAPS = {"Default": open_map(), "Small": open_map(5, "Small")}
ONE = MatchConfig(rounds=1, max_rounds=1, maps=("Default",))


def entrant(name, answer, log=None, load=None, confined=True):
    def make():
        player = ScriptedPlayer(answer, name, load=load, log=log)
        player.confined = confined
        return player

    return Entrant(name, make)


def walk_off(turn, state, side):
    return ["north" if side == "home" else "south"] * 3


IDLE = always(["none"] * 3)


# ----------------------------------------------------------------------------- one round


def test_both_players_are_asked_before_either_is_collected() -> None:
    log: list = []
    run_match(entrant("a", IDLE, log), entrant("b", IDLE, log), MAPS, ONE)
    turn1 = [entry[:2] for entry in log if entry[0] in ("request", "collect")][:4]
    assert turn1 == [("request", "a"), ("request", "b"), ("collect", "a"), ("collect", "b")]
    assert [e for e in log if e[0] == "close"] == [("close", "a"), ("close", "b")]


@pytest.mark.parametrize("failure", ["exception", "timeout", "crash"])
def test_one_failing_ai_loses_the_round_and_its_moves_are_not_applied(failure) -> None:
    def flaky(turn, state, side):
        return AIReply(ok=False, failure=failure, error="oops") if turn == 2 else ["south"] * 3

    result = run_match(entrant("a", flaky), entrant("b", IDLE), MAPS, ONE)
    r = result.rounds[0]
    assert (r.winner, r.reason, r.turns, r.winner_team) == ("away", "ai_failure", 2, "B")
    assert r.failures == {"A": {"failure": failure, "error": "oops"}}
    assert r.broken == (3, 3)  # turn 2 was not applied
    last = r.record["turns"][-1]
    assert last["home"]["failure"] == failure and last["events"] == []
    assert last["away"]["moves"] == ["none"] * 3


def test_bad_shape_answer_is_a_failure() -> None:
    result = run_match(entrant("a", IDLE), entrant("b", always(["none", "none"])), MAPS, ONE)
    r = result.rounds[0]
    assert (r.winner, r.reason) == ("home", "ai_failure")
    assert r.failures["B"]["failure"] == "bad_shape" and "list of 2" in r.failures["B"]["error"]


def test_both_failing_in_one_turn_is_a_tie() -> None:
    bad = always(AIReply(ok=False, failure="timeout", error="too slow"))
    result = run_match(entrant("a", bad), entrant("b", always("north")), MAPS, ONE)
    r = result.rounds[0]
    assert (r.winner, r.reason) == (None, "both_failed")
    assert set(r.failures) == {"A", "B"}


def test_load_failures() -> None:
    broken = AIReply(ok=False, failure="exception", error="SyntaxError: bad")
    one = run_match(entrant("a", IDLE, load=broken), entrant("b", IDLE), MAPS, ONE)
    assert (one.rounds[0].winner, one.rounds[0].reason, one.rounds[0].turns) == ("away", "ai_failure", 0)
    assert one.rounds[0].record["load"]["A"]["error"] == "SyntaxError: bad"
    both = run_match(entrant("a", IDLE, load=broken), entrant("b", IDLE, load=broken), MAPS, ONE)
    assert (both.rounds[0].winner, both.rounds[0].reason) == (None, "both_failed")


def test_unknown_directions_are_recorded_as_warnings() -> None:
    result = run_match(entrant("Ghosts", always(["none", "jump", "none"])), entrant("b", IDLE), MAPS, ONE)
    turn = result.rounds[0].record["turns"][0]
    assert turn["home"]["raw"] == ["none", "jump", "none"]
    assert turn["home"]["moves"] == ["none"] * 3
    assert "Ghosts (home), turn 1, monster 1" in turn["home"]["warnings"][0]


def test_captured_output_is_bounded_per_turn_and_per_round() -> None:
    def chatty(turn, state, side):
        return AIReply(ok=True, result=["south"] * 3, stdout="x" * 10_000)

    result = run_match(entrant("a", chatty), entrant("b", IDLE), MAPS, ONE)
    outs = [t["home"]["stdout"] for t in result.rounds[0].record["turns"]]
    assert outs[0] == "x" * 4096 + TRUNCATED
    assert sum(len(o) for o in outs) <= ROUND_LOG_LIMIT + 2 * len(TRUNCATED)


def test_unconfined_players_are_reported() -> None:
    result = run_match(entrant("loose", IDLE, confined=False), entrant("b", IDLE), MAPS, ONE)
    assert result.log == ["loose runs unconfined (with the user's rights)"]
    assert result.replay["teams"]["A"]["confined"] is False


def test_observer_sees_every_turn() -> None:
    seen = []
    run_match(entrant("a", IDLE), entrant("b", IDLE), MAPS, ONE,
              observer=lambda k, state, events, record: seen.append((k, record["turn"], state.turn)))
    assert seen == [(1, 1, 2), (1, 2, 3), (1, 3, 3)]


def test_round_start_and_end_are_announced() -> None:
    seen = []
    three = MatchConfig(rounds=3, max_rounds=3, maps=("Default", "Small"), swap_sides=True)
    run_match(entrant("a", walk_off), entrant("b", IDLE), MAPS, three,
              on_round_start=lambda k, board, home, state: seen.append(("start", k, board.name, home,
                                                                       state.turn)),
              on_round_end=lambda result: seen.append(("end", result.index, result.winner_team)))
    # a walks off the board on either side: B wins twice and the match is decided
    assert seen == [("start", 1, "Default", "A", 1), ("end", 1, "B"),
                    ("start", 2, "Small", "B", 1), ("end", 2, "B")]


def test_an_aborted_match_keeps_what_was_played() -> None:
    from studio.engines.haunted import replay as replays
    from studio.engines.haunted.match import MatchAborted

    def stop_in_round_two(k, state, events, record):
        if k == 2 and record["turn"] == 2:
            raise MatchAborted()

    three = MatchConfig(rounds=3, max_rounds=3, maps=("Default",))
    result = run_match(entrant("a", IDLE), entrant("b", IDLE), MAPS, three,
                       observer=stop_in_round_two)
    assert result.aborted and result.winner is None and result.rounds_played == 1
    rounds = result.replay["rounds"]
    assert len(rounds) == 2 and rounds[1]["aborted"] and len(rounds[1]["turns"]) == 2
    assert result.replay["result"]["aborted"] is True
    document = replays.build(result, "test")
    assert replays.verify(document) == []
    assert [f.turn for f in replays.frames(document, 2)] == [0, 1, 2]
    tampered = {**document, "rounds": [rounds[1], rounds[0]]}
    assert "round 1: only the last round can be the aborted one" in replays.verify(tampered)


# ---------------------------------------------------------------------------- the match


def scripted(outcomes: str):
    """Entrants whose round k ends as outcomes[k-1]: A or B wins by elimination, T ties (9-9)."""
    state = {"round": 0}

    def make_a():
        state["round"] += 1
        return ScriptedPlayer(lambda t, s, side: plan(side, "A"), "a")

    def plan(side, team):
        outcome = outcomes[min(state["round"], len(outcomes)) - 1]
        if outcome == "T" or outcome == team:
            return ["none"] * 3
        return walk_off(0, None, side)

    return (Entrant("a", make_a),
            Entrant("b", lambda: ScriptedPlayer(lambda t, s, side: plan(side, "B"), "b")))


def play(outcomes: str, **config):
    a, b = scripted(outcomes)
    cfg = MatchConfig(maps=("Default",), **config)
    return run_match(a, b, MAPS, cfg, seed=42)


def tally(result):
    return result.wins["A"], result.wins["B"], result.ties


def test_early_stop_at_3_0() -> None:
    result = play("AAAAA")
    assert result.rounds_played == 3 and tally(result) == (3, 0, 0) and result.winner == "A"


def test_2_0_with_a_tie_continues() -> None:
    result = play("ATAAB")
    assert result.rounds_played == 4 and tally(result) == (3, 0, 1)


def test_2_2_1_plays_a_sixth_round_that_decides() -> None:
    result = play("ABABTB")
    assert result.rounds_played == 6 and result.winner == "B" and result.coin_toss is None


def test_ties_up_to_the_10_round_cap_go_to_the_coin_toss() -> None:
    result = play("ABTTTTTTTTTT")
    assert result.rounds_played == 10 and tally(result) == (1, 1, 8)
    assert result.coin_toss in ("A", "B") and result.winner == result.coin_toss


def test_max_rounds_caps_the_extra_rounds() -> None:
    result = play("ABTTTTTTTT", max_rounds=7)
    assert result.rounds_played == 7 and result.coin_toss is not None


def test_0_0_5_goes_to_the_coin_toss_at_once() -> None:
    result = play("TTTTTTTTTT")
    assert result.rounds_played == 5 and tally(result) == (0, 0, 5) and result.coin_toss
    without = play("TTTTTTTTTT", coin_toss_if_all_tied=False)
    assert without.rounds_played == 10 and without.coin_toss


def test_decided_rule() -> None:
    assert decided(3, 0, 5, 3) and not decided(2, 0, 5, 3) and decided(2, 0, 5, 4)
    assert not decided(0, 0, 5, 5)


@pytest.mark.parametrize("seed", [42, 7, 123456789])
def test_rng_draw_order_two_seeds_per_round_then_the_coin(seed) -> None:
    log: list = []
    a = entrant("a", IDLE, log)
    b = entrant("b", IDLE, log)
    result = run_match(a, b, MAPS, MatchConfig(rounds=3, maps=("Default",)), seed=seed)
    rng = SplitMix64(seed)
    expected = [rng.next64() for _ in range(6)]
    loads = [(entry[1], entry[2]) for entry in log if entry[0] == "load"]
    assert loads == [(t, s) for pair in zip(expected[0::2], expected[1::2]) for t, s in zip("ab", pair)]
    assert result.coin_toss == ("A" if rng.below(2) == 0 else "B")
    assert result.rounds[0].record["ai_seeds"] == {"A": expected[0], "B": expected[1]}


def test_seed_42_test_vector_gives_the_first_round_seeds() -> None:
    log: list = []
    run_match(entrant("a", IDLE, log), entrant("b", IDLE, log), MAPS, ONE, seed=42)
    assert [e[2] for e in log if e[0] == "load"] == [0xBDD732262FEB6E95, 0x28EFE333B266F103]


def test_sides_are_not_swapped_by_default_and_alternate_with_swap_sides() -> None:
    a, b = scripted("TTTTT")
    fixed = run_match(a, b, MAPS, MatchConfig(maps=("Default",)))
    assert [r.home for r in fixed.rounds] == ["A"] * 5
    a, b = scripted("TTTTT")
    swapped = run_match(a, b, MAPS, MatchConfig(maps=("Default",), swap_sides=True))
    assert [r.home for r in swapped.rounds] == ["A", "B", "A", "B", "A"]


def test_swapped_sides_credit_the_right_team() -> None:
    a, b = scripted("AAAAA")
    result = run_match(a, b, MAPS, MatchConfig(maps=("Default",), swap_sides=True))
    assert tally(result) == (3, 0, 0)
    assert [r.winner for r in result.rounds] == ["home", "away", "home"]


def test_map_rotation_cycles_through_extra_rounds() -> None:
    a, b = scripted("ABABTTB")
    result = run_match(a, b, MAPS, MatchConfig(maps=("Default", "Small")))
    assert [r.map for r in result.rounds] == ["Default", "Small"] * 3 + ["Default"]


def test_config_validation() -> None:
    with pytest.raises(ValueError):
        MatchConfig(rounds=4)
    with pytest.raises(ValueError):
        MatchConfig(rounds=5, max_rounds=3)
    with pytest.raises(ValueError):
        run_match(entrant("a", IDLE), entrant("b", IDLE), MAPS, MatchConfig(maps=("Nowhere",)))
    assert MatchConfig.from_json(MatchConfig().to_json()) == MatchConfig()


def test_the_away_team_wears_its_alternate_when_first_choices_clash() -> None:
    a = Entrant("a", lambda: ScriptedPlayer(IDLE), monster="bobo", alternate="pinky")
    b = Entrant("b", lambda: ScriptedPlayer(IDLE), monster="bobo", alternate="spike")
    result = run_match(a, b, MAPS, MatchConfig(rounds=3, maps=("Default",), swap_sides=True))
    assert [r.record["monsters"] for r in result.rounds] == [
        {"A": "bobo", "B": "spike"}, {"B": "bobo", "A": "pinky"}, {"A": "bobo", "B": "spike"}]


def test_a_result_s_tally_puts_the_winner_s_rounds_first() -> None:
    # "lookahead (B) wins 0–1–2" read as a loss.
    from studio.engines.haunted.match_data import tally

    assert tally({"A": 0, "B": 1}, 2, "B") == "1–0–2"
    assert tally({"A": 3, "B": 1}, 0, "A", "-") == "3-1-0"
    assert tally({"A": 0, "B": 1}, 0) == "0–1–0"  # no winner (aborted): home first
