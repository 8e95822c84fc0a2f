"""Any authored tree either compiles or raises BtreeError: never another exception (Decision 4)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.engines.btree import BtreeError, Game, compile_game
from studio.engines.btree.model.schema import ALL_TYPES, PARENT_TYPES

TILES = st.sampled_from(["A", "B", "_", ".", "←", "↑", "🦸", "", "a b"])


@st.composite
def grids(draw):
    rows, cols = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    return [[draw(TILES) for _ in range(cols)] for _ in range(rows)]


@st.composite
def patterns(draw):
    if draw(st.integers(0, 9)) == 0:  # sometimes malformed
        return draw(st.one_of(st.integers(), st.lists(st.lists(TILES, max_size=3), max_size=3)))
    first = draw(grids())
    layers = {"main": first}
    if draw(st.booleans()):
        layers[draw(st.sampled_from(["x", "1"]))] = [[draw(TILES) for _ in row] for row in first]
    return layers


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2, 3), st.floats(allow_nan=False), st.text(max_size=3),
                    st.lists(st.integers(0, 2), max_size=2))
TEXT = st.one_of(st.sampled_from(["A", "B", "a", ".", "(", "\\1", "[^]", "x|y", "←"]), SCALARS)
FIELDS = st.fixed_dictionaries(
    {"pattern": patterns(), "lhs": patterns(), "rhs": patterns(), "what": TEXT, "with": TEXT,
     "withs": st.lists(TEXT, max_size=3), "target": st.sampled_from(["n", "m", "zz"]), "file": st.just("f"),
     "layer": st.just("main")},
    optional={
        "pid": TEXT, "nid": st.sampled_from(["n", "m", ""]), "remorig": SCALARS, "times": SCALARS,
        "button": st.sampled_from(["left", "up", "action1", ""]),
    },
)


def _node(kind: str, fields: dict, kids: list, drop: list[str], flip: bool) -> dict:
    node = {"type": kind, **{k: v for k, v in fields.items() if k not in drop}}
    if (kind in PARENT_TYPES) != flip:
        node["children"] = kids
    return node


KINDS = st.sampled_from(sorted(ALL_TYPES))
DROPS = st.lists(st.sampled_from(["pattern", "lhs", "rhs", "what", "with", "withs", "target"]), max_size=1)
FLIPS = st.integers(0, 19).map(lambda n: n == 0)  # now and then children where they are not allowed
LEAVES = st.builds(_node, KINDS, FIELDS, st.just([]), DROPS, FLIPS)
TREES = st.recursive(LEAVES, lambda kids: st.builds(_node, KINDS, FIELDS, st.lists(kids, max_size=3), DROPS, FLIPS),
                     max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(TREES, st.sampled_from(["error", "empty"]))
def test_compile_raises_only_btree_errors(tree: dict, missing: str) -> None:
    included = {"type": "match", "nid": "n", "pattern": {"main": [["A"]]}}
    try:
        compiled = compile_game(Game(name="fuzz", tree=tree), missing_links=missing,
                                resolver=lambda file, key: ("f", included))
    except BtreeError as exc:
        assert exc.message
    else:
        assert compiled.nodes[0] is compiled.tree
        assert all(node["type"] not in ("x-link", "x-file", "x-ident", "x-unroll-replace") for node in compiled.nodes)
        assert len(compiled.origin) == len(compiled.nodes)
