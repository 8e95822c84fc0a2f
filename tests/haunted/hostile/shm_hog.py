"""Creates System V shared memory segments (4 × 150 MB) that would outlive it, and a file in its
temp folder; the keys come in the game state."""
import ctypes

IPC_CREAT = 0o1000


def main(game_state, side):
    libc = ctypes.CDLL(None, use_errno=True)
    made = []
    for key in game_state["keys"]:
        shmid = libc.shmget(ctypes.c_int(key), ctypes.c_size_t(150 << 20), IPC_CREAT | 0o666)
        made.append(shmid)
    with open("left-behind.txt", "w") as file:
        file.write("x")
    print("segments", made)
    return ["none", "none", "none"]
