"""Well-behaved: module state persists across the turns of a round."""
import random

TURNS = []
FIRST = random.random()  # drawn at load, after the worker seeded ``random``


def main(game_state, side):
    TURNS.append(game_state.get("turn"))
    print("turn", len(TURNS), side)
    return ["none", "none", f"{len(TURNS)}:{FIRST!r}:{random.random()!r}"]
