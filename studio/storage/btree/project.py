"""A btree project as the editor holds it: the authored tree (nested) and the other tables.

The tree editor keeps every version of the model for undo, so the model is immutable by
convention: nothing mutates ``tree`` or ``settings``; edits build new values that share what they
did not change (``engines/btree/editing/tree_edit.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from studio.engines.btree import BtreeError, Compiled, Game, compile_game
from studio.storage.btree.kind import body_to_game, sprites_from_toml
from studio.storage.btree.body import tree_to_nodes
from studio.storage.kinds import Body
from studio.storage.project import Project

SETTINGS_ORDER = ("btree", "seats", "display", "provenance", "sprites")
"""Tables of a btree body before its ``[[node]]`` list, in the canonical order."""


@dataclass(frozen=True)
class BtreeModel:
    """The editable content of a btree project."""

    name: str
    tree: dict[str, Any] | None
    """The authored tree in the trrbt JSON shape (never mutated)."""
    settings: dict[str, Any]
    """Every table of the body but ``node`` (never mutated)."""

    @property
    def missing_links(self) -> str:
        return str(self.settings.get("btree", {}).get("missing_links", "error"))

    @property
    def seed(self) -> int:
        return int(self.settings.get("btree", {}).get("seed", 0))

    @property
    def seats(self) -> dict[str, str]:
        return {str(pid): seat for pid, seat in self.settings.get("seats", {}).items()}

    @property
    def display(self) -> dict[str, Any]:
        return dict(self.settings.get("display", {}))

    def game(self) -> Game:
        """The authored game (for the compiler)."""
        sprites = sprites_from_toml(self.settings["sprites"]) if "sprites" in self.settings \
            else None
        return Game(name=self.name, tree=self.tree, sprites=sprites)


def project_model(project: Project) -> BtreeModel:
    """The model of a loaded btree project."""
    game = body_to_game(project.body, project.name)
    settings = {key: value for key, value in project.body.items() if key != "node"}
    return BtreeModel(project.name, game.tree, settings)


def model_body(model: BtreeModel) -> Body:
    """The canonical project body of a model (settings tables first, then the nodes)."""
    body: Body = {}
    for key in SETTINGS_ORDER:
        if key in model.settings:
            body[key] = model.settings[key]
    for key, value in model.settings.items():
        if key not in body:
            body[key] = value
    if model.tree is not None:
        body["node"] = tree_to_nodes(model.tree)
    return body


def compile_model(model: BtreeModel) -> Compiled | BtreeError:
    """The compiled game, or the authoring error that stops it (never raises for those)."""
    if model.tree is None:
        return BtreeError("the game has no tree", node_path="tree",
                          hint="add a root node (n in the tree editor)")
    try:
        return compile_game(model.game(), missing_links=model.missing_links)
    except BtreeError as error:
        return error
