"""The map editor's project-level actions (haunted.md §13.5): the list of maps, new, duplicate,
rename, delete (asked first), resize and importing an original ``maps.json``.

Each is one undo step; each asks its question in a dialog first, so they run as workers.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual import work

from studio.engines.haunted.map_edit import MapDraft, blank, problems, resize, unique_name
from studio.screens.dialogs import ConfirmDialog, NameDialog
from studio.screens.formatting import counted
from studio.screens.haunted.base import HauntedScreen
from studio.screens.haunted.map_picker import MapPickerDialog
from studio.screens.haunted.map_tools import describe
from studio.storage import ProjectError
from studio.storage.haunted.maps import (
    delete_map,
    draft_of,
    import_maps,
    map_names,
    read_maps_json,
    rename_map,
    uses_in_rotation,
    with_draft,
)
from studio.storage.haunted.project import HauntedModel
from studio.storage.names import check_name_characters


class MapManaging(HauntedScreen):
    """The map editor's dialogs. The editor supplies ``index`` and ``draft`` (the map on
    screen), ``open_map(index)`` and ``end_pen()`` (no stubs here: they would come first in the
    editor's method order and hide the real ones)."""

    index: int

    def _name_check(self, keep: int | None) -> Callable[[str], str]:
        """A map name's rules for the name dialog: one line, not empty, not another map's, no
        comma."""
        taken = {name for i, name in enumerate(map_names(self.model)) if i != keep}

        def check(text: str) -> str:
            name = text.strip()
            if not name:
                raise ProjectError("a map needs a name")
            check_name_characters(name, "map name")
            if name in taken:
                raise ProjectError("another map has that name")
            if "," in name:  # the rotation fields list maps separated by commas
                raise ProjectError("a map name cannot hold a comma (rotations are lists of "
                                   "names separated by commas)")
            return name

        return check

    async def _ask(self, title: str, initial: str, action: str,
                   check: Callable[[str], str]) -> str | None:
        return await self.app.push_screen_wait(NameDialog(title, initial, action, check))

    def _picker_rows(self) -> list[tuple[str, str]]:
        rows = []
        for i, table in enumerate(self.model.map_tables):
            try:
                draft = draft_of(table, i)
            except ProjectError as exc:
                rows.append((str(table.get("name", "?")), f"✗ {exc.message}"))
                continue
            errors = [p.message for p in problems(draft) if p.level == "error"]
            rows.append((draft.name, describe(draft) + (f" · ✗ {errors[0]}" if errors else "")))
        return rows

    @work(exclusive=True, group="dialog")
    async def action_maps(self) -> None:
        answer = await self.app.push_screen_wait(MapPickerDialog(self._picker_rows(), self.index))
        if answer is not None:
            what, index = answer
            self.open_map(index)
            if what != "open":
                await self._step(what)

    @work(exclusive=True, group="dialog")
    async def action_manage(self, what: str) -> None:
        """``new``, ``duplicate``, ``rename`` or ``delete`` the map on screen (asks first)."""
        await self._step(what)

    async def _step(self, what: str) -> None:
        await {"new": self._new, "duplicate": self._duplicate, "rename": self._rename,
               "delete": self._delete}[what]()

    async def _new(self) -> None:
        name = await self._ask("New map (7×7)", unique_name("New map", map_names(self.model)),
                               "Add", self._name_check(None))
        if name is not None:
            self._add(f"new map {name!r}", blank(name))

    async def _duplicate(self) -> None:
        draft = self.draft
        if draft is None:
            return
        name = await self._ask(f"Duplicate {draft.name!r} as",
                               unique_name(f"{draft.name} copy", map_names(self.model)),
                               "Duplicate", self._name_check(None))
        if name is not None:
            self._add(f"duplicate {draft.name!r} as {name!r}", MapDraft(
                name, draft.size, draft.strengths, draft.home, draft.away, draft.description))

    def _add(self, label: str, draft: MapDraft) -> None:
        index = len(self.model.map_tables)
        self.index = index  # before the edit, so the redraw it causes shows the new map
        self.end_pen()
        self.edit(label, with_draft(self.model, index, draft))

    async def _rename(self) -> None:
        old = map_names(self.model)[self.index]
        name = await self._ask(f"Rename {old!r}", old, "Rename", self._name_check(self.index))
        if name is not None and name != old:
            self.edit(f"rename {old!r} to {name!r}", rename_map(self.model, self.index, name))

    async def _delete(self) -> None:
        names = map_names(self.model)
        if len(names) == 1:
            self.notify("A project needs a map: add another before deleting this one.",
                        severity="warning", timeout=3)
            return
        name = names[self.index]
        rounds = uses_in_rotation(self.model, name)
        note = (f" It is played in {rounds} round{'s' if rounds > 1 else ''} of the match "
                "rotation; those rounds go too.") if rounds else ""
        question = f"Delete map {name!r}?{note} (ctrl+z brings it back)"
        if await self.app.push_screen_wait(ConfirmDialog("Delete map", question, yes="Delete")):
            self.end_pen()
            self.edit(f"delete map {name!r}", delete_map(self.model, self.index))

    @work(exclusive=True, group="dialog")
    async def action_resize(self) -> None:
        draft = self.draft
        if draft is None:
            return

        def check(text: str) -> str:
            if not text.strip().isdigit() or not 5 <= int(text) <= 15:
                raise ProjectError("the size is a whole number from 5 to 15")
            return text.strip()

        answer = await self._ask(f"Resize {draft.name!r} (now {draft.size}×{draft.size}; the "
                                 "top-left part is kept)", str(draft.size), "Resize", check)
        if answer is None or int(answer) == draft.size:
            return
        new = resize(draft, int(answer))
        self.end_pen()
        self.edit(f"resize {draft.name!r} to {new.size}×{new.size}",
                  with_draft(self.model, self.index, new))
        if (new.home, new.away) != (draft.home, draft.away):
            self.notify("Starts fell off the board: all six are back at the defaults.",
                        timeout=4)

    @work(exclusive=True, group="dialog")
    async def action_import_maps(self) -> None:
        found: dict[str, list] = {}

        def check(text: str) -> str:
            if not text.strip():
                raise ProjectError("give the path of a maps.json file")
            found["maps"] = read_maps_json(Path(text.strip()).expanduser())
            return text.strip()

        path = await self._ask("Import the maps of an original maps.json", "", "Import", check)
        if path is None:
            return
        model, names = import_maps(self.model, found["maps"])
        first = len(self.model.map_tables)
        self._add_model(f"import {counted(len(names), 'map')} from {Path(path).name}", model, first)
        self.notify("Imported: " + ", ".join(names), timeout=4)

    def _add_model(self, label: str, model: HauntedModel, index: int) -> None:
        self.index = index
        self.end_pen()
        self.edit(label, model)

