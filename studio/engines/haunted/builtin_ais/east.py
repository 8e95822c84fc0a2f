"""Built-in Haunted Tiles AI "east": every monster always steps east.

A one-line strategy, useful to test maps and other AIs. A monster that walks off the board dies
without hitting any tile (home walking north dies on turn 1). See idle.py for the shape of
game_state and of the answer.
"""


def main(game_state, side):
    """Step east with all three monsters."""
    return ["east", "east", "east"]
