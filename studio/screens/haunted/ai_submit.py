"""The AI editor's submit (f8 / ctrl+t): who submits, why it cannot, and the check-and-store,
kept out of the editor's module. The work is the session's
(:mod:`studio.sessions.haunted.submissions`), shared with ``studio submit``; it runs on a
thread, since the check loads the AI in a worker.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

from textual import work

from studio.sessions.haunted.ladder_queue import queue_catch_up
from studio.sessions.haunted.submissions import (
    Clock, SubmitOutcome, shown_deadline, submit, submitting_team,
)
from studio.storage.errors import ProjectError
from studio.storage.haunted.project import HauntedModel
from studio.storage.haunted.submissions import deadline_of, is_open



class SubmitKey:
    """The AI editor's ``submit`` action and its dimmed reason (the editor binds the key).

    Expects of the screen: ``model``, ``path``, ``team_index``, ``read_only``, ``clock``,
    ``area``, ``modified``, ``save_file``, ``status``, ``_checked`` (the f6 result) and
    ``document`` (its path names the project a ladder runner plays).
    """

    def why_not(self, action: str, parameters: tuple[object, ...]) -> str | None:
        if action == "submit":
            return why_not_submit(self.model, self.path, self.team_index, self.read_only,
                                  self.clock())
        return super().why_not(action, parameters)  # type: ignore[misc]

    @work(exclusive=True, group="run")
    async def action_submit(self) -> None:
        if self.modified and not await self.save_file():
            return  # the draft on disk and the submission must be the same code
        self.status("Submitting: checking the syntax, then loading it in a worker…")
        outcome = await asyncio.to_thread(submit_text, self.model, self.path, self.team_index,
                                          self.area.text, self.clock)
        if outcome.problem is not None:
            self._checked(outcome.problem)  # the cursor goes to the error, as f6 does
        message = outcome.message
        if outcome.ok and self.document.path is not None:
            # The ladder's matches run in a process of their own: they outlive this session.
            queued = await asyncio.to_thread(queue_catch_up, self.model, self.document.path)
            message += f"; {queued}" if queued else ""
        self.status(("✓ " if outcome.ok else "✗ ") + message, error=not outcome.ok)
        self.notify(message, title="Submitted" if outcome.ok else "Not submitted",
                    severity="information" if outcome.ok else "error", timeout=6)
        self.refresh_bindings()



def why_not_submit(model: HauntedModel, path: Path, team_index: int | None, read_only: bool,
                   now: datetime) -> str | None:
    """Why this editor cannot submit now (the dimmed key says it), or None when it can."""
    team = submitting_team(model, path, team_index)
    if team is None:
        if read_only and team_index is not None:
            return "A built-in AI is not submitted: it plays as it is"
        return "No team of the registry plays this file: add it in Teams & AIs (a) to submit it"
    if read_only:
        return "This file cannot be read: there is nothing to submit"
    try:
        deadline = deadline_of(model.body)
    except ProjectError as exc:
        return f"The project's deadline is not valid: {exc.message}"
    if not is_open(deadline, now):
        return f"Submissions closed at {shown_deadline(deadline)}; nothing can be submitted"
    return None


def submit_text(model: HauntedModel, path: Path, team_index: int | None, text: str,
                clock: Clock) -> SubmitOutcome:
    """Check ``text`` and store it as the editing team's submission (blocks: a thread's job)."""
    team = submitting_team(model, path, team_index)
    if team is None:
        return SubmitOutcome(refusal="error", message="no team of the registry plays this file")
    return submit(model, team, text.encode("utf-8"), path.suffix, clock=clock,
                  origin=_origin(model, path))


def _origin(model: HauntedModel, path: Path) -> str:
    try:
        return path.resolve().relative_to(Path(model.folder or ".").resolve()).as_posix()
    except ValueError:
        return path.name
