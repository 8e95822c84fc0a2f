"""Calls of the tile nodes (§7.5) and of the player node (§7.6), one closure per node."""

from __future__ import annotations

from typing import Any, Callable

from studio.engines.btree.runtime.boardstate import RunError
from studio.engines.btree.runtime.choice import Choice
from studio.engines.btree.runtime.nodes import Node, is_number
from studio.engines.btree.runtime.pattern import Pattern
from studio.engines.btree.runtime.stepper import Stepper

Call = Callable[[list, "bool | None"], "bool | None"]


def _pattern(node: Node, name: str) -> Pattern:
    pat = node.patterns.get(name)
    if pat is None:
        raise RunError(f"{node.type} has no {name} pattern")
    return pat


def make_tile(eng: Stepper, node: Node) -> Call:
    """The call function of tile node ``node`` (a node missing a field fails when it runs)."""
    try:
        return _make_tile(eng, node)
    except RunError as exc:
        message = str(exc)

        def call(f: list, prev: bool | None) -> bool | None:
            raise RunError(message)

        return call


def _make_tile(eng: Stepper, node: Node) -> Call:
    kind = node.type
    if kind == "match":
        pat = _pattern(node, "pattern")

        def call(f: list, prev: bool | None) -> bool | None:
            return bool(eng._board.find(pat))

    elif kind == "match-times":
        pat = _pattern(node, "pattern")
        times = node.get("times")
        if not is_number(times):
            times = None

        def call(f: list, prev: bool | None) -> bool | None:
            return len(eng._board.find(pat)) == times

    elif kind == "rewrite":
        lhs, rhs = _pattern(node, "lhs"), _pattern(node, "rhs")

        def call(f: list, prev: bool | None) -> bool | None:
            board = eng._board
            found = board.find(lhs)
            if not found:
                return False
            r, c = found[eng.rng.index(len(found))]
            board.write(rhs, r, c, eng._track)
            return True

    elif kind == "rewrite-all":
        lhs, rhs = _pattern(node, "lhs"), _pattern(node, "rhs")

        def call(f: list, prev: bool | None) -> bool | None:
            board = eng._board
            found = board.find(lhs)
            if not found:
                return False
            board.check_writable(rhs)
            eng.rng.shuffle(found)
            track = eng._track
            for r, c in found:
                if board.matches_at(lhs, r, c):
                    board.write(rhs, r, c, track)
            return True

    elif kind == "set-board":
        source = _pattern(node, "pattern").layers

        def call(f: list, prev: bool | None) -> bool | None:
            eng._board.load(source)
            eng._replaced = True
            return True

    elif kind == "layer-template":
        layer, tile = str(node.get("layer")), str(node.get("with"))

        def call(f: list, prev: bool | None) -> bool | None:
            eng._board.layer_template(layer, tile)
            eng._replaced = True
            return True

    elif kind in ("append-rows", "append-columns"):
        source = _pattern(node, "pattern").layers
        rows_wise = kind == "append-rows"

        def call(f: list, prev: bool | None) -> bool | None:
            board = eng._board
            done = board.append_rows(source) if rows_wise else board.append_columns(source)
            if done:
                eng._replaced = True
            return done

    elif kind == "display-board":
        delay = node.get("delay", 0)

        def call(f: list, prev: bool | None) -> bool | None:
            if eng._display_done:
                eng._display_done = False
                return True
            eng._start_display(delay)
            return None

    elif kind == "player":
        return _make_player(eng, node)
    else:

        def call(f: list, prev: bool | None) -> bool | None:
            raise RunError(f"unknown node type {kind!r}")

    return call


def _make_player(eng: Stepper, node: Node) -> Call:
    pid = node.get("pid")
    offers = []  # one per rewrite child: (lhs, rhs, desc, button, mouse, content key, child id)
    for cid in node.children:
        child = eng.nodes[cid]
        if child.type != "rewrite" or "lhs" not in child.patterns or "rhs" not in child.patterns:
            continue  # non-rewrite children are ignored, as in engine.js
        lhs, rhs = child.patterns["lhs"], child.patterns["rhs"]
        fields = tuple(child.get(name) for name in ("desc", "button", "mouse"))
        present = tuple(name in child.data for name in ("desc", "button", "mouse"))
        content = (lhs.key, rhs.key, fields, present)
        offers.append((lhs, rhs, fields, content, cid))
    # Deduplication only matters when two children offer the same content.
    contents = [offer[3] for offer in offers]
    needs_dedup = len(set(contents)) < len(contents)

    def call(f: list, prev: bool | None) -> bool | None:
        made = eng._choice_made
        if made is not None:
            eng._board.write(made.rhs_pattern, made.row, made.col, eng._track)
            eng._choice_made = None
            return True
        board = eng._board
        choices = []
        seen = set()
        for lhs, rhs, (desc, button, mouse), content, cid in offers:
            for r, c in board.find(lhs):
                key = (content, r, c)
                if needs_dedup:
                    if key in seen:
                        continue
                    seen.add(key)
                choices.append(
                    Choice(pid, r, c, lhs.source, rhs.source, desc, button, mouse, cid, rhs, key)
                )
        if not choices:
            return False
        eng._start_choice(pid, choices)
        return None

    return call
