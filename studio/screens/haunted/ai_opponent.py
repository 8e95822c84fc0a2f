"""The AI editor's test opponent (f4 / ctrl+o), kept out of the editor's module: the list is the
session's (:mod:`studio.sessions.haunted.opponents`), so a student picks another team only as it
was submitted, and a team without a submission is listed, not pickable, with the reason.
"""

from __future__ import annotations

from textual import work

from studio.engines.haunted.builtin_ais import PREFIX
from studio.screens.haunted.team_dialogs import PickDialog
from studio.sessions import access
from studio.sessions.haunted.opponents import opponent_choices

DEFAULT_OPPONENT = PREFIX + "greedy"


class OpponentKey:
    """The ``opponent`` action and what it chose (the editor binds the key and plays it).

    Expects of the screen: ``model``, ``app`` and ``refresh_view``.
    """

    opponent = DEFAULT_OPPONENT
    """What the test match plays: ``builtin:NAME``, a team, or ``submitted:TEAM``."""
    opponent_shown = DEFAULT_OPPONENT
    """How the info line names it (a submission with its time and hash)."""

    @work(exclusive=True, group="dialog")
    async def action_opponent(self) -> None:
        choices = opponent_choices(self.model, access.current())  # type: ignore[attr-defined]
        chosen = await self.app.push_screen_wait(PickDialog(  # type: ignore[attr-defined]
            "Test opponent", [(c.value, c.label) for c in choices], self.opponent,
            disabled=[c.value for c in choices if c.reason]))
        if chosen:
            self.opponent = chosen
            self.opponent_shown = next(c.shown for c in choices if c.value == chosen)
            self.refresh_view()  # type: ignore[attr-defined]
