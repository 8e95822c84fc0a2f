"""The transform compiler (spec §5, §6): authored tree → the plain tree the engine runs.

Pipeline: structural check → id pass (one global id map, first registration wins, includes
loaded where their ``x-file`` is met) → expansion with innermost-first rule lists → pre-order
numbering → warnings. Every compiled node keeps its ``origin`` (the authored node it was copied
from) and its ``via`` chain (transform, link and include nodes that produced it, innermost first).
"""

from __future__ import annotations

from typing import Any

from studio.engines.btree.compiling import rules
from studio.engines.btree.compiling.checks import check_tree, node_error
from studio.engines.btree.compiling.compiled import Compiled, NodeRef, Resolver
from studio.engines.btree.compiling.diagnostics import compiled_warnings
from studio.engines.btree.model.errors import BtreeError, BtreeWarning
from studio.engines.btree.model.reshape import Game
from studio.engines.btree.model.schema import (
    ENGINE_TYPES,
    LINK_TYPES,
    RULE_TRANSFORMS,
    Node,
    child_path,
)
from studio.engines.common.limits import MAX_COMPILED_NODES

MISSING_LINKS = ("error", "empty")
_LENIENT = "tick Missing links in the settings (key ,) or pass --missing-links empty to expand it to nothing"


def compile_game(
    game: Game,
    missing_links: str = "error",
    resolver: Resolver | None = None,
    file: str = "",
) -> Compiled:
    """Compile an authored game.

    Args:
        game: the authored game (patterns already in grid form).
        missing_links: ``"error"`` (default) or ``"empty"``: a link/x-file whose target or file
            is missing expands to nothing, as the reference does (§9.3).
        resolver: loads ``x-file`` includes; without one every include is missing.
        file: a label for the top-level file in diagnostics.

    Raises:
        BtreeError: any authoring error, naming the node.
    """
    if missing_links not in MISSING_LINKS:
        raise BtreeError(f"missing_links must be 'error' or 'empty', not {missing_links!r}")
    compiler = _Compiler(game, missing_links, resolver, file)
    check_tree(game.tree, file, warnings=compiler.warnings)
    return compiler.run()


class _Compiler:
    def __init__(self, game: Game, missing: str, resolver: Resolver | None, file: str) -> None:
        self.game = game
        self.missing = missing
        self.resolver = resolver
        self.file = file
        self.ids: dict[Any, Node] = {}
        self.ref_of: dict[int, NodeRef] = {}
        self.authored: dict[NodeRef, Node] = {}
        self.includes: dict[str, Node | None] = {}
        self.meta: dict[int, tuple[NodeRef, tuple[NodeRef, ...]]] = {}
        self.warnings: list[BtreeWarning] = []
        self.made = 0
        """Compiled nodes made so far, against MAX_COMPILED_NODES."""

    # ------------------------------------------------------------------------------- id pass

    def register(self, node: Node, key: str, path: str) -> None:
        ref = (key, path)
        self.ref_of[id(node)] = ref
        self.authored[ref] = node
        nid = node.get("nid")
        if isinstance(nid, (str, int, float)) and nid != "" and nid not in self.ids:
            self.ids[nid] = node
        for i, child in enumerate(node.get("children") or ()):
            self.register(child, key, child_path(path, i))
        if "file" in node and "target" in node:
            self.include(node, key, path)

    def include(self, node: Node, key: str, path: str) -> None:
        found = self.resolver(node["file"], key) if self.resolver else None
        if found is None:
            message = f"include file {node['file']!r} not found"
            if self.missing == "error":
                raise node_error(
                    message, node, path, self.label(key),
                    hint=_LENIENT,
                )
            self.warn(message + " (expands to nothing)", node, self.where(key, path))
            return
        file_key, tree = found
        if file_key in self.includes:
            return  # each file is loaded and registered once
        self.includes[file_key] = tree
        check_tree(tree, file_key, warnings=self.warnings)
        self.register(tree, file_key, "tree")

    def label(self, key: str) -> str:
        return key or self.file

    def where(self, key: str, path: str) -> str:
        """A node path for warnings, prefixed by the include file it is in."""
        return f"{key}:{path}" if key else path

    def warn(self, message: str, node: Node, path: str) -> None:
        self.warnings.append(BtreeWarning(message, node_path=path, node_type=str(node.get("type", ""))))

    # ----------------------------------------------------------------------------- expansion

    def fail(self, exc: BtreeError, ref: NodeRef | None) -> BtreeError:
        if ref is not None and not exc.node_path:
            node = self.authored.get(ref, {})
            err = node_error(exc.message, node, ref[1], self.label(ref[0]), exc.hint)
            return err
        return exc

    def make_rule(self, node: Node, ref: NodeRef) -> rules.Rule:
        kind = node["type"]
        try:
            if kind == "x-ident":
                return rules.identity
            if kind == "x-prune":
                return rules.prune
            if kind == "x-swap":
                return rules.swap(node["what"], node["with"])
            if kind == "x-replace":
                return rules.replace(node["what"], node["withs"])
            geometric = {"x-mirror": rules.mirror, "x-flip": rules.flip, "x-rotate": rules.rotate,
                         "x-skew": rules.skew, "x-spin": rules.spin}
            return geometric[kind](node.get("remorig", False))
        except BtreeError as exc:
            raise self.fail(exc, ref) from None

    def expand(
        self, node: Node, xs: tuple[rules.Rule, ...], chain: tuple[Any, ...],
        via: tuple[NodeRef, ...], fallback: NodeRef,
    ) -> list[Node]:
        kind = node.get("type")
        ref = self.ref_of.get(id(node), fallback)
        if kind in LINK_TYPES:
            return self.expand_link(node, xs, chain, via, ref)
        if kind in RULE_TRANSFORMS:
            inner = (self.make_rule(node, ref), *xs)
            inner_via = (ref, *via)
            out: list[Node] = []
            for child in node["children"]:
                out.extend(self.expand(child, inner, chain, inner_via, ref))
            return out
        if kind in ENGINE_TYPES or kind == "x-unroll-replace":
            base = {k: v for k, v in node.items() if k != "comment" and k != "nid"}
            made = [base]
            try:
                for rule in xs:
                    made = [result for item in made for result in rule(item)]
                    self.spend(len(made), node, ref)  # each rule may multiply what it is given
            except BtreeError as exc:
                raise self.fail(exc, ref) from None
            self.made += len(made)
            for item in made:
                children = item.get("children")
                if children is not None:
                    item["children"] = [
                        result for child in children for result in self.expand(child, xs, chain, via, ref)
                    ]
                self.meta[id(item)] = (ref, via)
            return made
        raise node_error(f"unknown node type {kind!r}", node, ref[1], self.label(ref[0]))

    def spend(self, count: int, node: Node, ref: NodeRef) -> None:
        """Refuse a tree whose transforms and links expand it past the budget: nested replaces
        and links multiply, so a file of a few KB could compile to billions of nodes."""
        if self.made + count > MAX_COMPILED_NODES:
            raise node_error(
                f"the tree expands to more than {MAX_COMPILED_NODES:,} nodes once its transforms "
                f"and links are applied", node, ref[1], self.label(ref[0]),
                hint="fewer nested transforms (x-replace withs multiply) or links to big subtrees")

    def expand_link(
        self, node: Node, xs: tuple[rules.Rule, ...], chain: tuple[Any, ...],
        via: tuple[NodeRef, ...], ref: NodeRef,
    ) -> list[Node]:
        target_id = node.get("target")
        target = self.ids.get(target_id) if isinstance(target_id, (str, int, float)) else None
        if target is None:
            message = f"link target {target_id!r} is not the nid of any node"
            if self.missing == "error":
                raise node_error(
                    message, node, ref[1], self.label(ref[0]),
                    hint=_LENIENT,
                )
            self.warn(message + " (expands to nothing)", node, self.where(*ref))
            return []
        if target_id in chain:
            return []  # a link to an ancestor expands exactly once
        return self.expand(target, xs, (target_id, *chain), (ref, *via), ref)

    # ---------------------------------------------------------------------------------- run

    def run(self) -> Compiled:
        root = self.game.tree
        assert root is not None
        self.register(root, "", "tree")
        made = self.expand(root, (rules.identity,), (), (), ("", "tree"))
        if not made:
            raise node_error("the tree compiles to nothing", root, "tree", self.file)
        if len(made) > 1:
            self.warn(f"the root compiles to {len(made)} nodes; only the first is kept", root, "tree")
        tree = made[0]
        nodes: list[Node] = []
        stack = [tree]
        while stack:
            node = stack.pop()
            nodes.append(node)
            stack.extend(reversed(node.get("children") or ()))
        origin = [self.meta[id(n)][0] for n in nodes]
        via = [self.meta[id(n)][1] for n in nodes]
        compiled = Compiled(
            name=self.game.name, tree=tree, nodes=nodes, origin=origin, via=via,
            warnings=self.warnings, game=self.game, includes=self.includes, authored=self.authored,
        )
        compiled.warnings.extend(compiled_warnings(compiled))
        return compiled
