def mian(game_state, side):
    return ["none", "none", "none"]
