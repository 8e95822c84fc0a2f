"""The behaviour-tree screens (btree.md §11): the tree editor, play with the move chooser, the
debugger and the solver. Importing this package registers the tree editor as the screen that
opens btree projects."""

from __future__ import annotations

from textual.screen import Screen

from studio.screens.registry import SCREENS
from studio.storage import Project


def open_project(project: Project) -> Screen[None]:
    """The tree editor of a btree project, editing it through one shared document."""
    from studio.screens.btree.base import open_document
    from studio.screens.btree.editor import TreeEditorScreen

    return TreeEditorScreen(open_document(project))


SCREENS["btree"] = open_project
