"""The fast matcher returns exactly the reference matcher's row-major match lists."""

from __future__ import annotations

import json
import time
from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.engines.btree.runtime import match
from studio.engines.btree.runtime.boardstate import BoardState
from studio.engines.btree.runtime.engine import Program
from studio.engines.btree.runtime.fastmatch import build_index
from studio.engines.btree.runtime.pattern import Pattern
from tests.btree.corpus import corpus_dir, load_json, read_jsonl, trace_files

BOARDS_PER_GAME = 3
PATTERNS_PER_GAME = 300  # rust-old has 6 000: a spread sample keeps the test quick


def _fast(layers: dict, pat: Pattern) -> list[tuple[int, int]]:
    state = BoardState()
    state.load(layers)
    return state.find(pat)


def _games_with_boards() -> dict[str, list[dict]]:
    """Expanded file → a sample of distinct boards from its traces (spread over the run)."""
    root = corpus_dir()
    boards: dict[str, dict[str, dict]] = defaultdict(dict)
    for name in trace_files():
        lines = read_jsonl(root / "traces" / name)
        for line in lines[1:]:
            if line.get("board"):
                boards[lines[0]["expanded"]][json.dumps(line["board"], sort_keys=True)] = line["board"]
    sample = {}
    for expanded, found in boards.items():
        distinct = list(found.values())
        step = max(1, len(distinct) // BOARDS_PER_GAME)
        sample[expanded] = distinct[::step][:BOARDS_PER_GAME] + distinct[-1:]
    return sample


def test_fast_equals_reference_on_every_corpus_game() -> None:
    compared = 0
    for expanded, boards in _games_with_boards().items():
        program = Program(load_json(expanded))
        patterns = list({id(p): p for node in program.nodes for p in node.patterns.values()}.values())
        patterns = patterns[:: max(1, len(patterns) // PATTERNS_PER_GAME)]
        for board in boards:
            first = next(iter(board.values()))
            rows, cols = len(first), len(first[0]) if first else 0
            state = BoardState()
            state.load(board)
            for pat in patterns:
                want = match.find(board, rows, cols, pat.source)
                assert state.find(pat) == want, (expanded, pat.source)
                compared += 1
    assert compared > 5_000, compared


TILES = st.sampled_from(["_", "A", "B", "📦", "P>", "."])


@st.composite
def board_and_pattern(draw):
    rows, cols = draw(st.integers(0, 6)), draw(st.integers(1, 6))
    names = draw(st.lists(st.sampled_from(["main", "top", "x"]), min_size=1, max_size=3, unique=True))
    board = {n: [[draw(TILES) for _ in range(cols)] for _ in range(rows)] for n in names}
    pr, pc = draw(st.integers(0, 3)), draw(st.integers(1, 3))
    pnames = draw(st.lists(st.sampled_from(["main", "top", "x", "missing"]), min_size=1, max_size=3, unique=True))
    pattern = {n: [[draw(TILES) for _ in range(pc)] for _ in range(pr)] for n in pnames}
    return board, pattern


@settings(max_examples=400)
@given(board_and_pattern())
def test_fast_equals_reference_on_generated_boards(case) -> None:
    board, pattern = case
    first = next(iter(board.values()))
    rows, cols = len(first), len(first[0]) if first else 0
    assert _fast(board, Pattern(pattern)) == match.find(board, rows, cols, pattern)


@settings(max_examples=200)
@given(board_and_pattern(), st.data())
def test_index_stays_exact_after_writes(case, data) -> None:
    board, pattern = case
    state = BoardState()
    state.load(board)
    pat = Pattern(pattern)
    state.find(pat)  # builds the index, which the writes below must keep up to date
    for _ in range(data.draw(st.integers(0, 4))):
        rhs = {n: [[data.draw(TILES) for _ in range(pat.cols)] for _ in range(pat.rows)] for n in board}
        rp = Pattern(rhs)
        if rp.rows == 0 or rp.rows > state.rows or rp.cols > state.cols:
            break
        r = data.draw(st.integers(0, state.rows - rp.rows))
        c = data.draw(st.integers(0, state.cols - rp.cols))
        state.write(rp, r, c)
    layers = {n: list(g) for n, g in state.layers.items()}
    assert state.find(pat) == match.find(layers, state.rows, state.cols, pattern)
    assert build_index(state.layers, state.cols) == {
        n: {t: cells for t, cells in by.items() if cells} for n, by in state._index.items()
    }


def test_reference_rules_by_example() -> None:
    board = {"main": [["A", "A", "A", "A"]], "top": [[".", "x", ".", "."]]}
    assert match.find(board, 1, 4, {"main": [["A", "A"]]}) == [(0, 0), (0, 1), (0, 2)]
    # A `.` in the pattern skips the cell; a void board cell is matched only by `.`.
    assert match.find(board, 1, 4, {"top": [[".", "x"]]}) == [(0, 0)]
    assert match.find(board, 1, 4, {"top": [["."]], "main": [["A"]]}) == [(0, c) for c in range(4)]
    # A checked layer the board lacks: no match; an all-`.` layer is never checked.
    assert match.find(board, 1, 4, {"main": [["A"]], "gone": [["B"]]}) == []
    assert match.find(board, 1, 4, {"main": [["A"]], "gone": [["."]]}) == [(0, c) for c in range(4)]
    assert match.find(board, 0, 0, {"main": [["A"]]}) == []
    assert match.find(board, 1, 4, {"main": []}) == []
    for pattern in ({"main": [["A", "A"]]}, {"top": [[".", "x"]]}, {"main": [["A"]], "gone": [["."]]}):
        assert _fast(board, Pattern(pattern)) == match.find(board, 1, 4, pattern)


def test_choice_enumeration_on_the_largest_block_dude_board_is_fast() -> None:
    root = corpus_dir()
    best = None
    for path in sorted((root / "expanded").glob("games_yaml__blockdude_levels__blockdude_*.json")):
        program = Program(json.loads(path.read_text(encoding="utf-8")))
        player = next(n for n in program.nodes if n.type == "player")
        rewrites = [program.nodes[c].patterns["lhs"] for c in player.children]
        lines = read_jsonl(root / "traces" / (path.stem + ".a.jsonl"))
        board = next(line["board"] for line in lines if line["type"] == "choice")
        size = sum(len(g) * len(g[0]) for g in board.values())
        if best is None or size > best[0]:
            best = (size, board, rewrites)
    _, board, rewrites = best
    state = BoardState()
    state.load(board)
    for lhs in rewrites:  # warm the index
        state.find(lhs)
    start = time.perf_counter()
    for _ in range(20):
        for lhs in rewrites:
            state.find(lhs)
    per_enumeration = (time.perf_counter() - start) / 20
    assert len(rewrites) >= 100
    assert per_enumeration < 0.005, f"{per_enumeration * 1000:.2f} ms"
