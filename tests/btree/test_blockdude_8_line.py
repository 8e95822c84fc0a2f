"""Block Dude 8 of the corpus can be won: a known line, pressed key by key as in play, ends in a win.

The studio's solver does not find a line for this level within its limits (README, ``studio
solve``). Whether the level can be won at all under the corpus rules was in doubt (hand counts of
its blocks came out one short), so this line settles it and keeps settling it: it was found
outside the studio by a search over takes and drops (66 of them; the walks between are the
shortest ones) and is not known to be shortest. The trick it shows: the three blocks of the
right-hand room are fetched down into the lower area through a four-high stair in columns 17 to
20 before the climb to the upper area starts.

Buttons: ``L`` left, ``R`` right, ``U`` up, ``D`` down, a count repeats the button.
"""

from __future__ import annotations

from studio.commands.btree.formats import load_compiled
from studio.engines.btree.play.session import ChoiceWait, GameOver, PlaySession
from tests.btree.corpus import corpus_dir

LINE = """
R3 D L2 D R3 D L3 U D R4 U D L4 U D R4 D L3 U2 D R6 D L4 U2 D R6 D L4 U2 L7 D U L D L2 D U2
D R4 D L2 D R2 U D U2 D R4 U2 D L7 D R5 U3 D L8 D R5 U3 D L9 D R6 U3 D U2 R2 D L7 D R U4 R3
D L8 D R U4 R3 D L8 U D R2 D L U D R3 D L2 U D R3 U D L3 U2 D R4 D L2 U3 D R6 D L3 U3 D R6 D
L3 U4 D R9 L D L U L2 U4 D R8 L D L U L U4 D R7 L D L U9 L U L D R D L D R D R L D U4 D R5
U2 R3 D L U3 L2 U4 L D R6 U2 R4 D L2 U3 L2 U4 L D R6 U2 R4 D L2 U3 L2 D R U2 R4 D L2 U3 L3 D
R2 U2 R4 U4 R D L7 U3 L3 D R2 U2 R4 U4 R D U3 R3
"""
BUTTONS = {"L": "left", "R": "right", "U": "up", "D": "down"}


def buttons(line: str) -> list[str]:
    """The line's buttons, counts expanded."""
    return [BUTTONS[word[0]] for word in line.split() for _ in range(int(word[1:] or 1))]


def test_the_line_is_read_as_485_presses_with_66_takes_and_drops() -> None:
    presses = buttons(LINE)
    assert len(presses) == 485
    assert presses.count("down") == 66
    assert buttons("R3 D") == ["right"] * 3 + ["down"]


def test_block_dude_8_is_won_by_the_line() -> None:
    level = corpus_dir() / "games" / "games_yaml" / "blockdude_levels" / "blockdude_8.yaml"
    session = PlaySession(load_compiled(level), seed=0, seats={"1": "human"})
    for turn, button in enumerate(buttons(LINE)):
        wait = session.advance(show_displays=False, show_auto=False)
        assert isinstance(wait, ChoiceWait), f"press {turn}: the game ended early ({wait})"
        index = session.engine.choices_by_button.get(button)  # as the play screen takes a key
        assert index is not None, f"press {turn} ({button}): offered {[c.button for c in wait.choices]}"
        session.choose(index)
    end = session.advance(show_displays=False, show_auto=False)
    assert isinstance(end, GameOver)
    assert end.result == {"result": "win", "player": 1}
