"""Built-in Haunted Tiles AI "hunter": chase the nearest enemy without breaking your own tile.

Monsters cannot attack directly; the way to hurt the enemy is to weaken the tiles it stands on
and around it, so a hunter closes in and keeps stepping onto the tiles next to its prey. For each
living monster, in index order, the AI ranks the five moves (jump or four steps):

1. safe moves first: the hit leaves the tile at strength 1 or more (it had 2 or more);
2. then the move that ends nearest (Manhattan distance) to the nearest living enemy;
3. then the tile that keeps the highest strength after the hit;
4. then the fixed order north, east, south, west, none: a hunter would rather move than wait.

As in "greedy", the plan is made on a private copy of the board that already includes the hits
of teammates planned before. No randomness is used.
"""

# The order doubles as the last tie-break: moving beats jumping in place.
STEPS = {"north": (-1, 0), "east": (0, 1), "south": (1, 0), "west": (0, -1), "none": (0, 0)}


def living_enemies(game_state, side):
    """Coordinates of the opponent's living monsters."""
    other = "away" if side == "home" else "home"
    return [m["coord"] for m in game_state["teamStates"][other] if not m["isDead"]]


def distance_to_nearest(row, col, targets):
    """Manhattan distance from (row, col) to the nearest of ``targets`` (0 when there is none)."""
    if not targets:
        return 0
    return min(abs(row - r) + abs(col - c) for r, c in targets)


def choose(tiles, row, col, enemies):
    """The best move from (row, col) on the board ``tiles`` and the tile it hits."""
    size = len(tiles)
    best = None
    for order, (name, (dr, dc)) in enumerate(STEPS.items()):
        r, c = row + dr, col + dc
        if not (0 <= r < size and 0 <= c < size):
            continue  # walking off the board is certain death
        strength = tiles[r][c]
        # Python compares tuples item by item: smaller is better.
        key = (strength < 2, distance_to_nearest(r, c, enemies), -strength, order)
        if best is None or key < best[0]:
            best = (key, name, r, c)
    return best[1], best[2], best[3]


def main(game_state, side):
    """Plan each living monster's move on a board that includes its teammates' planned hits."""
    tiles = [list(row) for row in game_state["tileStates"]]  # private copy: we lower it below
    enemies = living_enemies(game_state, side)
    moves = []
    for monster in game_state["teamStates"][side]:
        if monster["isDead"]:
            moves.append("none")
            continue
        row, col = monster["coord"]
        move, r, c = choose(tiles, row, col, enemies)
        if tiles[r][c] > 0:
            tiles[r][c] -= 1  # our hit, as the next teammate will find the tile
        moves.append(move)
    return moves
