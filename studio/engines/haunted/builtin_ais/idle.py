"""Built-in Haunted Tiles AI "idle": every monster jumps in place, every turn.

This is the smallest possible AI and a good template to start from. The studio calls
``main(game_state, side)`` once per turn and expects a list of three directions, one per monster
(entries for dead monsters are ignored). A direction is one of "north", "south", "east", "west"
or "none" (jump in place).

``game_state`` looks like this (rows first: ``tileStates[row][col]``, north is row - 1)::

    {
      "boardSize": [7, 7],
      "tileStates": [[3, 3, 3, 3, 3, 3, 3], ...],      # 3 good, 2 warning, 1 danger, 0 hole
      "teamStates": {
        "home": [{"coord": [0, 0], "isDead": false}, ...],   # always 3 entries
        "away": [{"coord": [6, 0], "isDead": false}, ...]
      }
    }

``side`` is "home" or "away". Jumping hits your own tile, so on a full-strength board all three
monsters break their tiles and fall on turn 3 (3 -> 2 -> 1 -> 0).
"""


def main(game_state, side):
    """Jump in place with all three monsters."""
    return ["none", "none", "none"]
