"""Structure edits of authored trees (spec §11.2): exact results, structural sharing, refusals."""

from __future__ import annotations

import copy

import pytest

from studio.engines.btree.compiling.checks import check_tree
from studio.engines.btree.editing.tree_edit import (
    OPERATIONS,
    PLAYER_CHILD_TYPES,
    TYPE_ORDER,
    EditError,
    Refusal,
    add_child,
    allowed_child_types,
    can,
    copy_subtree,
    delete_and_reparent,
    delete_children,
    delete_node,
    delete_subtree,
    insert_above,
    insert_below,
    insertable_types,
    misplaced,
    move,
    new_node,
    node_at,
    paste,
    swap_with_parent,
    walk,
)

A = {"main": [["A"]]}
B = {"main": [["B"]]}


def make_tree() -> dict:
    """order[set-board, loop#loop[player A[rewrite step, x-spin[rewrite push]], win A[match]], display]"""
    return {"type": "order", "comment": "Root of it all", "children": [
        {"type": "set-board", "pattern": {"main": [["_", "_"]]}},
        {"type": "loop-until-all", "nid": "loop", "children": [
            {"type": "player", "pid": "A", "children": [
                {"type": "rewrite", "desc": "step", "lhs": A, "rhs": B},
                {"type": "x-spin", "children": [{"type": "rewrite", "desc": "push", "lhs": B, "rhs": A}]},
            ]},
            {"type": "win", "pid": "A", "children": [{"type": "match", "pattern": B}]},
        ]},
        {"type": "display-board", "delay": 0.5, "comment": "show the LOOP"},
    ]}


@pytest.fixture
def tree() -> dict:
    return make_tree()


def types(node: dict) -> list:
    """The tree's shape as nested [type, [children…]] lists."""
    kids = node.get("children")
    return [node["type"], [types(c) for c in kids]] if kids is not None else node["type"]


# ------------------------------------------------------------------------------------- additions


def test_add_child_first_and_last_copy_only_the_path(tree: dict) -> None:
    before = copy.deepcopy(tree)
    new, sel = add_child(tree, (1,), new_node("draw"))
    assert sel == (1, 2)
    assert types(new)[1][1] == ["loop-until-all", [*types(tree)[1][1][1], ["draw", []]]]
    assert tree == before  # the input is unchanged
    assert new is not tree and new["children"] is not tree["children"]
    assert new["children"][1] is not tree["children"][1]
    assert new["children"][0] is tree["children"][0] and new["children"][2] is tree["children"][2]
    assert new["children"][1]["children"][0] is tree["children"][1]["children"][0]
    first, sel = add_child(tree, (1,), new_node("draw"), first=True)
    assert sel == (1, 0) and node_at(first, (1, 0))["type"] == "draw"
    assert node_at(first, (1, 1)) is node_at(tree, (1, 0))
    assert list(new) == list(tree)  # key order kept on copied nodes


def test_add_child_copies_the_given_node(tree: dict) -> None:
    node = new_node("order")
    new, sel = add_child(tree, (), node)
    assert node_at(new, sel) == node and node_at(new, sel) is not node


def test_add_child_refusals(tree: dict) -> None:
    with pytest.raises(EditError, match="leaf"):
        add_child(tree, (0,), new_node("order"))
    with pytest.raises(EditError, match="player accepts only rewrite"):
        add_child(tree, (1, 0), new_node("match"))
    with pytest.raises(EditError, match="player accepts only"):
        add_child(tree, (1, 0, 1), new_node("x-link"))  # an x-spin under a player passes the rule on
    with pytest.raises(EditError, match="known type"):
        add_child(tree, (), {"type": "bogus"})
    new, sel = add_child(tree, (1, 0), new_node("x-mirror"))
    assert sel == (1, 0, 2)
    with pytest.raises(EditError, match="player accepts only"):
        add_child(tree, (1, 0, 1), new_node("rewrite-all"))
    new, sel = add_child(tree, (1, 0, 1), new_node("rewrite"), first=True)
    assert sel == (1, 0, 1, 0) and node_at(new, (1, 0, 1, 1))["desc"] == "push"


def test_player_children_allowed_types(tree: dict) -> None:
    rule = ("x-ident", "x-prune", "x-mirror", "x-flip", "x-skew", "x-rotate", "x-spin", "x-swap", "x-replace")
    assert allowed_child_types(tree, (1, 0)) == ("rewrite", *rule)
    assert set(PLAYER_CHILD_TYPES) == {"rewrite", *rule}
    assert allowed_child_types(tree, (1, 0, 1)) == allowed_child_types(tree, (1, 0))
    assert allowed_child_types(tree, (1,)) == TYPE_ORDER
    assert allowed_child_types(tree, (0,)) == ()
    for kind in ("rewrite-all", "x-unroll-replace", "x-link", "x-file", "player", "order", "match"):
        with pytest.raises(EditError):
            add_child(tree, (1, 0), new_node(kind))
    for kind in rule + ("rewrite",):
        add_child(tree, (1, 0), new_node(kind))


def test_the_type_lists_offer_exactly_what_each_add_accepts(tree: dict) -> None:
    # The editor's type list: n on a leaf offered an empty list, O inside a player every type
    # (then refused most of them).
    assert insertable_types(tree, (0,), "last") == ()  # a leaf
    assert insertable_types(tree, (1, 0), "last") == allowed_child_types(tree, (1, 0))
    above = insertable_types(tree, (1, 0, 0), "above")  # a rewrite under the player
    assert above and set(above) <= PLAYER_CHILD_TYPES and "rewrite" not in above
    assert "x-mirror" in above and "order" not in above
    for where in ("first", "last", "above", "below"):
        for path in ((), (1,), (1, 0), (1, 0, 0), (0,)):
            offered = insertable_types(tree, path, where)
            for kind in TYPE_ORDER:
                node = new_node(kind)
                edit = {"first": lambda: add_child(tree, path, node, first=True),
                        "last": lambda: add_child(tree, path, node),
                        "above": lambda: insert_above(tree, path, node),
                        "below": lambda: insert_below(tree, path, node)}[where]
                try:
                    edit()
                except EditError:
                    assert kind not in offered, (where, path, kind)
                else:
                    assert kind in offered, (where, path, kind)


def test_insert_above(tree: dict) -> None:
    before = copy.deepcopy(tree)
    new, sel = insert_above(tree, (1, 1), new_node("all"))
    assert sel == (1, 1)
    assert node_at(new, (1, 1)) == {"type": "all", "children": [tree["children"][1]["children"][1]]}
    assert node_at(new, (1, 1, 0)) is node_at(tree, (1, 1))
    assert node_at(new, (1, 0)) is node_at(tree, (1, 0)) and new["children"][0] is tree["children"][0]
    assert tree == before
    root, sel = insert_above(tree, (), new_node("order"))
    assert sel == () and root["children"] == [tree] and root["children"][0] is tree
    with pytest.raises(EditError, match="leaf"):
        insert_above(tree, (1,), new_node("match"))
    with pytest.raises(EditError, match="no children of its own"):
        insert_above(tree, (1,), {"type": "order", "children": [new_node("draw")]})


def test_insert_above_obeys_the_player_rule(tree: dict) -> None:
    with pytest.raises(EditError, match="player accepts only"):
        insert_above(tree, (1, 0, 0), new_node("order"))  # an order under the player
    with pytest.raises(EditError, match="player accepts only"):
        insert_above(tree, (1, 1, 0), new_node("player"))  # a match under a new player
    new, _ = insert_above(tree, (1, 0, 0), new_node("x-mirror"))
    assert types(node_at(new, (1, 0))) == ["player", [["x-mirror", ["rewrite"]], ["x-spin", ["rewrite"]]]]
    new, _ = insert_above(tree, (1, 0), new_node("x-ident"))  # the player itself may move under a transform
    assert types(node_at(new, (1, 0)))[0] == "x-ident"


def test_insert_below_adopts_the_children(tree: dict) -> None:
    before = copy.deepcopy(tree)
    new, sel = insert_below(tree, (1, 0), new_node("x-flip"))
    assert sel == (1, 0, 0)
    assert types(node_at(new, (1, 0))) == ["player", [["x-flip", ["rewrite", ["x-spin", ["rewrite"]]]]]]
    assert node_at(new, (1, 0, 0, 0)) is node_at(tree, (1, 0, 0))
    assert node_at(new, (1, 1)) is node_at(tree, (1, 1))
    assert tree == before
    with pytest.raises(EditError, match="leaf"):
        insert_below(tree, (0,), new_node("order"))
    with pytest.raises(EditError, match="leaf"):
        insert_below(tree, (1,), new_node("match"))
    with pytest.raises(EditError, match="player accepts only"):
        insert_below(tree, (1, 0), new_node("all"))
    with pytest.raises(EditError, match="player accepts only"):
        insert_below(tree, (1, 1), new_node("player"))  # the win's match would go under a player
    empty, sel = insert_below({"type": "order", "children": []}, (), new_node("all"))
    assert empty == {"type": "order", "children": [{"type": "all", "children": []}]} and sel == (0,)


# ----------------------------------------------------------------------------------------- moves


def test_move_among_siblings(tree: dict) -> None:
    before = copy.deepcopy(tree)
    new, sel = move(tree, (1,), -1)
    assert sel == (0,) and [c["type"] for c in new["children"]] == ["loop-until-all", "set-board", "display-board"]
    assert new["children"][0] is tree["children"][1]
    new, sel = move(tree, (0,), 2)
    assert sel == (2,) and [c["type"] for c in new["children"]] == ["loop-until-all", "display-board", "set-board"]
    assert tree == before
    with pytest.raises(EditError, match="already the first"):
        move(tree, (0,), -1)
    with pytest.raises(EditError, match="already the last"):
        move(tree, (2,), 1)
    with pytest.raises(EditError, match="root"):
        move(tree, (), 1)


def test_swap_with_parent(tree: dict) -> None:
    before = copy.deepcopy(tree)
    new, sel = swap_with_parent(tree, (1, 0, 1))  # x-spin up over the player
    assert sel == (1, 0)
    upper = node_at(new, (1, 0))
    assert {k: v for k, v in upper.items() if k != "children"} == {"type": "x-spin"}
    assert upper["children"][0] is node_at(tree, (1, 0, 0))
    lower = upper["children"][1]
    assert {k: v for k, v in lower.items() if k != "children"} == {"type": "player", "pid": "A"}
    assert lower["children"] is node_at(tree, (1, 0, 1))["children"]
    assert node_at(new, (1, 1)) is node_at(tree, (1, 1))
    assert tree == before
    with pytest.raises(EditError, match="root"):
        swap_with_parent(tree, ())
    with pytest.raises(EditError, match="leaf"):
        swap_with_parent(tree, (1, 1, 0))
    with pytest.raises(EditError, match="player accepts only"):
        swap_with_parent(tree, (1, 0))  # the loop would go under the player


def test_swap_keeps_the_field_order() -> None:
    tree = {"type": "order", "nid": "o", "children": [{"comment": "c", "type": "all", "children": []}]}
    new, _ = swap_with_parent(tree, (0,))
    assert list(new) == ["comment", "type", "children"] and list(new["children"][0]) == ["type", "nid", "children"]


# --------------------------------------------------------------------------------------- deletes


def test_delete_node_and_the_selection_after(tree: dict) -> None:
    before = copy.deepcopy(tree)
    new, sel = delete_node(tree, (0,))
    assert sel == (0,) and [c["type"] for c in new["children"]] == ["loop-until-all", "display-board"]
    assert new["children"][0] is tree["children"][1]
    new, sel = delete_node(tree, (2,))
    assert sel == (1,)  # no next sibling: the previous one
    new, sel = delete_node(tree, (1, 1, 0))
    assert sel == (1, 1) and node_at(new, (1, 1))["children"] == []  # an only child: the parent
    assert tree == before
    with pytest.raises(EditError, match="has children"):
        delete_node(tree, (1,))
    with pytest.raises(EditError, match="root"):
        delete_node({"type": "order", "children": []}, ())
    new, _ = delete_node(delete_children(tree, (1, 1))[0], (1, 1))  # an empty control node is deletable
    assert [c["type"] for c in node_at(new, (1,))["children"]] == ["player"]


def test_delete_subtree_and_children(tree: dict) -> None:
    new, sel = delete_subtree(tree, (1, 0))
    assert sel == (1, 0) and types(node_at(new, (1,))) == ["loop-until-all", [["win", ["match"]]]]
    with pytest.raises(EditError, match="root"):
        delete_subtree(tree, ())
    new, sel = delete_children(tree, (1,))
    assert sel == (1,) and node_at(new, (1,)) == {"type": "loop-until-all", "nid": "loop", "children": []}
    assert new["children"][0] is tree["children"][0]
    with pytest.raises(EditError, match="leaf"):
        delete_children(tree, (0,))
    with pytest.raises(EditError, match="no children"):
        delete_children(new, (1,))


def test_delete_and_reparent(tree: dict) -> None:
    before = copy.deepcopy(tree)
    new, sel = delete_and_reparent(tree, (1,))
    assert sel == (1,)
    assert [c["type"] for c in new["children"]] == ["set-board", "player", "win", "display-board"]
    assert new["children"][1] is node_at(tree, (1, 0)) and new["children"][3] is tree["children"][2]
    new, sel = delete_and_reparent(tree, (1, 0, 1))  # the x-spin's rewrite moves up into the player
    assert [c.get("desc") for c in node_at(new, (1, 0))["children"]] == ["step", "push"]
    assert tree == before
    with pytest.raises(EditError, match="no children"):
        delete_and_reparent(tree, (0,))
    with pytest.raises(EditError, match="one root"):
        delete_and_reparent(tree, ())
    root, sel = delete_and_reparent({"type": "x-ident", "children": [tree]}, ())
    assert root is tree and sel == ()


def test_reparent_refuses_children_a_player_does_not_accept() -> None:
    # A hand-written file can hold what the editor never makes: x-ident[match] under a player.
    tree = {"type": "player", "children": [{"type": "x-ident", "children": [{"type": "match", "pattern": A}]}]}
    assert misplaced(tree) == [(0, 0)]
    assert misplaced(make_tree()) == []
    with pytest.raises(EditError, match="player accepts only"):
        delete_and_reparent(tree, (0,))
    new, _ = delete_subtree(tree, (0,))  # deleting is always possible
    assert new == {"type": "player", "children": []}


# ----------------------------------------------------------------------------- copy and paste


def test_copy_and_paste_everywhere(tree: dict) -> None:
    clip = copy_subtree(tree, (1, 1))
    assert clip == node_at(tree, (1, 1)) and clip is not node_at(tree, (1, 1))
    assert clip["children"][0] is not node_at(tree, (1, 1, 0))
    last, sel = paste(tree, (), clip)
    assert sel == (3,) and node_at(last, sel) == clip
    first, sel = paste(tree, (), clip, "first")
    assert sel == (0,) and first["children"][1] is tree["children"][0]
    before, sel = paste(tree, (1, 0), clip, "before")
    assert sel == (1, 0) and types(node_at(before, (1,)))[1] == [["win", ["match"]], types(node_at(tree, (1, 0))),
                                                                 ["win", ["match"]]]
    after, sel = paste(tree, (0,), clip, "after")
    assert sel == (1,) and [c["type"] for c in after["children"]] == ["set-board", "win", "loop-until-all",
                                                                      "display-board"]
    twice, _ = paste(last, (), clip)
    assert twice["children"][3] == twice["children"][4] and twice["children"][3] is not twice["children"][4]
    with pytest.raises(EditError, match="root"):
        paste(tree, (), clip, "before")
    with pytest.raises(EditError, match="player accepts only"):
        paste(tree, (1, 0), clip)
    with pytest.raises(EditError, match="player accepts only"):
        paste(tree, (1, 0, 0), clip, "after")
    with pytest.raises(EditError, match="paste where"):
        paste(tree, (), clip, "inside")
    with pytest.raises(EditError, match="leaf"):
        paste(tree, (0,), clip)


OPS = [
    lambda t: add_child(t, (1,), new_node("draw")),
    lambda t: insert_above(t, (1, 1), new_node("all")),
    lambda t: insert_below(t, (1, 0), new_node("x-mirror")),
    lambda t: move(t, (1, 1), -1),
    lambda t: swap_with_parent(t, (1, 0, 1)),
    lambda t: delete_node(t, (2,)),
    lambda t: delete_subtree(t, (1, 0)),
    lambda t: delete_children(t, (1,)),
    lambda t: delete_and_reparent(t, (1,)),
    lambda t: paste(t, (1, 0), copy_subtree(t, (1, 0, 0)), "first"),
    lambda t: paste(t, (1, 1, 0), copy_subtree(t, (0,)), "after"),
]


@pytest.mark.parametrize("op", OPS)
def test_every_operation_leaves_its_input_alone_and_shares_the_rest(op) -> None:
    tree = make_tree()
    before = copy.deepcopy(tree)
    ids = {id(node) for _, node in walk(tree)}
    new, sel = op(tree)
    assert tree == before
    node_at(new, sel)
    check_tree(new)
    fresh = [node for _, node in walk(new) if id(node) not in ids]
    assert len(fresh) <= 4  # the path from the root (and the new node), never the whole tree
    assert new["children"][0] is tree["children"][0]  # the set-board is never on the edited path


# ----------------------------------------------------------------------------------------- menus


def test_can_answers_true_or_a_falsy_reason(tree: dict) -> None:
    assert can("delete_subtree", tree, (1,)) is True
    refusal = can("delete_subtree", tree, ())
    assert isinstance(refusal, Refusal) and not refusal and "root" in refusal.reason
    assert can("add_last", tree, (1, 0), "rewrite") is True
    assert "player accepts only" in can("add_last", tree, (1, 0), "match").reason
    assert can("add_first", tree, (1, 0)) is True  # some type fits
    assert not can("add_first", tree, (0,))
    assert not can("insert_below", tree, (0,))
    assert can("insert_above", tree, (0,)) is True
    assert not can("move_earlier", tree, (0,)) and can("move_later", tree, (0,)) is True
    assert "nothing to paste" in can("paste_last", tree, ()).reason
    assert can("paste_last", tree, (), copy_subtree(tree, (0,))) is True
    assert not can("swap_with_parent", tree, (1, 1, 0))
    assert not can("bogus", tree, ())
    assert can("copy_subtree", tree, (1,)) is True
    assert not can("delete_node", tree, (1,)) and can("delete_node", tree, (2,)) is True
    assert "unknown node type" in can("add_last", tree, (), "bogus").reason
    assert set(OPERATIONS) >= {"add_first", "add_last", "insert_above", "insert_below", "move_earlier",
                               "move_later", "swap_with_parent", "delete_node", "delete_subtree",
                               "delete_children", "delete_and_reparent", "paste_last"}
