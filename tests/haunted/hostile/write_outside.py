"""Tries to truncate a precious file and to create a new one, both outside its temp folder."""
import os


def main(game_state, side):
    if game_state.get("inside"):
        with open("scratch.txt", "w") as file:  # the working folder is the worker's own
            file.write("fine")
        return ["none", "none", "none"]
    action = game_state["action"]
    target = game_state["target"]
    if action == "truncate":
        open(target, "w").close()
    elif action == "create":
        with open(target, "x") as file:
            file.write("pwned")
    elif action == "os_truncate":
        os.truncate(target, 0)
    elif action == "remove":
        os.remove(target)
    return ["none", "none", "none"]
