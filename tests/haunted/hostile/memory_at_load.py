HOARD = bytearray(4 << 30)


def main(game_state, side):
    return ["none", "none", "none"]
