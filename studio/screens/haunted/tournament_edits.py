"""The tournament screen's setup side (haunted.md §13.7): the edits of its panes — create, rename
or delete a tournament; enter, remove and reorder entrants; change or type a setting — each
through :mod:`~studio.screens.haunted.tournament_setup`, with its dialog where it asks for words.

A mixin of :class:`~studio.screens.haunted.tournament.TournamentScreen`, as
:mod:`~studio.screens.haunted.tournament_run` is for its results side; it reads the screen's
``model``, ``selected`` and ``cursor`` and edits through its ``edit`` (undoable, saved with
ctrl+s).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual import work

from studio.screens.dialogs import ConfirmDialog
from studio.screens.haunted import tournament_setup as setup
from studio.screens.haunted.tournament_dialogs import PickDialog, ValueDialog
from studio.sessions.haunted.tournament import has_results
from studio.storage import slug

EDITS = {"new_tournament", "rename", "delete_tournament", "add_entrant", "remove_entrant",
         "move_entrant", "change", "type_value", "undo", "redo"}
"""Actions that change the tournament: not while it runs (the run uses what it started with)."""


class EditingTournament:
    """The edits of a tournament's setup (mixed into the screen)."""

    def _apply(self, label: str, change, *args, merge: object = None) -> bool:
        """Make one edit through ``tournament_setup``; a refusal is shown, not raised."""
        try:
            model = change(self.model, *args)
        except setup.SetupError as exc:
            self.notify(str(exc), severity="warning", timeout=3)
            return False
        return self.edit(label, model, merge)

    def action_change(self, step_by: int) -> None:
        key = setup.fields(self.model, self.selected)[self.cursor["settings"]].key
        self._apply(f"tournament {key.replace('_', ' ')}", setup.step_field, self.selected, key,
                    step_by, merge=("tournament", self.selected, key))

    @work(exclusive=True, group="tournament-dialog")
    async def action_type_value(self) -> None:
        key = setup.fields(self.model, self.selected)[self.cursor["settings"]].key
        if key not in ("seed", "pace", "rounds", "time_limit", "maps"):
            self.notify("left/right or space change this", timeout=2)
            return
        initial = setup.typed_value(self.model, self.selected, key)
        text = await self.app.push_screen_wait(ValueDialog(
            key.replace("_", " ").capitalize(), initial,
            self._check(setup.set_typed, self.selected, key),
            "Map names separated by commas, played in turn." if key == "maps" else
            "Seconds per turn, so that spectators can follow (0: full speed)." if key == "pace"
            else ""))
        if text is not None:
            self._apply(f"tournament {key.replace('_', ' ')}", setup.set_typed, self.selected,
                        key, text)

    def _check(self, change, *args) -> Callable[[str], str]:
        """A dialog's check: what ``change(model, *args, text)`` refuses ("" when it works), so
        the dialog stays open with the reason instead of losing the typing."""
        def check(text: str) -> str:
            try:
                change(self.model, *args, text)
            except setup.SetupError as exc:
                return str(exc)
            return ""

        return check

    @work(exclusive=True, group="tournament-dialog")
    async def action_add_entrant(self) -> None:
        entered = setup.tournament(self.model, self.selected)["entrants"]
        choices = [(t.name, f"{t.name}  ({t.runtime} {t.source})") for t in self.model.teams()
                   if t.name not in entered]
        if not choices:
            self.notify("every team of the registry is entered", timeout=3)
            return
        team = await self.app.push_screen_wait(PickDialog("Enter a team", choices))
        if team is not None and self._apply("add entrant", setup.add_entrant, self.selected, team):
            self.cursor["entrants"] = len(entered)
            self._draw("entrants")

    def action_remove_entrant(self) -> None:
        self._apply("remove entrant", setup.remove_entrant, self.selected, self.cursor["entrants"])

    def action_move_entrant(self, step_by: int) -> None:
        if self._apply("move entrant", setup.move_entrant, self.selected,
                       self.cursor["entrants"], step_by):
            self.cursor["entrants"] += step_by
            self._draw("entrants")

    @work(exclusive=True, group="tournament-dialog")
    async def action_new_tournament(self) -> None:
        try:
            suggested = setup.new_tournament(self.model, results=partial(
                has_results, self.folder))[0].tournament_tables[-1]["name"]
        except setup.SetupError as exc:
            self.notify(str(exc), severity="warning", timeout=4)
            return
        name = await self.app.push_screen_wait(ValueDialog(
            "New tournament", suggested, self._check(setup.new_tournament)))
        if name is not None:
            model, self.selected = setup.new_tournament(self.model, name)
            self.edit("new tournament", model)

    @work(exclusive=True, group="tournament-dialog")
    async def action_rename(self) -> None:
        name = await self.app.push_screen_wait(ValueDialog(
            "Rename tournament", self.tournament_name or "",
            self._check(setup.rename, self.selected),
            "Saved results stay under the old name in replays/: a renamed tournament starts "
            "afresh."))
        if name is not None:
            self._apply("rename tournament", setup.rename, self.selected, name)

    @work(exclusive=True, group="tournament-dialog")
    async def action_delete_tournament(self) -> None:
        name = self.tournament_name or ""
        question = (f"{name!r} is removed from the project (ctrl+z brings it back). Its saved "
                    f"results stay in replays/{slug(name)}/.")
        if await self.app.push_screen_wait(ConfirmDialog("Delete tournament?", question, "Delete")):
            self.edit("delete tournament", setup.delete(self.model, self.selected))
