import time


def main(game_state, side):
    time.sleep(game_state.get("sleep", 30))
    return ["none", "none", "none"]
