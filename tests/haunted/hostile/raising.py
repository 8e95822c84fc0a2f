def main(game_state, side):
    raise RuntimeError("boom from the AI")
