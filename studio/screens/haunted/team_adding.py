"""Adding teams to the registry (haunted.md §13.6, §4.4): an AI file, a new AI from the
documented template, a built-in, or the original competition's team list.

A mixin of :class:`~studio.screens.haunted.teams.TeamsScreen`: each way is a form whose submit
applies the edit through the screen's ``apply`` (undoable, validated by storage) and returns the
refusal to show, so the form stays open with what was typed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual import work

from studio.engines.haunted.builtin_ais import BUILTINS
from studio.screens.formatting import counted
from studio.screens.haunted.team_dialogs import Field, FormDialog, PickDialog
from studio.sessions.haunted import teams as registry
from studio.sessions.haunted.ai_files import import_team_list, write_starter
from studio.sessions.haunted.ai_listing import ai_files
from studio.storage import ProjectError
from studio.storage.haunted.project import HauntedModel
from studio.storage.haunted.teams_csv import COLUMNS

ADD_CHOICES = [("file", "An existing AI file (.py or .js)"),
               ("python", "A new Python AI from the template"),
               ("js", "A new JavaScript AI from the template"),
               ("builtin", "A built-in AI")]
"""How a team is added: (answer, label); keys f, p, j, b pick them."""
TYPED = "type"
"""The file list's first choice: type a path instead (``t``); files are ``file:PATH``."""


def refusal(error: ProjectError) -> str:
    """A refused edit in one line: what is wrong, and what to do when storage says."""
    return error.message + (f" ({error.hint})" if error.hint else "")


class TeamAdding:
    """The ``a`` (add) and ``i`` (import the team list) actions of the Teams & AIs screen."""

    # Provided by the screen (HauntedScreen and TeamsScreen.apply); Screen gives app and notify.
    folder: Path
    model: HauntedModel
    apply: Callable[..., str]

    @work(exclusive=True, group="dialog")
    async def action_add(self) -> None:
        how = await self.app.push_screen_wait(PickDialog("Add a team: where does its AI come from?",
                                                         ADD_CHOICES, keys="fpjb"))
        name = Field("name", "Name", registry.free_team_name(self.model, "New Team"))
        if how == "file":
            picked = await self._pick_file()
            if picked is None:
                return
            fields = [Field("name", "Name", placeholder="the file's name if empty"),
                      Field("file", "File", picked,
                            placeholder="ais/my_ai.py (relative to the project)")]
            await self.app.push_screen_wait(FormDialog(
                "Add an AI file", fields, self._add_file, "Add",
                f"A .py or .js file; relative paths start at {self.folder}."))
        elif how in ("python", "js"):
            await self.app.push_screen_wait(FormDialog(
                f"New {'JavaScript' if how == 'js' else 'Python'} AI", [name],
                lambda values: self._add_template(values["name"], how == "js"), "Create",
                "Writes the documented starter to ais/NAME beside the project "
                "(never over an existing file)."))
        elif how == "builtin":
            fields = [name, Field("builtin", "Built-in", "greedy", tuple(BUILTINS))]
            await self.app.push_screen_wait(FormDialog(
                "Add a built-in AI", fields, self._add_builtin, "Add"))

    async def _pick_file(self) -> str | None:
        """A ``.py``/``.js`` file of the project's folder, "" to type a path, None: cancelled."""
        found = ai_files(self.folder)
        if not found.paths:
            return ""
        title = f"Add an AI file: {counted(len(found.paths), 'file')} in the project's folder"
        if not found.complete:
            title = (f"Add an AI file: the first {len(found.paths)} found (the folder holds "
                     "too many to look through): type a path for another")
        choices = [(TYPED, "Type a path…"), *((f"file:{path}", path) for path in found.paths)]
        picked = await self.app.push_screen_wait(PickDialog(title, choices, keys="t"))
        if picked is None:
            return None
        return "" if picked == TYPED else picked.removeprefix("file:")

    def _add_entry(self, label: str, table: dict) -> str:
        return self.apply(label, lambda m: registry.add(m, table), len(self.model.team_tables))

    def _add_file(self, values: dict[str, str]) -> str:
        try:
            table = registry.file_entry(values["name"].strip(), self.folder, values["file"])
        except ProjectError as exc:
            return refusal(exc)
        if not table["name"]:
            table["name"] = registry.free_team_name(self.model, values["file"].strip()
                                                    .rsplit("/", 1)[-1].rsplit(".", 1)[0])
        return self._add_entry(f"add {table['name']}", table)

    def _add_builtin(self, values: dict[str, str]) -> str:
        try:
            table = registry.builtin_entry(values["name"].strip(), values["builtin"])
        except ProjectError as exc:
            return refusal(exc)
        return self._add_entry(f"add {table['name']}", table)

    def _add_template(self, name: str, js: bool) -> str:
        runtime, suffix = ("js", ".js") if js else ("python", ".py")
        table = {"name": name.strip(), "runtime": runtime, "source": "ais/new" + suffix}
        try:
            registry.add(self.model, table)  # refuse a bad name before writing any file
            source = write_starter(self.folder, table["name"], js)
        except ProjectError as exc:
            return refusal(exc)
        problem = self._add_entry(f"add {name.strip()} from the template",
                                  {**table, "source": source.as_posix()})
        if not problem:
            self.notify(f"Wrote {source}: e opens it in the AI editor")
        return problem

    @work(exclusive=True, group="dialog")
    async def action_import_csv(self) -> None:
        fields = [Field("file", "CSV file", placeholder="teams.csv (relative to the project)")]
        await self.app.push_screen_wait(FormDialog(
            "Import the original team list", fields, self._import, "Import",
            "A Microsoft Forms export with the columns "
            f"{', '.join(column.title() for column in COLUMNS)} (others, such as Email and Name, "
            "are ignored; Team Name and Url/Code are needed). Hosted code (URLs) is not "
            "downloaded. Code files go to ais/."))

    def _import(self, values: dict[str, str]) -> str:
        text = values["file"].strip()
        if not text:
            return "give the CSV file's path"
        taken = {str(t.get("name")) for t in self.model.team_tables}
        try:
            found = import_team_list(self.folder / text, self.folder, taken)
        except ProjectError as exc:
            return refusal(exc) + (f" (line {exc.line})" if exc.line else "")
        if not found.tables:
            return "the file lists no team"

        def change(model: HauntedModel) -> HauntedModel:
            for table in found.tables:
                model = registry.add(model, table)
            return model

        problem = self.apply(f"import {counted(len(found.tables), 'team')}", change,
                             len(self.model.team_tables))
        if not problem:
            notes = "\n".join(found.notes[:6])
            self.notify(f"Imported {counted(len(found.tables), 'team')}; code in ais/." +
                        (f"\n{notes}" if notes else ""), timeout=8)
        return problem
