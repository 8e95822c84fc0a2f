"""T5: RNG-independent successor sets equal the corpus ``successors/`` data."""

from __future__ import annotations

import pytest

from studio.engines.btree.runtime.engine import Program
from studio.engines.btree.runtime.oracle import Explorer, canonical, successors
from tests.btree.corpus import BTREE, corpus_dir, load_json
from tests.btree.trees import game, node, rewrite, set_board

FILES = sorted(p.name for p in (BTREE / "successors").glob("*.json")) if BTREE.exists() else ["(corpus absent)"]


def _views(data: dict) -> dict[str, str]:
    return {
        n["id"]: canonical({k: n[k] for k in ("board", "result", "choices")})
        for level in data["levels"]
        for n in level["nodes"]
    }


def _edges(data: dict) -> set:
    view = _views(data)
    return {(view[e["from"]], e["choice"], frozenset(view[t] for t in e["to"])) for e in data["edges"]}


@pytest.mark.parametrize("name", FILES)
def test_successor_sets_match_the_corpus(name: str) -> None:
    corpus_dir()
    want = load_json(f"successors/{name}")
    got = successors(Program(load_json(want["expanded"])), want["levels_requested"])
    assert len(got["levels"]) == len(want["levels"])
    for mine, theirs in zip(got["levels"], want["levels"]):
        assert mine["count"] == theirs["count"], f"level {theirs['level']}"
        assert set(_views({"levels": [mine]}).values()) == set(_views({"levels": [theirs]}).values())
    assert _edges(got) == _edges(want)


def test_oracle_covers_every_match_and_every_try_order() -> None:
    root = node("order", set_board("_ _ _"), node("random-try", rewrite("_", "A"), rewrite("_", "B")),
                node("player", rewrite("_", "P")))
    explorer = Explorer.for_game(game(root))
    boards = {tuple(explorer.view(text)["board"]["main"][0]) for text in explorer.explore(explorer.engine.snapshot())}
    expected = {tuple(t if i == k else "_" for i in range(3)) for t in "AB" for k in range(3)}
    assert boards == expected


def test_oracle_enumerates_rewrite_all_orders() -> None:
    root = node("order", set_board("A A A A"), rewrite("A A", "B B", kind="rewrite-all"), node("player", rewrite("B", "C")))
    explorer = Explorer.for_game(game(root))
    boards = {tuple(explorer.view(t)["board"]["main"][0]) for t in explorer.explore(explorer.engine.snapshot())}
    assert boards == {("B", "B", "B", "B"), ("A", "B", "B", "A")}
