"""Built-in Haunted Tiles AI "lookahead": score every move by what the board looks like after it.

A sparring partner in the spirit of the strongest competition entries. For each living monster,
in index order, every in-board move is scored on a private copy of the board (which already holds
the hits its teammates planned):

* +100 if the monster survives its own hit (the tile keeps strength 1 or more);
* + the size of the region of strong tiles (strength 2 or more) reachable from the destination
  after the hit, by steps north/south/east/west, capped at 30: room to live in later turns;
* -3 for each teammate already planned onto the same tile (stacked monsters break tiles fast);
* -0.5 x the distance to the nearest living enemy (stay close enough to fight over tiles).

The best score wins; ties go to the move nearer the enemy, then to the order
none, north, east, south, west. No randomness is used.
"""

STEPS = {"none": (0, 0), "north": (-1, 0), "east": (0, 1), "south": (1, 0), "west": (0, -1)}
REGION_CAP = 30


def living_enemies(game_state, side):
    """Coordinates of the opponent's living monsters."""
    other = "away" if side == "home" else "home"
    return [m["coord"] for m in game_state["teamStates"][other] if not m["isDead"]]


def distance_to_nearest(row, col, targets):
    """Manhattan distance from (row, col) to the nearest of ``targets`` (0 when there is none)."""
    if not targets:
        return 0
    return min(abs(row - r) + abs(col - c) for r, c in targets)


def region_size(tiles, row, col):
    """How many tiles of strength >= 2 can be reached from (row, col), capped at REGION_CAP.

    The start tile counts when it is strong itself; the fill only walks over strong tiles.
    """
    size = len(tiles)
    seen = {(row, col)}
    todo = [(row, col)]
    count = 0
    while todo and count < REGION_CAP:
        r, c = todo.pop()
        if tiles[r][c] >= 2:
            count += 1
        elif (r, c) != (row, col):
            continue
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < size and 0 <= nc < size and (nr, nc) not in seen and tiles[nr][nc] >= 2:
                seen.add((nr, nc))
                todo.append((nr, nc))
    return min(count, REGION_CAP)


def score_move(tiles, r, c, planned, enemies):
    """Score of hitting tile (r, c): see the module docstring."""
    before = tiles[r][c]
    survives = before >= 2
    tiles[r][c] = max(before - 1, 0)  # try the hit on the copy ...
    room = region_size(tiles, r, c)
    tiles[r][c] = before  # ... and take it back
    stacked = planned.count((r, c))
    return 100 * survives + room - 3 * stacked - 0.5 * distance_to_nearest(r, c, enemies)


def main(game_state, side):
    """Pick the best-scoring move for each living monster, teammates' plans included."""
    tiles = [list(row) for row in game_state["tileStates"]]
    size = len(tiles)
    enemies = living_enemies(game_state, side)
    planned = []  # destinations of the teammates already decided this turn
    moves = []
    for monster in game_state["teamStates"][side]:
        if monster["isDead"]:
            moves.append("none")
            continue
        row, col = monster["coord"]
        best = None
        for order, (name, (dr, dc)) in enumerate(STEPS.items()):
            r, c = row + dr, col + dc
            if not (0 <= r < size and 0 <= c < size):
                continue
            score = score_move(tiles, r, c, planned, enemies)
            key = (-score, distance_to_nearest(r, c, enemies), order)
            if best is None or key < best[0]:
                best = (key, name, r, c)
        _, move, r, c = best
        if tiles[r][c] > 0:
            tiles[r][c] -= 1
        planned.append((r, c))
        moves.append(move)
    return moves
