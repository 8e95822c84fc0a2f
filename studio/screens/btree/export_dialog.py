"""Exporting the edited game as a trrbt file (YAML or JSON), from the tree editor."""

from __future__ import annotations

from pathlib import Path

from studio.screens.btree.base import BtreeScreen
from studio.storage import ProjectError, slug
from studio.storage.btree.trrbt import export_game, export_target


def ask_export(screen: BtreeScreen) -> None:
    """Ask for a file name (its suffix picks YAML or JSON), then write the game as it is now,
    unsaved edits included, beside the project; an existing file is never overwritten."""
    from studio.screens.dialogs import NameDialog

    folder = screen.document.path.parent if screen.document.path else Path.cwd()
    game = screen.model.game()

    def named(answer: str | None) -> None:
        if answer is None:
            return
        try:
            written = export_game(game, Path(answer))
        except ProjectError as exc:
            screen.app.show_error(exc, "Cannot export the game")
            return
        lost = " (YAML holds no sprite images: export .json to keep them)" \
            if game.sprites and written.suffix.lower() != ".json" else ""
        screen.notify(f"Exported to {written}{lost}", title="Exported", timeout=6)

    screen.app.push_screen(NameDialog(
        "Export to a trrbt file (.yaml or .json)",
        f"{slug(game.name)}.yaml", "Export", lambda text: str(export_target(folder, text))), named)
