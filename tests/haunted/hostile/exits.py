import os
import sys


def main(game_state, side):
    if game_state.get("hard"):
        os._exit(3)
    sys.exit(0)
