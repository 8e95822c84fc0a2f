"""The rules of Haunted Tiles in plain words (haunted.md §2, §5–§7), for players and AI authors."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Header, Markdown

from studio.screens.haunted.base import QUIET_DOCUMENT_KEYS, HauntedScreen
from studio.widgets.footer import KeysFooter

RULES = """\
# How Haunted Tiles is played

**The board.** A square of tiles (5×5 to 15×15). Every tile has a strength from 3 (whole) down to
0 (a hole). Two teams, *home* and *away*, each move three monsters.

**A turn.** Both AIs see the same board and answer at the same time with one move per living
monster: `north`, `south`, `east`, `west`, or `none` to jump on the spot.

- Every move hits one tile: a jump hits the monster's own tile, a step hits the tile it lands on.
  A hit lowers the strength by one.
- Jumps happen before steps; within each, home monsters 0, 1, 2 go first, then away 0, 1, 2.
- A monster dies when its own hit breaks its tile, when it steps onto a hole, or when it steps off
  the board. At the end of the turn, every monster standing on a hole falls too.
- Monsters never block each other: they share tiles and pass through each other.

**A round** ends when a team has no monster left. If the last monsters of both teams fall in the
same turn, the team that broke more tiles wins the round; equal counts make it a tie.

**A match** is best of 5 rounds (set per match), stopping once it is decided. Teams level after the
planned rounds play extra rounds, up to 10 in all; then a seeded coin toss decides. If every round
was a tie, the coin toss comes at once. The maps change from round to round in a fixed rotation.

**Your AI** is a file defining `main(game_state, side)`. `side` is `"home"` or `"away"`;
`game_state` holds `boardSize`, `tileStates` (rows of strengths) and `teamStates` (each monster's
`coord` as `[row, col]` and `isDead`). Return a list of three moves, one per monster (dead ones
are ignored), or one move per living monster. Each answer must come within the time limit
(2 seconds by default).

**What loses a round at once:** an error in your code, an answer that is not a list of moves, or
no answer in time. If both AIs fail in the same turn, the round is a tie. A move name that is not
one of the five counts as `none`, with a warning in the log.

**Safety.** AIs never run inside the studio: each one runs in its own sandboxed process, with the
time limit enforced by ending that process. Module state lasts for one round.
"""


class RulesScreen(HauntedScreen):
    """The rules, scrollable with the keyboard."""

    SCREEN_TITLE = "rules"
    AUTO_FOCUS = "#rules"
    DEFAULT_CSS = """
    RulesScreen #rules { padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [*QUIET_DOCUMENT_KEYS, Binding("escape", "back", "Back")]

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="rules"):
            yield Markdown(RULES)
        yield KeysFooter()
