"""T7: edge semantics of the stepper on small hand-written trees (§7)."""

from __future__ import annotations

import pytest

from studio.engines.btree.runtime.engine import STEP_LIMIT, Engine
from tests.btree.trees import game, node, pat, rewrite, set_board


def run(root: dict, seed: int = 0) -> Engine:
    engine = Engine(game(root))
    engine.seed(seed)
    engine.run_to_choice()
    return engine


def main(engine: Engine) -> list[list[str]]:
    return [list(row) for row in engine.board.layers["main"]]


def test_order_set_board_rewrite_costs_five_steps() -> None:
    engine = run(node("order", set_board("A"), rewrite("A", "B")))
    assert engine.result == {"result": "stalemate"}
    assert engine.step_count == 5
    assert main(engine) == [["B"]]


def test_loop_until_all_costs_three_steps_per_pass() -> None:
    engine = run(node("order", set_board("A A A"), node("loop-until-all", rewrite("A", "B"))))
    assert engine.step_count == 16
    assert main(engine) == [["B", "B", "B"]]


def test_single_steps_count_like_the_fast_path() -> None:
    root = node("order", set_board("A A A"), node("loop-until-all", rewrite("A", "B")))
    engine = Engine(game(root))
    events = []
    while engine.result is None:
        events.append(engine.step())
    assert engine.step_count == 16
    assert sum(e.counted for e in events) == 16
    assert events[0].node == 0 and not events[0].counted  # pushing the root is free
    assert events[-1].result == {"result": "stalemate"} and not events[-1].counted
    writes = [e for e in events if e.type == "rewrite" and e.returned]
    assert len(writes) == 3 and all(len(e.changed) == 1 for e in writes)
    assert any(e.board_replaced for e in events if e.type == "set-board")


@pytest.mark.parametrize("seed", range(12))
def test_rewrite_all_overlap_outcomes(seed: int) -> None:
    engine = run(node("order", set_board("A A A A"), rewrite("A A", "B B", kind="rewrite-all")), seed)
    assert main(engine) in ([["B", "B", "B", "B"]], [["A", "B", "B", "A"]])


def test_rewrite_all_reaches_both_outcomes_and_ignores_new_matches() -> None:
    outcomes = set()
    for seed in range(40):
        engine = run(node("order", set_board("A A A A"), rewrite("A A", "B B", kind="rewrite-all")), seed)
        outcomes.add(tuple(main(engine)[0]))
    assert outcomes == {("B", "B", "B", "B"), ("A", "B", "B", "A")}
    engine = run(node("order", set_board("A _ _ _"), rewrite("A _", "_ A", kind="rewrite-all")))
    assert main(engine) == [["_", "A", "_", "_"]]


@pytest.mark.parametrize(
    ("times", "expected"),
    [(3, True), (3.0, True), (2, False), (0, False), ("3", False), (None, False)],
)
def test_match_times_counts_overlapping_matches(times, expected) -> None:
    fields = {} if times is None else {"times": times}
    root = node("order", set_board("A A A A"), node("win", node("match-times", pattern=pat("A A"), **fields)))
    engine = run(root)
    assert (engine.result == {"result": "win"}) is expected


def test_match_times_zero_means_absent_and_is_true_on_no_board() -> None:
    engine = run(node("win", node("match-times", pattern=pat("Z"), times=0)))
    assert engine.result == {"result": "win"}
    engine = run(node("order", set_board("A"), node("lose", node("match-times", pattern=pat("Z"), times=0))))
    assert engine.result == {"result": "lose"}


def test_append_rows_and_columns_cycle_the_pattern() -> None:
    engine = run(node("order", set_board("a b c d e"), node("append-rows", pattern=pat("x y"))))
    assert main(engine) == [["a", "b", "c", "d", "e"], ["x", "y", "x", "y", "x"]]
    engine = run(node("order", set_board("a; b; c"), node("append-columns", pattern=pat("1 2; 3 4"))))
    assert main(engine) == [["a", "1", "2"], ["b", "3", "4"], ["c", "1", "2"]]
    assert (engine.rows, engine.cols) == (3, 3)


def test_append_without_a_board_copies_and_layer_set_mismatch_fails() -> None:
    engine = run(node("order", node("append-rows", pattern=pat("x y"))))
    assert main(engine) == [["x", "y"]]
    root = node("order", set_board("a b"), node("win", node("append-rows", pattern=pat(main="x", top="y"))))
    engine = run(root)
    assert engine.result == {"result": "stalemate"}  # the append returned False
    assert list(engine.board.layers) == ["main"] and engine.rows == 1


def test_layer_template_keeps_voids_and_layer_order() -> None:
    root = node(
        "order",
        set_board(main=". a; b .", top="t t; t t"),
        node("layer-template", layer="top", **{"with": "_"}),
        node("layer-template", layer="new", **{"with": "n"}),
    )
    engine = run(root)
    layers = engine.board.layers
    assert list(layers) == ["main", "top", "new"]
    assert layers["top"] == ((".", "_"), ("_", "."))
    assert layers["new"] == ((".", "n"), ("n", "."))


def test_empty_root_is_a_stalemate_after_one_step() -> None:
    engine = run(node("order"))
    assert engine.result == {"result": "stalemate"}
    assert engine.step_count == 1


def test_loop_times_zero_steps_out() -> None:
    engine = run(node("order", set_board("A"), node("loop-times", node("match", pattern=pat("A")), times=0)))
    assert engine.result == {"result": "stepout"}
    assert engine.step_count == STEP_LIMIT


def test_loop_times_counts_passes() -> None:
    engine = run(node("order", set_board("A A A A"), node("loop-times", rewrite("A", "B"), times=3)))
    assert engine.result == {"result": "stalemate"}
    assert sorted(main(engine)[0]) == ["A", "B", "B", "B"]


def test_player_without_choices_fails_without_waiting() -> None:
    root = node("order", set_board("A"), node("lose", node("none", node("player", rewrite("Z", "Y"), pid=1))))
    engine = run(root)
    assert engine.result == {"result": "lose"}
    assert engine.waiting is None


def test_choices_are_deduplicated_and_buttons_map_to_the_last_choice() -> None:
    root = node(
        "order",
        set_board("_ _"),
        node(
            "player",
            rewrite("_", "X"),
            rewrite("_", "X"),  # identical: collapses into the first child's choices
            rewrite("_", "X", button="left"),  # differs only in the button: kept
            rewrite("_", "X", button=""),
            node("match", pattern=pat("_")),  # not a rewrite: ignored
            rewrite("_", "Y", mouse=False),
            pid="P",
        ),
    )
    engine = run(root)
    assert engine.waiting == "choice" and engine.choice_player == "P"
    assert [(c.row, c.col, c.button, c.mouse) for c in engine.choices] == [
        (0, 0, None, None), (0, 1, None, None),
        (0, 0, "left", None), (0, 1, "left", None),
        (0, 0, "", None), (0, 1, "", None),
        (0, 0, None, False), (0, 1, None, False),
    ]
    assert engine.choices_by_button == {"left": 3, "": 5}
    assert engine.choices_by_rect == {(0, 0, 1, 1): [0, 2, 4], (0, 1, 1, 1): [1, 3, 5]}


def test_choose_writes_immediately_and_the_player_costs_two_steps() -> None:
    engine = run(node("order", set_board("_ _"), node("player", rewrite("_", "X"), pid="P")))
    assert engine.step_count == 4  # order, set-board, order, player (call 1)
    engine.choose(1)
    assert main(engine) == [["_", "X"]] and engine.step_count == 0
    engine.run_to_choice()
    assert engine.result == {"result": "stalemate"}
    assert engine.step_count == 2  # player (call 2), order (returns)


def test_display_wait_and_clear() -> None:
    engine = Engine(game(node("order", set_board("A"), node("display-board", delay=0.5), rewrite("A", "B"))))
    assert engine.run_to_wait() == "display" and engine.display_delay == 0.5
    assert engine.step().node is None  # nothing runs while waiting
    engine.clear_display(reset=False)
    engine.run_to_wait()
    assert engine.result == {"result": "stalemate"} and main(engine) == [["B"]]
    assert engine.step_count == 8


def test_win_lose_draw_results() -> None:
    # No board: the match fails; an empty `none` is True and ends the game.
    assert run(node("win", node("match", pattern=pat("A")), node("none"), pid=2)).result == {
        "result": "win", "player": 2}
    assert run(node("draw", node("order"), node("all"))).result == {"result": "draw"}
    # Children may change the board before the game ends; the frame stays on the stack.
    engine = run(node("order", set_board("A"), node("lose", rewrite("A", "B"), pid="1")))
    assert engine.result == {"result": "lose", "player": "1"} and main(engine) == [["B"]]
    assert engine.path() == [0, 2]


def test_missing_layer_in_lhs_never_matches() -> None:
    engine = run(node("order", set_board("A"), node("win", node("match", pattern=pat(main="A", top="x")))))
    assert engine.result == {"result": "stalemate"}
    engine = run(node("order", set_board("A"), node("win", node("match", pattern=pat(main="A", top=".")))))
    assert engine.result == {"result": "win"}


@pytest.mark.parametrize(
    "bad",
    [
        rewrite("A", {"top": [["x"]]}),
        rewrite("A", {"top": [["x"]]}, kind="rewrite-all"),
        node("layer-template", layer="top", **{"with": "_"}),
    ],
)
def test_run_time_errors_leave_the_board_unchanged(bad: dict) -> None:
    if bad["type"] == "layer-template":
        root = node("order", set_board(other="A"), bad)
    else:
        root = node("order", set_board("A"), bad)
    engine = run(root)
    assert engine.result["result"] == "error"
    assert engine.result["node"] == 2 and "node 2" in engine.result["message"]
    assert engine.board.layers == {("main" if bad["type"] != "layer-template" else "other"): (("A",),)}


def test_layer_template_without_board_is_an_error_and_step_never_raises() -> None:
    engine = Engine(game(node("order", node("layer-template", layer="top", **{"with": "_"}))))
    events = [engine.step() for _ in range(5)]
    assert engine.result["result"] == "error" and "no board" in engine.result["message"]
    assert engine.board is None
    assert events[-1].node is None


def test_chosen_rhs_on_a_missing_layer_is_an_error() -> None:
    engine = run(node("order", set_board("_"), node("player", rewrite("_", {"top": [["X"]]}))))
    engine.choose(0)
    assert engine.result["result"] == "error"
    assert main(engine) == [["_"]]


def test_random_try_tries_children_in_shuffled_order_until_one_passes() -> None:
    seen = set()
    for seed in range(20):
        root = node("order", set_board("_"), node("random-try", rewrite("_", "A"), rewrite("_", "B"), rewrite("_", "C")))
        seen.add(main(run(root, seed))[0][0])
    assert seen == {"A", "B", "C"}
    engine = run(node("order", set_board("_"), node("win", node("random-try", rewrite("Z", "A"), rewrite("Y", "B")))))
    assert engine.result == {"result": "stalemate"}


def test_api_misuse_raises() -> None:
    engine = run(node("order", set_board("_"), node("player", rewrite("_", "X"))))
    with pytest.raises(IndexError):
        engine.choose(5)
    with pytest.raises(ValueError):
        engine.clear_display()
    engine.choose(0)
    with pytest.raises(ValueError):
        engine.choose(0)


def test_set_board_injects_a_board_for_gameloop_trees() -> None:
    engine = Engine(game(node("order", node("player", rewrite("_", "X")))))
    engine.set_board({"main": [["_", "A"]]})
    assert engine.run_to_choice() == "choice"
    assert [(c.row, c.col) for c in engine.choices] == [(0, 0)]


def test_step_action_stops_after_a_tile_node() -> None:
    engine = Engine(game(node("order", set_board("A"), node("all", rewrite("A", "B"), rewrite("B", "C")))))
    events = engine.step_action()
    assert [e.type for e in events] == ["order", "order", "set-board"]
    events = engine.step_action()
    assert [e.type for e in events] == ["order", "all", "rewrite"] and events[-1].changed == (("main", 0, 0),)


def test_malformed_nodes_fail_when_they_run_not_when_loaded() -> None:
    engine = Engine(game(node("order", set_board("A"), node("rewrite", lhs=pat("A")), node("match", pattern=5))))
    engine.run_to_choice()
    assert engine.result["result"] == "error" and engine.result["node"] == 2
    assert "rhs" in engine.result["message"]
    assert engine.board.layers == {"main": (("A",),)}
    engine = run(node("order", node("bogus")))
    assert engine.result["result"] == "error" and "bogus" in engine.result["message"]
