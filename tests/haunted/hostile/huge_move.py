"""Answers with a 1 MB string as a move, every turn (issue 28: it was kept whole in memory and in
the replay on every turn)."""


def main(game_state, side):
    return ["n" * game_state.get("move_bytes", 1_000_000), "none", "none"]
