"""The tournament screen's results side (haunted.md §13.7): running or resuming the selected
tournament on a worker thread with a progress line, cancelling it, opening a match's replay and
exporting the results as CSV.

A mixin of :class:`~studio.screens.haunted.tournament.TournamentScreen`, kept apart so that
each file stays readable; it reads the screen's ``active_run``, ``results`` and ``spots``.
"""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.message import Message
from textual.widgets import Static

from studio.engines.haunted.tournament import SINGLE
from studio.screens.dialogs import ConfirmDialog, ErrorDialog, NameDialog
from studio.screens.formatting import inert
from studio.screens.haunted.screens import make
from studio.sessions import access
from studio.sessions.haunted.cluster import ParallelRun, cluster_line, where_to_run
from studio.sessions.haunted.confinement import refuse_unconfined
from studio.sessions.haunted.results import Results, replay_of, write_csv
from studio.sessions.haunted.tournament import (
    TournamentCancelled,
    TournamentRun,
    read_index,
    same_plan,
    tournament_folder,
)
from studio.storage import ProjectError, slug
from studio.storage.haunted.kind import requires_confinement

BAR = 20
"""Width of the progress bar, in cells."""


class RunProgressed(Message):
    """The run moved on (posted from its thread; a newer one replaces a pending one)."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, RunProgressed)


class RunEnded(Message):
    """The run finished, was cancelled, or stopped on an error."""

    def __init__(self, run: TournamentRun, error: ProjectError | None, cancelled: bool) -> None:
        super().__init__()
        self.run, self.error, self.cancelled = run, error, cancelled


class RunningTournament:
    """Running, cancelling and reading back a tournament (mixed into the screen)."""

    def _draw_status(self) -> None:
        styles = self.styles_ui
        if self.active_run is not None:
            progress = self.active_run.progress()
            done, scheduled = progress.done, progress.scheduled
            about = "cancelling…" if self._cancelling else progress.current or "…"
            if isinstance(self.active_run, ParallelRun) and not self._cancelling:
                about = cluster_line(self.active_run)
        elif self.results is None:
            done, scheduled, about = 0, 0, self._note or "not run yet: enter runs it"
            try:
                scheduled = self._plan().scheduled
            except ProjectError as exc:  # say what stops it from running
                about = f"✗ {exc.message}"
            except StopIteration:
                about = "no tournament yet: n creates one"
        else:
            done, scheduled = len(self.results.matches), self.results.scheduled
            about = self._summary()
        if self.where and self.active_run is None:
            about += f" · runs on {self.where}"
        if self.skipped:  # who does not play, and why: the entrants pane cuts it at 80 columns
            about += " · skipped: " + "; ".join(f"{name} ({why})"
                                                for name, why in self.skipped.items())
        filled = BAR * done // scheduled if scheduled else 0
        line = Text.assemble("▕", ("█" * filled, styles.success),
                             ("░" * (BAR - filled), styles.muted),
                             f"▏ {done}/{scheduled} matches · ", (inert(about), styles.text))
        self.query_one("#status", Static).update(line)

    def _summary(self) -> str:
        results = self.results
        assert results is not None
        try:
            current = same_plan(results.document, self._plan())
        except (ProjectError, StopIteration):
            current = True  # cannot tell while the project is invalid: say nothing about it
        if not current:
            return "these are the results of an earlier setup: enter runs it afresh"
        if self._note:
            return self._note
        if not results.complete:
            return "stopped: enter resumes"
        champion = results.champion()
        if results.mode == SINGLE and champion:
            return f"finished: {champion} wins"
        leader = results.standings()[0]
        return f"finished: {leader.name} leads (Elo {leader.record.elo:.0f})"

    def action_open_match(self) -> None:
        if not self.spots:
            self.notify("no match to open yet", timeout=2)
            return
        spot = self.spots[min(self.cursor["results"], len(self.spots) - 1)]
        folder = tournament_folder(self.folder, self.tournament_name or "")
        path = replay_of(folder, spot.match or {})
        if spot.match is None or path is None or not path.exists():
            self.notify(f"no replay: {spot.why or 'the file is gone'}", timeout=3)
            return
        self.app.push_screen(make("replay", self.document, path=path))

    def action_export(self) -> None:
        assert self.results is not None
        stem = self.document.path.stem if self.document.path else slug(self.document.name)
        target = self.folder / f"{stem}-{slug(self.tournament_name or 'tournament')}.csv"
        try:
            table, matches = write_csv(self.results.document, target)
        except ProjectError as exc:
            self.notify(exc.message, severity="error", timeout=5)
            return
        self.notify(f"Wrote {table.name} and {matches.name}", timeout=4)

    # ------------------------------------------------------------------------------ running

    def action_run(self) -> None:
        self._start(afresh=False)

    def action_run_afresh(self) -> None:
        self._start(afresh=True)

    @work(exclusive=True, group="tournament-dialog")
    async def _start(self, afresh: bool) -> None:
        """Resume the saved matches of this setup, or (asked first) replace saved results."""
        try:
            refused = access.current().run_tournaments()
            if refused:
                raise ProjectError(refused)
            plan = self._plan()
            self._refuse_unconfined()
            saved = read_index(plan.replays) if plan.replays else None
        except ProjectError as exc:
            await self.app.push_screen_wait(ErrorDialog(exc, "Cannot run the tournament"))
            return
        same = same_plan(saved, plan)
        resume = same and not afresh and not saved["complete"]  # type: ignore[index]
        if saved is not None and not resume:
            question = ("The saved results are of an earlier setup." if not same else
                        "It has run to the end with this setup: the same seed plays the same "
                        "matches again (unless an AI's file changed)." if saved["complete"] else
                        "Its finished matches would be played again.")
            if not await self.app.push_screen_wait(ConfirmDialog(
                    "Run afresh?", question + " Running replaces them.", "Run")):
                return
        if self.running:
            return
        def notify() -> None:
            self.post_message(RunProgressed())

        self.active_run = (ParallelRun(plan, self.where, resume=resume, notify=notify)
                           if self.where else TournamentRun(plan, resume=resume, notify=notify))
        self._note, self._cancelling = "", False
        self._loaded = self.tournament_name
        self.results = Results(self.active_run.progress().document)
        self.refresh_view()
        self.refresh_bindings()
        self._play(self.active_run)

    @work(exclusive=True, group="tournament-dialog")
    async def action_where_to_run(self) -> None:
        """Here, or on a cluster: asked as a line of text, checked before the dialog closes."""
        answer = await self.app.push_screen_wait(NameDialog(
            "Where to run: empty for here, local or local:N for this machine's cores, or a "
            "Dask scheduler such as tcp://10.0.0.5:8786", self.where, "Use",
            check=where_to_run))
        if answer is not None and not self.running:
            self.where = answer
            self._draw_status()

    def _refuse_unconfined(self) -> None:
        """ProjectError when the project or this tournament sets ``require_confinement`` and
        AI workers cannot be confined here."""
        model = self.model
        table = next(t for t in model.tournaments() if t["name"] == self.tournament_name)
        required = requires_confinement(model.body) or table["require_confinement"]
        refuse_unconfined(required, f"tournament {table['name']!r}")

    @work(thread=True, exclusive=True, group="tournament")
    def _play(self, run: TournamentRun) -> None:  # a ParallelRun opens its cluster here too
        """Runs on a worker thread: the AIs think in their own processes, the keys keep working."""
        error, cancelled = None, False
        try:
            run.run()
        except TournamentCancelled:
            cancelled = True
        except ProjectError as exc:
            error = exc
        except Exception as exc:  # noqa: BLE001 - shown to the user rather than lost in a thread
            error = ProjectError(f"the tournament stopped: {exc}")
        self.post_message(RunEnded(run, error, cancelled))

    def on_run_progressed(self) -> None:
        if self.active_run is not None:
            self.results = Results(self.active_run.progress().document)
            self._draw("results")
            self._draw_status()

    def on_run_ended(self, event: RunEnded) -> None:
        if event.run is not self.active_run:
            return
        self.active_run = None
        self.results = Results(event.run.progress().document)
        self._note, self._cancelling = "", False
        if event.cancelled:
            self._note = "cancelled: enter resumes"
        elif event.error is not None:
            self._note = f"✗ {event.error.message}"
            self.app.push_screen(ErrorDialog(event.error, "The tournament stopped"))
        self.refresh_view()
        self.refresh_bindings()

    @work(exclusive=True, group="tournament-dialog")
    async def action_cancel_run(self) -> None:
        run = self.active_run
        if run is None:
            return
        if await self.app.push_screen_wait(ConfirmDialog(
                "Stop the tournament?", "Finished matches stay saved; enter resumes from the "
                "match being played now.", "Stop", still=lambda: run is self.active_run,
                ended="The tournament has finished")) and run is self.active_run:
            self._cancelling = True
            run.cancel()
            self._draw_status()

    def action_leave(self) -> None:
        self.dismiss(None)

    def on_unmount(self) -> None:
        super().on_unmount()
        if self.active_run is not None:  # a run must not outlive its screen (or keep the app alive)
            self.active_run.cancel()
