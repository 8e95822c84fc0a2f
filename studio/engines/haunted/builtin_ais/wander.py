"""Built-in Haunted Tiles AI "wander": every monster moves at random, ignoring the tiles.

Each living monster picks uniformly among jumping in place ("none") and the steps that stay on
the board. Tile strengths are ignored, so wanderers often walk into holes or break their own tile.

Randomness comes from Python's ``random`` module: the studio seeds it for every round, so the
same match seed gives the same moves (import ``random`` and call its functions; do not seed it
yourself, or your AI plays the same way every round).
"""

import random

# Directions in a fixed order: the random pick must see the same list every time for the run to
# be reproducible from its seed.
STEPS = {"none": (0, 0), "north": (-1, 0), "east": (0, 1), "south": (1, 0), "west": (0, -1)}


def on_board(row, col, size):
    """True when (row, col) is a tile of a ``size`` x ``size`` board."""
    return 0 <= row < size and 0 <= col < size


def main(game_state, side):
    """Pick a random in-board move for each living monster."""
    size = game_state["boardSize"][0]
    moves = []
    for monster in game_state["teamStates"][side]:
        if monster["isDead"]:
            moves.append("none")  # ignored by the referee; keeps the list at length 3
            continue
        row, col = monster["coord"]
        choices = [
            name for name, (dr, dc) in STEPS.items() if on_board(row + dr, col + dc, size)
        ]
        moves.append(random.choice(choices))
    return moves
