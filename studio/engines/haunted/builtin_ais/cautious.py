"""Built-in Haunted Tiles AI "cautious": move at random, but never break a tile under yourself.

Every action hits one tile: a jump ("none") hits your own tile, a step hits the tile you arrive
on. A hit on a tile of strength 1 breaks it and the monster falls. So a move is *safe* when its
tile has strength 2 or more before the hit. Each living monster picks uniformly among its safe
moves; when there is none it jumps (and probably falls).

Teammates are not coordinated: two cautious monsters may still step onto the same strength-2 tile
in one turn, and the second one falls. ``greedy.py`` shows how to plan around that.
"""

import random

STEPS = {"none": (0, 0), "north": (-1, 0), "east": (0, 1), "south": (1, 0), "west": (0, -1)}


def safe_moves(tiles, row, col):
    """The moves from (row, col) whose hit leaves the tile standing (strength >= 1)."""
    size = len(tiles)
    safe = []
    for name, (dr, dc) in STEPS.items():
        r, c = row + dr, col + dc
        if 0 <= r < size and 0 <= c < size and tiles[r][c] >= 2:
            safe.append(name)
    return safe


def main(game_state, side):
    """Pick a random safe move for each living monster."""
    tiles = game_state["tileStates"]
    moves = []
    for monster in game_state["teamStates"][side]:
        if monster["isDead"]:
            moves.append("none")
            continue
        row, col = monster["coord"]
        safe = safe_moves(tiles, row, col)
        moves.append(random.choice(safe) if safe else "none")
    return moves
