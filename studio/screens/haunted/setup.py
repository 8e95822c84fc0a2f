"""Match setup (haunted.md §13.2, the original "Team Configuration" card): who plays, on which
maps, how many rounds, the time limit, the seed and the pace of the match view."""

from __future__ import annotations

import secrets
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Header, Input, Label, Select, Static

from studio.engines.haunted.builtin_ais import NAMES, PREFIX
from studio.engines.haunted.match import MatchConfig
from studio.screens.formatting import inert
from studio.screens.haunted.base import QUIET_DOCUMENT_KEYS, HauntedScreen
from studio.screens.haunted.screens import make
from studio.sessions import access
from studio.sessions.haunted.confinement import refuse_unconfined, warning
from studio.sessions.haunted.entrants import MatchPlan
from studio.sessions.haunted.opponents import opponent_choices, with_opponents
from studio.storage import ProjectError
from studio.storage.haunted.kind import requires_confinement
from studio.storage.haunted.tournaments import new_match_swaps
from studio.widgets.footer import KeysFooter
from studio.widgets.toggles import Checkbox

SWAP_LINES = {True: "home and away change every round, so neither team always acts first",
              False: "the home team is home every round and acts first in each phase"}
"""What swapping sides changes (home acts first in each phase of a turn, spec §5.2); indented
under its box by padding, so a line folded at 60 columns stays indented too."""

MAP_MODES = (("rotation", "the project's rotation"), ("one", "one map"),
             ("custom", "my own rotation"))


def parse_setup(values: dict[str, Any], maps: dict, default_rotation: tuple[str, ...],
                broken: dict[str, str] | None = None) -> dict[str, Any]:
    """Check the form; returns the plan's fields or raises ValueError naming the field.

    ``broken``: the project's maps that are invalid now (name → what is wrong).
    """
    def number(name: str, kind=int, low=None, high=None):
        text = str(values[name]).strip()
        try:
            value = kind(text)
        except ValueError:
            raise ValueError(f"{name}: {text!r} is not a number") from None
        if value != value:  # nan: every comparison below is false, and it passed them
            raise ValueError(f"{name}: {text!r} is not a number")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"{name}: must be from {low} to {high}")
        return value

    rounds = number("rounds", int, 1, 99)
    if rounds % 2 == 0:
        raise ValueError("rounds: must be odd (1, 3, 5, …) so that a match can be decided")
    max_rounds = number("max rounds", int, rounds, 99)
    time_limit = number("time limit", float, 0.05, 60)
    seed_text = str(values["seed"]).strip()
    seed = number("seed", int, 0, 2**64 - 1) if seed_text else secrets.randbits(63)
    pace = number("pace", float, 0, 10)
    mode = values["map mode"]
    if mode == "rotation":
        rotation = default_rotation
    elif mode == "one":
        rotation = (values["map"],)
    else:
        rotation = tuple(n.strip() for n in str(values["rotation"]).split(",") if n.strip())
        if not rotation:
            raise ValueError("rotation: name at least one map, separated by commas")
    for name in rotation:
        if name not in maps and name in (broken or {}):
            raise ValueError(f"maps: map {name!r} is not playable ({broken[name]}): "
                             "fix it in Maps (p on the hub)")
    unknown = [n for n in rotation if n not in maps]
    if unknown:
        raise ValueError(f"maps: no map named {unknown[0]!r} (maps: {', '.join(maps)})")
    return {"config": MatchConfig(rounds, max_rounds, time_limit, maps=rotation,
                                  swap_sides=bool(values["swap sides"])),
            "seed": seed, "pace": pace}


class MatchSetupScreen(HauntedScreen):
    """The form; ``enter`` on Start or ``f5`` opens the match view."""

    _problem_shown = False
    """A reason is shown under the form (it then follows every change of a field)."""

    SCREEN_TITLE = "new match"
    AUTO_FOCUS = "#home"
    DEFAULT_CSS = """
    MatchSetupScreen VerticalScroll { padding: 0 1; }
    MatchSetupScreen .row { height: auto; }
    MatchSetupScreen .row Label { width: 14; padding-top: 0; color: $text-muted; }
    MatchSetupScreen .row Select { width: 1fr; }
    MatchSetupScreen .row Input { width: 1fr; }
    MatchSetupScreen #start { margin-top: 1; }
    MatchSetupScreen #problem { color: $error; height: auto; }
    MatchSetupScreen #confinement { color: $warning; height: auto; }
    MatchSetupScreen #swap-note { color: $text-muted; height: auto; padding-left: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *QUIET_DOCUMENT_KEYS,
        Binding("f5,ctrl+r", "start", "Start"),
        Binding("escape", "back", "Back"),
    ]
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("start", "Start the match", "Play the match with these settings (f5 or ctrl+r)"),
    ]

    def compose(self) -> ComposeResult:
        model = self.model
        config = model.config()
        # Names from the project and its teams CSV: shown as text, never read as markup.
        # A team by its name; a submitted version with its time and hash; a team a student
        # may only play as submitted, without a submission, with the reason (refused at start).
        registry = {t.name for t in model.teams()}
        teams = [(Text(inert(c.value if c.value in registry else c.label.removeprefix("team "))),
                  c.value) for c in opponent_choices(model, access.current())
                 if not c.value.startswith(PREFIX)]
        builtins = [(f"{PREFIX}{n} (built-in)", PREFIX + n) for n in NAMES]
        choices = teams + builtins
        home = teams[0][1] if teams else PREFIX + "greedy"
        away = teams[1][1] if len(teams) > 1 else PREFIX + "lookahead"
        maps = list(model.maps())
        yield Header()
        with VerticalScroll():
            yield self._row("home team", Select(choices, value=home, allow_blank=False,
                                                id="home", compact=True))
            yield self._row("away team", Select(choices, value=away, allow_blank=False,
                                                id="away", compact=True))
            yield self._row("map mode", Select([(label, key) for key, label in MAP_MODES],
                                               value="rotation", allow_blank=False,
                                               id="map-mode", compact=True))
            yield self._row("map", Select([(Text(inert(m)), m) for m in maps],
                                          value=maps[0] if maps else Select.BLANK,
                                          allow_blank=not maps, id="map", compact=True))
            yield self._row("rotation", self._input(", ".join(config.maps), "rotation"))
            yield self._row("rounds", self._input(str(config.rounds), "rounds"))
            yield self._row("max rounds", self._input(str(config.max_rounds), "max-rounds"))
            yield self._row("time limit s", self._input(f"{config.time_limit:g}", "time-limit"))
            yield self._row("seed", self._input(str(secrets.randbits(31)), "seed"))
            yield self._row("pace s/turn", self._input("0.5", "pace"))
            swaps = new_match_swaps(model.body)
            yield Checkbox("swap sides", swaps, id="swap", compact=True)
            yield Static(SWAP_LINES[swaps], id="swap-note")
            yield Checkbox("no time limit (debugging; never in tournaments)", False,
                           id="no-limit", compact=True)
            note = warning()
            shown = Static(Text(f"⚠ {note}") if note else "", id="confinement")
            shown.display = bool(note)
            yield shown
            yield Static(id="problem")
            yield Button("Start", id="start", variant="primary", compact=True)
        yield KeysFooter()

    @staticmethod
    def _row(label: str, widget) -> Horizontal:
        return Horizontal(Label(label), widget, classes="row")

    @staticmethod
    def _input(value: str, id: str) -> Input:
        return Input(value, id=id, compact=True)

    def on_mount(self) -> None:
        super().on_mount()
        self._show_map_fields()

    @on(Select.Changed, "#map-mode")
    def _show_map_fields(self) -> None:
        mode = self.query_one("#map-mode", Select).value
        self.query_one("#map").parent.display = mode == "one"
        self.query_one("#rotation").parent.display = mode == "custom"

    def values(self) -> dict[str, Any]:
        """The form as the user filled it in."""
        def text(id: str) -> str:
            return self.query_one(f"#{id}", Input).value

        return {
            "home": self.query_one("#home", Select).value,
            "away": self.query_one("#away", Select).value,
            "map mode": self.query_one("#map-mode", Select).value,
            "map": self.query_one("#map", Select).value,
            "rotation": text("rotation"), "rounds": text("rounds"),
            "max rounds": text("max-rounds"), "time limit": text("time-limit"),
            "seed": text("seed"), "pace": text("pace"),
            "swap sides": self.query_one("#swap", Checkbox).value,
            "no limit": self.query_one("#no-limit", Checkbox).value,
        }

    def plan(self) -> MatchPlan:
        """The match the form describes.

        Raises:
            ValueError: a field is not valid (the message names it).
        """
        model = self.model
        values = self.values()
        maps = model.maps()
        fields = parse_setup(values, maps, model.config().maps, model.broken_maps())
        required = requires_confinement(model.body)
        try:
            refuse_unconfined(required, "this project")
        except ProjectError as exc:
            raise ValueError(f"confinement: {exc.message}") from None
        plan = MatchPlan(str(values["home"]), str(values["away"]), fields["config"],
                         fields["seed"], maps, tuple(model.teams()), self.folder,
                         no_time_limit=bool(values["no limit"]), pace=fields["pace"],
                         require_confinement=required)
        try:
            return with_opponents(plan, model, access.current())
        except ProjectError as exc:
            raise ValueError(exc.message) from None

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        plan = self._checked()
        if plan is not None:
            self.app.push_screen(make("match", self.document, plan=plan))

    def _checked(self) -> MatchPlan | None:
        """The plan, or None with the reason shown under the form."""
        problem = self.query_one("#problem", Static)
        try:
            plan = self.plan()
        except ValueError as exc:
            self._problem_shown = True
            problem.update(Text(inert(f"✗ {exc}", log=True)))
            return None
        self._problem_shown = False
        problem.update("")
        return plan

    @on(Checkbox.Changed, "#swap")
    def _show_swap_note(self, event: Checkbox.Changed) -> None:
        self.query_one("#swap-note", Static).update(SWAP_LINES[bool(event.value)])

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def _field_changed(self) -> None:
        # A reason shown stays true to the form: fixed fields clear it, a new fault replaces it
        # (it stayed up after the rounds were mended, until the next f5).
        if self._problem_shown:
            self._checked()
