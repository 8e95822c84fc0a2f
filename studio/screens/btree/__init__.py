"""The behaviour-tree screens (btree.md §11): the tree editor, play with the move chooser, the
debugger and the solver. :func:`open_project` opens btree projects in the tree editor (named in
``studio.screens.registry``, imported when the first one opens)."""

from __future__ import annotations

from textual.screen import Screen

from studio.storage import Project


def open_project(project: Project) -> Screen[None]:
    """The tree editor of a btree project, editing it through one shared document."""
    from studio.screens.btree.base import open_document
    from studio.screens.btree.editor import TreeEditorScreen

    return TreeEditorScreen(open_document(project))
