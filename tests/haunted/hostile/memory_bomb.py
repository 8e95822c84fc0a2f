def main(game_state, side):
    hoard = []
    while True:
        hoard.append(bytearray(16 << 20))
