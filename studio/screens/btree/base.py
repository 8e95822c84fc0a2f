"""What every behaviour-tree screen shares: the btree document (a :class:`BtreeModel`)."""

from __future__ import annotations

from textual import work

from studio.screens.document_screen import DocumentScreen
from studio.storage import Project
from studio.storage.btree.project import BtreeModel, model_body, project_model
from studio.widgets.document import Document
from studio.widgets.save import SavePath


def open_document(project: Project) -> Document[BtreeModel]:
    """A btree project as an editable document."""
    return Document(project, project_model, model_body)


class BtreeScreen(DocumentScreen):
    """A screen editing, playing or debugging one behaviour-tree document."""

    AUTO_FOCUS = ""  # None would mean the app's "*": the first field would take the keys
    """Keys go to the screen's own bindings until a field is chosen (enter, tab)."""

    @property
    def model(self) -> BtreeModel:
        return self.document.model

    @work(exclusive=True, group="leave")
    async def leave(self) -> None:
        """Close the project, asking first about unsaved changes."""
        if await SavePath(self.app, self.document).confirm_leave():
            self.dismiss(None)
