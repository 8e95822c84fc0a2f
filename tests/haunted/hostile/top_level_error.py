print("loading...")
raise ImportError("no module named numpy_for_ghosts")
