"""The AI editor (haunted.md §13.6, the original's in-app code window): an AI's source with
highlighting and line numbers, saved atomically, syntax-checked and run in a one-round test.

The code is never run here: the syntax check compiles Python (compiling runs nothing) or has V8
parse JavaScript in a worker process, and the test match runs it in the match view's workers.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Header, Static, TextArea
from textual.widgets.text_area import TextAreaTheme

from studio.engines.haunted.builtin_ais import BUILTINS, PREFIX
from studio.screens.formatting import inert
from studio.screens.haunted.ai_opponent import OpponentKey
from studio.screens.haunted.ai_submit import SubmitKey
from studio.screens.haunted.base import HauntedScreen
from studio.screens.haunted.screens import make
from studio.screens.haunted.team_dialogs import Field, FormDialog
from studio.sessions import access
from studio.sessions.haunted.ai_files import export_copy, read_ai_source
from studio.sessions.haunted.checks import SyntaxProblem, check_syntax, first_map, one_round_plan
from studio.sessions.haunted.opponents import with_opponents
from studio.sessions.haunted.submissions import utc_now
from studio.storage import ProjectError, StaleFileError, atomic_write, served
from studio.storage.haunted.kind import source_path
from studio.widgets.footer import KeysFooter
from studio.widgets.save import stale_dialog, unsaved_dialog

NO_HIGHLIGHTING = "no highlighting (install textual[syntax])"

_ANSI_COLOURS = {
    "green": ("string", "string.documentation", "inline_code"),
    "bright_black": ("comment",),
    "magenta": ("keyword", "conditional", "keyword.function", "keyword.return",
                "keyword.operator", "repeat", "exception", "include"),
    "cyan": ("number", "float", "boolean", "constant.builtin", "json.null"),
    "yellow": ("function", "function.call", "method", "method.call"),
    "blue": ("class", "type", "type.class", "type.builtin", "constructor"),
}
ANSI_CODE_THEME = TextAreaTheme("studio-ansi", syntax_styles={
    name: Style(color=colour) for colour, names in _ANSI_COLOURS.items() for name in names})
"""Highlighting in the terminal's own 16 colours; the rest comes from the app's CSS."""
CODE_THEMES = {"dark": "monokai", "light": "github_light", "ansi": ANSI_CODE_THEME.name}
"""The studio's theme -> the code's colours (monokai's fixed colours would break ``ansi``)."""


class AIEditorScreen(OpponentKey, SubmitKey, HauntedScreen):
    """Edit one AI file of the registry (or read a built-in's source).

    Args:
        document: the project.
        team_index: the registry entry whose AI is edited (a built-in opens read-only).
        path: an AI file to edit instead of an entry's.
        seed: the seed of the test matches (random when not given).
    """

    SCREEN_TITLE = "AI editor"
    AUTO_FOCUS = "#code"
    DEFAULT_CSS = """
    AIEditorScreen #info { height: 1; padding: 0 1; background: $boost; color: $text-muted;
                           text-wrap: nowrap; text-overflow: ellipsis; }
    AIEditorScreen #code { height: 1fr; }
    AIEditorScreen #status { height: auto; max-height: 3; padding: 0 1; }
    AIEditorScreen #status.-error { color: $text-error; }
    """
    # Priority: the focused text area would otherwise take f6 (select line), ctrl+e (line end)
    # and escape (focus next) for itself.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("f5,ctrl+r", "run", "Run test", priority=True),
        Binding("f6,ctrl+l", "check", "Check", priority=True),
        Binding("f4,ctrl+o", "opponent", "Opponent", priority=True),
        Binding("ctrl+e", "export", "Export", priority=True),
        Binding("f8,ctrl+t", "submit", "Submit", priority=True),
        Binding("escape", "back", "Back", priority=True),
        # Textual's text area has no keys for the start and end of the whole text.
        Binding("ctrl+home", "edge(True)", "Start of the file", show=False),
        Binding("ctrl+end", "edge(False)", "End of the file", show=False),
        # The text area has these keys too; priority here lists them in the ? help.
        Binding("ctrl+z", "undo", "Undo typing", show=False, priority=True),
        Binding("ctrl+y", "redo", "Redo typing", show=False, priority=True),
    ]
    EXPLAINED: ClassVar[tuple[str, ...]] = ("submit",)
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("save", "Save the AI file", "Write the code to its file, with a backup (ctrl+s)"),
        ("run", "Run a test match", "One round as team Test, at home, against the opponent (f5 or ctrl+r)"),
        ("check", "Check the syntax", "Compile (Python) or parse (JavaScript) without running (f6 or ctrl+l)"),
        ("opponent", "Choose the test opponent", "A built-in or a team of the registry (f4 or ctrl+o)"),
        ("export", "Export the AI file", "Save a copy of the code under another name (ctrl+e)"),
        ("submit", "Submit the AI", "Check it, then hand it in for its team with the time and "
         "hash (f8 or ctrl+t)"),
    ]

    def __init__(self, document, team_index: int | None = None, path: Path | None = None,
                 seed: int | None = None) -> None:
        super().__init__(document)
        self.builtin: str | None = None
        self.load_error: ProjectError | None = None
        """Why the file cannot be edited (outside the project, not a regular file, too big):
        the editor then shows it read-only and empty, and never saves over it."""
        team = self.model.team_tables[team_index] if team_index is not None else {}
        self._disk: bytes | None = None  # a missing file: ctrl+s creates it
        if team.get("runtime") == "builtin":
            self.builtin = str(team.get("source"))
            self.path = BUILTINS[self.builtin]
        else:
            self.path = Path(path) if path is not None else self.folder / str(team.get("source"))
        try:
            refused = access.current().open_source(team) if team_index is not None else ""
            if refused:
                raise ProjectError(refused)
            if self.builtin is None and path is None:
                self.path = source_path(self.folder, str(team.get("source")))
            self._disk = read_ai_source(self.path)
        except ProjectError as exc:
            self.load_error = exc
        self.js = self.path.suffix.lower() == ".js"
        self.seed = seed
        self.problem: SyntaxProblem | None = None
        """The last syntax check's error (None when it passed or none ran)."""
        self._saved_text = (self._disk or b"").decode("utf-8", errors="replace")
        self._modified = False
        self.team_index = team_index
        self.clock = utc_now

    @property
    def read_only(self) -> bool:
        return self.builtin is not None or self.load_error is not None

    @property
    def shown_path(self) -> str:
        if self.builtin is not None:
            return f"built-in {self.builtin}"
        try:
            return self.path.resolve().relative_to(self.folder.resolve()).as_posix()
        except ValueError:
            return str(self.path)

    @property
    def area(self) -> TextArea:
        return self.query_one("#code", TextArea)

    @property
    def modified(self) -> bool:
        """Whether the text differs from the file as last read or saved."""
        return self.is_mounted and self.area.text != self._saved_text

    def compose(self) -> ComposeResult:
        language = "javascript" if self.js else "python"
        area = TextArea.code_editor(self._saved_text, read_only=self.read_only, id="code")
        self.highlighting = language in area.available_languages
        area.language = language if self.highlighting else None
        area.register_theme(ANSI_CODE_THEME)
        yield Header()
        yield Static(id="info")
        yield area
        yield Static(id="status")
        yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()
        if self.load_error is not None:
            self.status(f"✗ {self.load_error}", error=True)
        self._code_theme()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._code_theme())

    def _code_theme(self) -> None:
        self.area.theme = CODE_THEMES.get(getattr(self.app, "theme_name", "dark"), "monokai")

    def _show_title(self) -> None:
        self.title = f"{self.document.name} — {self.SCREEN_TITLE}"
        mark = " (read-only)" if self.read_only else " ● modified" if self._modified else ""
        self.sub_title = self.shown_path + mark

    def refresh_view(self) -> None:
        board = first_map(self.model)
        parts = [self.shown_path, "JavaScript" if self.js else "Python",
                 f"test: Test vs {self.opponent_shown} (f4/^o) on {board.name if board else '?'}"]
        if not self.highlighting:
            parts.append(NO_HIGHLIGHTING)
        # One line, cut with "…" where the pane is narrower (at 80 columns the test's map).
        self.query_one("#info", Static).update(Text(inert(" · ".join(parts))))

    def status(self, text: str, error: bool = False) -> None:
        widget = self.query_one("#status", Static)
        widget.set_class(error, "-error")
        widget.update(Text(inert(text, log=True)))  # the test's outcome: what the AI raised

    @on(TextArea.Changed, "#code")
    def _changed(self) -> None:
        # The title changes only when the modified mark flips: not on every keystroke.
        if self.modified != self._modified:
            self._modified = self.modified
            self._show_title()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "save":
            return not self.read_only
        if action in ("undo", "redo"):
            return True  # the text's own history, not the project's
        return super().check_action(action, parameters)

    def action_edge(self, start: bool) -> None:
        area = self.area
        area.move_cursor((0, 0) if start else area.document.end)

    def action_undo(self) -> None:
        self.area.undo()

    def action_redo(self) -> None:
        self.area.redo()

    # ------------------------------------------------------------------------------ file

    @work(exclusive=True, group="save")
    async def action_save(self) -> None:
        await self.save_file()

    async def save_file(self) -> bool:
        """Write the text to the file (atomic, with a ``.bak``); True when saved.

        A file changed or removed on disk since it was read is not overwritten without asking:
        reload (the typed version stays one undo away), export a copy, or overwrite.
        """
        if self.read_only:
            return False
        try:
            now = read_ai_source(self.path)
        except ProjectError as exc:
            self.status(f"✗ cannot save: {exc}", error=True)
            return False
        if now != self._disk:
            answer = await self.app.push_screen_wait(stale_dialog(
                StaleFileError(self.path, missing=now is None)))
            if answer == "reload" and now is not None:
                self._reload(now)
                return False
            if answer == "save_as":
                await self.export()
                return False
            if answer != "overwrite":
                return False
        text = self.area.text
        try:
            served.make_folder(self.path.parent)
            atomic_write(self.path, text.encode("utf-8"), backup=True)
        except OSError as exc:
            self.status(f"✗ cannot save {self.shown_path}: {exc.strerror or exc}", error=True)
            return False
        except ProjectError as exc:
            self.status(f"✗ cannot save {self.shown_path}: {exc.message}", error=True)
            return False
        self._disk, self._saved_text = text.encode("utf-8"), text
        self._changed()
        self.status(f"Saved {self.shown_path} (the previous version is kept as .bak)")
        return True

    def _reload(self, data: bytes) -> None:
        text = data.decode("utf-8", errors="replace")
        area = self.area
        area.replace(text, (0, 0), area.document.end)  # an edit: ctrl+z brings the typing back
        self._disk, self._saved_text = data, text
        self._changed()
        self.status("Reloaded from disk; ctrl+z brings your version back")

    @work(exclusive=True, group="dialog")
    async def action_export(self) -> None:
        await self.export()

    async def export(self) -> None:
        """Ask for a file name and write a copy of the text there (never over a file)."""
        stem = self.builtin or self.path.stem
        suggestion = f"ais/{stem}-copy{self.path.suffix}"

        def submit(values: dict[str, str]) -> str:
            text = values["file"].strip()
            try:
                export_copy(self.folder, text, self.area.text.encode("utf-8"))
            except ProjectError as exc:
                return exc.message + (f" ({exc.hint})" if exc.hint else "")
            self.status(f"Exported a copy to {text}; still editing {self.shown_path}")
            return ""

        await self.app.push_screen_wait(FormDialog(
            "Export the AI", [Field("file", "File", suggestion)], submit, "Export",
            f"A copy of the code as it is now; relative paths start at {self.folder}."))

    def recover_unsaved(self) -> Path | None:
        """The studio is failing: the unsaved code goes to ``NAME.recovered.py`` (numbered when
        taken) beside the file, which is not touched. None when there is nothing to keep."""
        if self.read_only or not self.modified:
            return None
        for number in range(1, 100):
            mark = "recovered" if number == 1 else f"recovered-{number}"
            target = self.path.with_name(f"{self.path.stem}.{mark}{self.path.suffix}")
            try:
                atomic_write(target, self.area.text.encode("utf-8"), backup=False, exclusive=True)
            except FileExistsError:
                continue
            return target
        return None

    async def confirm_close(self) -> bool:
        """Before the editor closes (back, or quitting the studio): True when it may."""
        if not self.modified:
            return True
        answer = await self.app.push_screen_wait(unsaved_dialog(self.shown_path))
        if answer == "discard":
            return True
        return answer == "save" and await self.save_file()

    @work(exclusive=True, group="leave")
    async def action_back(self) -> None:
        if await self.confirm_close():
            self.dismiss(None)

    # ------------------------------------------------------------------------- checking

    def action_check(self) -> None:
        self.status("Checking the syntax…")
        self._check(self.area.text)

    @work(thread=True, exclusive=True, group="check")
    def _check(self, text: str) -> None:
        # A thread: JavaScript is parsed in a worker process, which takes a moment to start.
        try:
            result: SyntaxProblem | str | None = check_syntax(text, self.js, self.path.name)
        except RuntimeError as exc:
            result = str(exc)
        try:
            self.app.call_from_thread(self._checked, result)
        except RuntimeError:
            pass  # the app closed meanwhile

    def _checked(self, result: SyntaxProblem | str | None) -> None:
        if isinstance(result, str):
            self.status(f"✗ {result}", error=True)
            return
        self.problem = result
        if result is None:
            self.status("✓ No syntax errors (nothing was run)")
            return
        where = result.where()
        self.status(f"✗ {where + ': ' if where else ''}{result.message}", error=True)
        if result.line is not None:
            lines = self.area.document.line_count
            row = min(max(result.line - 1, 0), lines - 1)
            column = min(max((result.column or 1) - 1, 0), len(self.area.document[row]))
            self.area.move_cursor((row, column))
            self.area.focus()

    # ------------------------------------------------------------------------------ run

    @work(exclusive=True, group="run")
    async def action_run(self) -> None:
        if self.modified and not await self.save_file():
            return  # the test runs the file: it must hold what is on screen
        if not self.builtin:
            # A syntax error is shown where it is, as f6 shows it: run, it lost the round
            # with the error's last line only.
            try:
                problem = await asyncio.to_thread(check_syntax, self.area.text, self.js,
                                                  self.path.name)
            except RuntimeError:
                problem = None  # the checker could not start: the run says what is wrong
            if isinstance(problem, SyntaxProblem):
                self._checked(problem)
                return
        home = PREFIX + self.builtin if self.builtin else str(self.path)
        seed = self.seed if self.seed is not None else random.randrange(1, 2**31)
        plan = one_round_plan(self.model, home, self.opponent, seed)
        try:
            screen = make("match", self.document,
                          plan=with_opponents(plan, self.model, access.current()))
        except ProjectError as exc:
            self.status(f"✗ {exc.message}", error=True)
            return
        except ImportError:
            self.status("✗ The match view is not part of this build", error=True)
            return
        self.app.push_screen(screen)

