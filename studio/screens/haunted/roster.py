"""The roster, for a teacher logged in over SSH (``R`` in Teams & AIs): who each key is.

The session never opens the roster file: every change goes to the server over the channel it
gave this (teacher's) session, and the server checks it, writes it and answers with everyone
(:mod:`studio.sessions.roster_channel`). Each request is one short exchange on this machine, so
a form waits for its answer and keeps what was typed when the server refuses it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Header, Static

from studio.screens.dialogs import ConfirmDialog
from studio.screens.formatting import inert
from studio.screens.haunted.base import QUIET_DOCUMENT_KEYS, HauntedScreen
from studio.screens.haunted.team_dialogs import Field, FormDialog, PickDialog
from studio.sessions import roster_channel
from studio.sessions.roster_channel import RosterUnavailable
from studio.storage.errors import ProjectError
from studio.storage.roster import ROLES
from studio.widgets.footer import KeysFooter

COLUMNS = ("Name", "Role", "Team", "Keys")
NO_CHANNEL = ("The roster is changed by a teacher logged in over SSH to a server started with "
              "--roster, or at the server with: studio roster FILE")


class RosterKey:
    """Mixin for Teams & AIs: ``R`` opens the roster where this session may change it."""

    def action_roster(self) -> None:
        if not roster_channel.available():
            self.notify(NO_CHANNEL, title="Roster", severity="warning", timeout=6)
            return
        self.app.push_screen(RosterScreen(self.document))


class RosterScreen(HauntedScreen):
    """Everyone in the roster, their role, team and keys; changes go through the server."""

    SCREEN_TITLE = "roster"
    AUTO_FOCUS = "#people"
    HELP_ABOUT: ClassVar[str] = (
        "Who may log in and as whom. Each person has a role (teacher, student or spectator), a "
        "student a team of this project, and one or more SSH public keys (the line of their "
        "id_ed25519.pub). The server keeps the file and checks every change; it counts from "
        "each person's next login.")
    DEFAULT_CSS = """
    RosterScreen #people { height: 1fr; }
    RosterScreen #details { height: auto; padding: 0 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "add", "Add"),
        Binding("enter", "role", "Role/team", priority=True),
        Binding("k", "add_key", "Add key"),
        Binding("K", "remove_key", "Remove key"),
        Binding("d", "remove", "Remove"),
        Binding("f5,ctrl+r", "reload", "Reload", show=False),
        Binding("escape", "back", "Back"),
        *QUIET_DOCUMENT_KEYS,
    ]

    def __init__(self, document) -> None:
        super().__init__(document)
        self.people: list[dict[str, Any]] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield DataTable(id="people", cursor_type="row", zebra_stripes=True)
        yield Static("", id="details", markup=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(DataTable).add_columns(*COLUMNS)
        self.action_reload()

    # -- the exchange -----------------------------------------------------------------------------

    def ask(self, op: str, **fields: Any) -> str:
        """Send one request; "" when done (the table shows everyone after it), else why not."""
        try:
            self.show(roster_channel.request(op, **fields))
        except ProjectError as exc:
            return exc.message
        except RosterUnavailable as exc:
            return str(exc)
        return ""

    def show(self, people: list[dict[str, Any]]) -> None:
        self.people = people
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        for person in people:
            keys = person.get("keys", [])
            first = keys[0]["fingerprint"][:20] + "…" if keys else ""
            table.add_row(inert(person.get("name", "")), person.get("role", ""),
                          inert(person.get("team", "")), f"{len(keys)}  {first}")
        if people:
            table.move_cursor(row=min(max(row, 0), len(people) - 1))
        self._details()

    @on(DataTable.RowHighlighted)
    def _details(self) -> None:
        person = self.selected
        lines = []
        if person is not None:
            for number, key in enumerate(person.get("keys", []), start=1):
                lines.append(f"key {number}: {key['type']} {key['fingerprint']} {key['comment']}")
        lines.append("Changes count from each person's next login.")
        self.query_one("#details", Static).update(inert("\n".join(lines), log=True))

    @property
    def selected(self) -> dict[str, Any] | None:
        tables = self.query(DataTable)
        if not tables or not self.people:
            return None
        row = tables.first().cursor_row
        return self.people[row] if 0 <= row < len(self.people) else None

    def _teams(self) -> list[str]:
        return [str(team.get("name", "")) for team in self.model.body.get("team", [])]

    # -- keys -------------------------------------------------------------------------------------

    def action_reload(self) -> None:
        problem = self.ask("list")
        if problem:
            self.notify(inert(problem), title="Roster", severity="error", timeout=8)

    @work(exclusive=True, group="dialog")
    async def action_add(self) -> None:
        def submit(values: dict[str, str]) -> str:
            team = values["team"].strip() if values["role"] == "student" else ""
            return self.ask("add", name=values["name"].strip(), role=values["role"], team=team,
                            key=values["key"].strip(), teams=self._teams())

        await self.app.push_screen_wait(FormDialog(
            "Add a person",
            [Field("name", "Name"), Field("role", "Role", "student", ROLES),
             Field("team", "Team (students)", placeholder=", ".join(self._teams()[:3])),
             Field("key", "Public key", placeholder="ssh-ed25519 AAAA… (their .pub line)")],
            submit, "Add", "The key is the one line of their id_ed25519.pub (never the private "
            "key file)."))

    @work(exclusive=True, group="dialog")
    async def action_role(self) -> None:
        person = self.selected
        if person is None:
            return
        name = person["name"]

        def submit(values: dict[str, str]) -> str:
            team = values["team"].strip() if values["role"] == "student" else ""
            return self.ask("set", name=name, role=values["role"], team=team, teams=self._teams())

        await self.app.push_screen_wait(FormDialog(
            f"Role of {name}", [Field("role", "Role", person["role"], ROLES),
                                Field("team", "Team (students)", person.get("team", ""))],
            submit, "Apply"))

    @work(exclusive=True, group="dialog")
    async def action_add_key(self) -> None:
        person = self.selected
        if person is None:
            return
        name = person["name"]
        await self.app.push_screen_wait(FormDialog(
            f"Another key for {name}",
            [Field("key", "Public key", placeholder="ssh-ed25519 AAAA… (their .pub line)")],
            lambda values: self.ask("add-key", name=name, key=values["key"].strip()), "Add"))

    @work(exclusive=True, group="dialog")
    async def action_remove_key(self) -> None:
        person = self.selected
        if person is None:
            return
        choices = [(str(number), f"{key['type']} {key['fingerprint']} {key['comment']}")
                   for number, key in enumerate(person.get("keys", []), start=1)]
        picked = await self.app.push_screen_wait(PickDialog(f"Remove a key of {person['name']}",
                                                            choices))
        if picked:
            self._said(self.ask("remove-key", name=person["name"], number=int(picked)))

    @work(exclusive=True, group="dialog")
    async def action_remove(self) -> None:
        person = self.selected
        if person is None:
            return
        if await self.app.push_screen_wait(ConfirmDialog(
                "Remove from the roster", f"Remove {person['name']}? Their keys no longer log in "
                "(a session open now goes on until it ends).", "Remove")):
            self._said(self.ask("remove", name=person["name"]))

    def _said(self, problem: str) -> None:
        if problem:
            self.notify(inert(problem), title="Roster", severity="error", timeout=8)

    def action_back(self) -> None:
        self.dismiss(None)
