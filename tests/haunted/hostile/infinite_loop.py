def main(game_state, side):
    while True:
        pass
