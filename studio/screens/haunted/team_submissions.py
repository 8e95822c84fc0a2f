"""What Teams & AIs shows of submissions (issue 30): a "Submitted" column, a summary line with
the deadline, the selected team's submissions, and ``D`` to set, move or remove the deadline.

Shown once the project is in submissions mode (a deadline, or any team has submitted): before
that, the registry is a practice one and its screen stays as it was. The listing is read when
the view is drawn, not on every cursor move.
"""

from __future__ import annotations

from rich.text import Text
from textual import work

from studio.screens.formatting import inert
from studio.screens.haunted.team_dialogs import Field, FormDialog
from studio.sessions.haunted.submissions import (
    TeamSubmissions, shown_deadline, submissions_mode, team_submissions, utc_now, with_deadline,
)
from studio.storage.errors import ProjectError
from studio.storage.haunted.submissions import deadline_of, deadline_text, is_open, \
    parse_deadline

COLUMN = "Submitted"
WIDTH = 11
"""``11-13 23:59``: month, day and time in UTC."""


class SubmissionsView:
    """Mixin for the Teams & AIs screen (which binds ``D`` to ``deadline``)."""

    submitted: dict[str, TeamSubmissions] | None = None
    """Per team playing its own AI, its submissions; None when not in submissions mode."""
    submissions_note: str = ""

    def read_submissions(self) -> None:
        """Read the submissions again (on every redraw of the table)."""
        self.submitted, self.submissions_note = None, ""
        try:
            deadline = deadline_of(self.model.body)
            if not submissions_mode(self.model.folder, deadline):
                return
            listed = team_submissions(self.model)
        except ProjectError as exc:
            self.submitted, self.submissions_note = {}, f"✗ submissions: {exc.message}"
            return
        self.submitted = {entry.team.name: entry for entry in listed}
        done = [entry for entry in listed if entry.playing is not None]
        missing = [entry.team.name for entry in listed if entry.playing is None]
        if deadline is None:
            state = "no deadline: open"
        else:
            state = (f"deadline {shown_deadline(deadline)}, "
                     f"{'open' if is_open(deadline, utc_now()) else 'closed'}")
        note = f"Submissions: {state} · {len(done)} of {len(listed)} teams in"
        if missing:
            note += " · none yet: " + ", ".join(missing)
        self.submissions_note = note + " · times UTC · D deadline"

    def on_screen_resume(self) -> None:
        # Back from the AI editor, which may have submitted: redraw only if that changed anything.
        before = (self.submitted, self.submissions_note)
        self.read_submissions()
        if (self.submitted, self.submissions_note) != before:
            self.refresh_view()

    def submitted_cell(self, table: dict) -> Text:
        entry = (self.submitted or {}).get(str(table.get("name")))
        if entry is None:
            return Text("–", style="dim")  # a built-in plays as it is
        playing = entry.playing
        if playing is None:
            return Text("late only" if entry.submissions else "none", style="bold red")
        return Text(playing.time.strftime("%m-%d %H:%M"))

    def submission_lines(self, table: dict) -> list[str]:
        """The selected team's submissions, for the details pane."""
        entry = (self.submitted or {}).get(str(table.get("name")))
        if entry is None:
            return []
        playing, count = entry.playing, len(entry.submissions)
        if playing is None:
            line = "no submission before the deadline: it does not play in tournaments" \
                if count else "no submission yet: it does not play in tournaments"
        else:
            line = (f"plays its submission of {playing.shown_time()} · {playing.short_hash} "
                    f"({count} in all)")
        if entry.late:
            line += f"; {entry.late} after the deadline, not played"
        return [line]

    @work(exclusive=True, group="dialog")
    async def action_deadline(self) -> None:
        try:
            current = deadline_of(self.model.body)
        except ProjectError:
            current = None

        def submit(values: dict[str, str]) -> str:
            text = values["deadline"].strip()
            try:
                deadline = parse_deadline(text) if text else None
            except ProjectError as exc:
                return f"{exc.message}: {exc.hint}" if exc.hint else exc.message
            label = f"deadline {deadline_text(deadline)}" if deadline else "remove the deadline"
            self.edit(label, with_deadline(self.model, deadline))
            said = f"Deadline {shown_deadline(deadline)}" if deadline else \
                "No deadline: submissions are open"
            self.notify(inert(said) + " (ctrl+s saves)", timeout=4)
            return ""

        await self.app.push_screen_wait(FormDialog(
            "Submission deadline",
            [Field("deadline", "Deadline", deadline_text(current) if current else "",
                   placeholder="2026-11-13T17:00:00-07:00 (empty: open)")],
            submit, "Apply",
            "ISO 8601 with its offset (Z for UTC). After it, submitting is refused and "
            "tournaments play the last submission before it. Empty reopens."))
