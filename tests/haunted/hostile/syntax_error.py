def main(game_state, side)
    return ["none", "none", "none"]
