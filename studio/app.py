"""StudioApp: the home screen on a folder, help, palette and themes (opening files by kind is
:mod:`studio.openers`)."""

from __future__ import annotations

import asyncio
import gc
import signal
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events, work
from textual.app import SystemCommand
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.filter import LineFilter
from textual.notifications import Notification, Notify, SeverityLevel
from textual.screen import Screen
from textual.widget import AwaitMount
from textual.widgets import Header
from textual.widgets._header import HeaderTitle

from studio.engines.common.inert import inert
from studio.openers import Openers
from studio.screens.formatting import fit_title
from studio.screens.home import HomeScreen
from studio.widgets.inert import InertFilter
from studio.widgets.terminal_input import install as read_escape_apart
from studio.widgets.typeahead import TypeAhead

if TYPE_CHECKING:
    from studio.widgets.document import Document

# What the home screen does not show loads when first used (help, dialogs, the save path, and
# each kind's screens through studio.screens.registry): the first frame waits for none of it.

THEMES = {"dark": "textual-dark", "light": "textual-light", "ansi": "ansi-dark"}
"""Our theme names -> Textual themes; ``ansi`` keeps to the terminal's own 16 colours."""


def _freeze_startup_objects() -> None:
    """Leave what start-up made (modules, classes, the first screen) out of garbage collection.

    A full collection walks every object, and with Textual's hundreds of thousands it took
    50-60 ms: a key pressed meanwhile waited that long. Frozen, the start-up objects are not
    walked again (a full collection then takes 5-10 ms); what screens make later is still
    collected. Collect first, so that no start-up garbage is kept for good. The collector was
    off until now (``studio.cli``): it is switched on here.
    """
    gc.collect()
    gc.freeze()
    gc.enable()


_SIGHUP = getattr(signal, "SIGHUP", 1)
"""Windows has no SIGHUP: naming it here stopped the studio from importing at all there."""


def _person(role: bool = False) -> str:
    """Who is logged in to this served session, or their ``role``; "" locally: no roles,
    nothing loaded for them."""
    from studio.storage import served

    if served.served_root() is None:
        return ""
    from studio.sessions import access

    return access.current().role if role else access.current().label


def _shared_view() -> bool:
    """Whether this studio draws one view for every spectator (no key of theirs reaches it)."""
    from studio.storage import served

    if served.served_root() is None:
        return False  # a local studio: roles are not even loaded
    from studio.sessions import access

    return access.current().shared_view


class StudioApp(Openers, TypeAhead):
    """The studio. ``path`` is a folder of projects or one project file."""

    TITLE = "studio"
    # The field with the focus must be plain to see in every theme: Textual marks a compact
    # field (no border) only by a 5% tint, 235 against 234 in the dark theme and nothing at all
    # in the ANSI one, and letters went to the wrong pane as commands. An accent background and
    # an underline (which a monochrome terminal shows too) mark it.
    # Notes come in one line where they fit, at the top right over the header's file name: at
    # the bottom (Textual's place) they sat on the status lines, which are what a note is
    # usually about (the map editor's cursor line after a save, the diagnostics at 80x24).
    # A bordered field changed only its border's colour on focus (blue against grey, the same
    # grey twice on a monochrome terminal): its border takes another shape as well.
    CSS = """
    Input.-textual-compact:focus, Select.-textual-compact:focus > SelectCurrent {
        background-tint: $accent 45%;
        text-style: underline;
        border: none;
    }
    Input:focus, RadioSet:focus, TextArea:focus, Select:focus > SelectCurrent {
        border: heavy $accent;
    }
    Input.-invalid:focus {
        border: heavy $error;
    }
    CommandInput:focus {
        border: blank;
    }
    ToastRack {
        dock: top;
        align: right top;
        margin-bottom: 0;
    }
    Toast {
        padding: 0 1;
        margin-top: 0;
        margin-bottom: 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help", key_display="?"),
        Binding("t", "cycle_theme", "Theme"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, path: Path, theme: str | None = None, freeze_startup: bool = False,
                 watch: str | None = None) -> None:
        """``freeze_startup``: see :func:`_freeze_startup_objects`; once per process (``studio``
        sets it), never in tests, which start many apps in one process. ``watch``: open the
        Haunted project ``path`` on its spectator screen, following that tournament ("" for
        whatever it plays now)."""
        super().__init__()
        read_escape_apart()  # escape typed with the next key in one packet: two keys
        self.freeze_startup = freeze_startup
        path = Path(path)
        self.folder = path if path.is_dir() else path.parent
        self.initial_file = None if path.is_dir() else path
        self.watch = watch
        self.theme_name = theme or "dark"
        self._apply_theme(self.theme_name)
        self.recovered: list[Path] = []
        """Where unsaved work went when an unexpected error ended the studio."""
        self._recovery_done = False
        self._notes_in_place: dict[str, Notification] = {}
        self._inert = InertFilter()

    def get_line_filters(self) -> list[LineFilter]:
        # Last, so that nothing after it puts a control character back; one instance, because
        # each line keeps what a filter made of it by the filter's identity.
        own = [self._inert] if self._inert.enabled else []
        return [*super().get_line_filters(), *own]

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        # Every screen's notes come here. Their messages quote file names and errors, never
        # markup of their own: read as markup, a "[" in a name would style the rest.
        super().notify(inert(message, log=True), title=inert(title), severity=severity,
                       timeout=timeout, markup=False)

    def push_screen(self, screen, *args, **kwargs):  # type: ignore[override]
        # A screen or dialog shown over the last one: the notes about that one are done with,
        # and at 80×24 they covered the new screen's own lines (the help, a dialog's question).
        # Warnings and errors stay their time; a note posted just before this push is not in yet
        # and stays (it is about the screen coming).
        if isinstance(screen, Screen):
            passing = [note for note in self._notifications if note.severity == "information"]
            for note in passing:
                self._unnotify(note, refresh=False)
            if passing:
                self._refresh_notifications()
        return super().push_screen(screen, *args, **kwargs)

    def get_driver_class(self):
        from textual.drivers.linux_driver import LinuxDriver

        driver = super().get_driver_class()
        if driver is LinuxDriver:  # not Windows, not a driver chosen by TEXTUAL_DRIVER
            from studio.widgets.driver import StudioDriver

            return StudioDriver
        return driver

    def hang_up(self, sig: int = _SIGHUP) -> None:
        """The terminal went away (SIGHUP) or the studio is told to stop (SIGTERM): nobody is
        left to answer a question, so end now; what screens keep on their way out (a running
        match's replay so far) they save first, and unsaved edits are lost as on a dropped line.

        Args:
            sig: the signal that ended it; the exit code is 128 plus its number, as shells
                report a process ended by a signal (129 for SIGHUP, 143 for SIGTERM).
        """
        for screen in reversed(self.screen_stack):
            keep = getattr(screen, "keep_on_hang_up", None)
            if keep is not None:
                try:
                    keep()
                except Exception:  # noqa: BLE001 - keep what else can be kept, then end
                    continue
        self.exit(return_code=128 + sig)

    def _handle_exception(self, error: Exception) -> None:
        # An unexpected error ends the app (Textual's rule): what was made since the last save
        # is written aside first, as new files, so it does not end with it.
        if not self._recovery_done:
            self._recovery_done = True
            self.recovered = self._recover_unsaved()
        super()._handle_exception(error)

    def _recover_unsaved(self) -> list[Path]:
        kept: list[Path] = []
        for screen in reversed(self.screen_stack):
            recover = getattr(screen, "recover_unsaved", None)  # work outside a project
            if recover is not None:
                try:
                    path = recover()
                except Exception:  # noqa: BLE001 - keep what else can be kept
                    continue
                if path is not None:
                    kept.append(path)
        for document in self.open_documents():
            if document.dirty:
                try:
                    kept.append(document.recover(self.folder))
                except Exception:  # noqa: BLE001
                    continue
        return kept

    def _apply_theme(self, name: str) -> None:
        self.theme_name = name
        self.ansi_color = name == "ansi"
        self.theme = THEMES[name]

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # Every text field and editor gets a steady cursor: a blinking one repaints an idle
        # screen twice a second, which over SSH is traffic for nothing.
        if getattr(event.widget, "cursor_blink", False):
            event.widget.cursor_blink = False

    HEADER_SIDES = 18
    """Columns of the header beside its title: Textual's icon (8) and clock space (10)."""

    def format_title(self, title: str, sub_title: str) -> Content:
        # Textual cuts the line at its end, which is where the unsaved mark is. Who is logged
        # in (a served session with a roster) comes first, so it is never the part cut off.
        person = _person()
        if person:
            title = f"{person} · {title}"
        width = self.size.width - self.HEADER_SIDES
        return super().format_title(*fit_title(inert(title), inert(sub_title), width))

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_titles)  # once the app has its new size

    def _fit_titles(self) -> None:
        # Every screen of the stack: one under a cover or a dialog kept the title cut for the
        # old width once it showed again (the rule editor at 120 columns read "Box Pusher —…").
        for screen in self.screen_stack:
            for header in screen.query(Header):
                header.query_one(HeaderTitle).update(header.format_title())

    def _redraw_all(self) -> None:
        self.screen.refresh()  # the whole screen dirty: the next frame is a full one

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if _shared_view() and action != "quit":
            return False  # help, theme, palette: keys no spectator's press can reach
        return super().check_action(action, parameters)

    def get_default_screen(self) -> Screen:
        # The home screen is the app's first screen, not one pushed over Textual's empty default
        # screen: that one was composed, laid out and drawn for nothing (~60 ms of the first
        # frame). Keys typed before the home screen is in place wait for it, as for any screen.
        home: Screen = HomeScreen(self.folder, first_frame=self.initial_file is None)
        if _person(role=True) == "spectator":  # they watch, and see nothing else
            from studio.screens.haunted import watch_folder

            home = watch_folder(self.folder)
        self.expect_screen(home)
        return home

    async def on_mount(self) -> None:
        home = self.screen
        if _shared_view():
            # The server asks for a whole frame when a spectator joins (studio.ssh.broadcast).
            asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, self._redraw_all)
        if self.initial_file is not None and self.watch is not None:
            self.watch_project_file(self.initial_file, self.watch or None)
        elif self.initial_file is not None:
            self.open_project_file(self.initial_file)
        if self.freeze_startup:
            self.call_after_refresh(_freeze_startup_objects)
        # The app is ready once the home screen is mounted (its folder is read in a thread, see
        # HomeScreen.reload) and a project opened with it is as far along. Textual draws nothing
        # before the app is ready, so the first frame does not wait longer for this.
        await AwaitMount(home, [home])
        if self.screen is not home:
            await AwaitMount(self.screen, [self.screen])

    # ---------------------------------------------------------------------------- actions

    def open_documents(self) -> list[Document]:
        """The documents of the screens on the stack, each once, newest first."""
        from studio.widgets.document import Document

        found: list[Document] = []
        for screen in reversed(self.screen_stack):
            document = getattr(screen, "document", None)
            if isinstance(document, Document) and all(d is not document for d in found):
                found.append(document)
        return found

    @work(exclusive=True, group="quit")
    async def action_quit(self) -> None:
        """Quit, asking first about every open project with unsaved changes.

        Screens holding work of their own outside a project (the AI editor's file) answer
        ``confirm_close()`` first.
        """
        from studio.widgets.save import SavePath

        for screen in reversed(self.screen_stack):
            confirm_close = getattr(screen, "confirm_close", None)
            if confirm_close is not None and not await confirm_close():
                return
        for document in self.open_documents():
            if not await SavePath(self, document).confirm_leave():
                return
        self.exit()

    def action_help(self) -> None:
        from studio.screens.help import HelpScreen, about, binding_rows

        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(self.screen.title or "studio", binding_rows(self.screen),
                                    about(self.screen)))

    def action_cycle_theme(self) -> None:
        names = list(THEMES)
        self._apply_theme(names[(names.index(self.theme_name) + 1) % len(names)])
        self.notify_in_place("theme", f"Theme: {self.theme_name}")

    def notify_in_place(self, key: str, message: str, timeout: float | None = None) -> None:
        """Show ``message`` in place of the last notification shown under ``key``, if it is
        still up: ctrl+z held down stacked a toast per step up the screen."""
        old = self._notes_in_place.get(key)
        if old is not None and old in self._notifications:
            self._unnotify(old, refresh=False)
        note = Notification(inert(message, log=True), "", "information",
                            self.NOTIFICATION_TIMEOUT if timeout is None else timeout)
        self._notes_in_place[key] = note
        self.post_message(Notify(note))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        own = getattr(screen, "palette_commands", None)
        if own is not None:
            for title, help_text, action in own():
                # Actions may carry arguments ("open('map')"): let Textual parse and run them.
                yield SystemCommand(title, help_text,
                                    lambda action=action: screen.run_action(action))
        yield SystemCommand("Help", "Show the keys of this screen", self.action_help)
        for name in THEMES:
            if name != self.theme_name:
                yield SystemCommand(
                    f"Theme: {name}", f"Switch to the {name} theme",
                    lambda name=name: self._apply_theme(name),
                )
        yield SystemCommand("Quit", "Quit the studio (asks about unsaved changes)",
                            self.action_quit)
