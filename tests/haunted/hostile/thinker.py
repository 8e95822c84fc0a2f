"""Well-behaved and slow: thinks ``think`` seconds (0.3 by default) per move, then walks an
8-tile loop per monster. As an opponent it makes a round last seconds, time in which a hostile
side's attack on the studio has room to grow."""
import time

LOOP = ["south"] * 3 + ["east"] + ["north"] * 3 + ["west"]
MIRROR = ["south"] * 3 + ["west"] + ["north"] * 3 + ["east"]
AWAY = {"south": "north", "north": "south", "east": "east", "west": "west"}
TURNS = []


def main(game_state, side):
    time.sleep(game_state.get("think", 0.3))
    moves = [path[len(TURNS) % len(path)] for path in (LOOP, LOOP, MIRROR)]
    TURNS.append(1)
    return moves if side == "home" else [AWAY[m] for m in moves]
