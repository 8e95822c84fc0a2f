"""The lines of the tournament screen's entrants and settings panes (haunted.md §13.2).

Each value that does not fit its pane ends in "…" at the edge rather than stopping mid-word.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

from studio.engines.common.width import text_width
from studio.screens.formatting import fit, inert
from studio.screens.haunted import tournament_setup as setup
from studio.storage.haunted.project import HauntedModel
from studio.widgets.canvas import UIStyles


def entrant_lines(model: HauntedModel, index: int, styles: UIStyles, width: int,
                  skipped: Mapping[str, str] | None = None,
                  submitted: Mapping[str, str] | None = None) -> list[Text]:
    """One line per entrant: its number and name, and where there is room how it runs (a team
    in ``submitted`` plays its submission of that SHA-256, not its file); an entrant
    ``skipped`` (no submission in time) says so and why, whatever the width."""
    teams = {t.name: t for t in model.teams()}
    wide = width >= 36  # details only where there is room for them
    lines: list[Text] = []
    for k, name in enumerate(setup.tournament(model, index)["entrants"], 1):
        team = teams.get(name)
        about = f"{team.runtime} {team.source}" if team else "not in the registry"
        if submitted and name in submitted:
            about = f"submission {submitted[name][:8]}"
        if team and team.school:
            about += f" · {team.school} ({team.school_size})"
        # Cut by the columns a name takes, "…" flush: Rich's own cut of a name in CJK letters
        # or emoji left a space before the "…" where half a wide letter would have gone.
        head = f"{k:>2} {inert(name)}"
        if skipped and name in skipped:
            head += f"  skipped: {inert(skipped[name])}"
        if width > 10:
            head = fit(head, width)
        if skipped and name in skipped:
            lines.append(Text(head, styles.warning))
            continue
        line = Text(head)
        room = width - text_width(head) - 2
        shown = inert(about) if wide or not team else ""
        if shown and (width <= 10 or room > 1):
            line.append("  ")
            line.append(fit(shown, room) if width > 10 else shown, styles.muted)
        lines.append(line)
    return lines


def setting_lines(model: HauntedModel, index: int, styles: UIStyles, width: int) -> list[Text]:
    """One line per setting; what the mode ignores is muted. A long value (the rotation's maps)
    is cut with "…": ``e`` on it edits the whole of it."""
    return [Text(fit(inert(text), width) if width > 20 else inert(text),
                 styles.text if field.applies else styles.muted)
            for field in setup.fields(model, index)
            for text in [f" {field.label:<10} {field.value}"]]
