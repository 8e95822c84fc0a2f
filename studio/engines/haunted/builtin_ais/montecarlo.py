"""Built-in Haunted Tiles AI "montecarlo": try every move, play the rest of the round out, pick the best.

Every turn, for each combination of moves of its living monsters (steps onto holes or off the
board left out), it plays the rest of the round many times from the position after that turn,
both sides moving like ``lookahead`` with a little randomness, and plays the combination whose
games it wins most often; the promising combinations get more games than the others. The work
lives in the studio's batch simulator (``studio/engines/haunted/sim/rollout.py``), compiled with
numba: up to 3,000 simulated rounds a turn, in a tenth of the 2 s limit.

Unlike the other built-ins this file is not a standalone, standard-library-only AI: it imports
the studio (and numpy and numba), which it finds from its own place in the studio package. Like
every AI it runs in a sandboxed worker that may only write in its temporary folder, so the
simulator's compiled code is copied there from the studio's cache when the AI loads (the studio
compiles it before a match that has this AI, into its ``__pycache__`` or, where that is read-only,
numba's folder in the user's cache). Where that code cannot be loaded - numba missing,
or not compiled yet - it plays as ``lookahead`` for the round and prints why in the match log.

Deterministic: rollout seeds come from the round's AI seed, and the number of rollouts is fixed,
never "as many as fit in the time".
"""

import os
import random
import sys


def _simulator():
    """(the studio's rollout module, whether its kernel may run, why not)."""
    if "studio" in sys.modules:  # in the studio's process (trusted fast mode): it may compile
        from studio.engines import jit
        from studio.engines.haunted.sim import rollout

        return rollout, jit.available(), jit.reason()
    # A worker (python -I -S): only the standard library so far.
    import site

    site.main()  # the studio's environment (numpy, numba), from the interpreter's own venv
    root = os.path.dirname(os.path.abspath(__file__))
    for _ in range(4):  # builtin_ais -> haunted -> engines -> studio -> the checkout
        root = os.path.dirname(root)
    sys.path.insert(0, root)
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = "1"  # the worker may start no thread
    from studio.engines import jit

    jit.sandbox_cache(os.getcwd())  # the worker's temporary folder, the one it may write
    from studio.engines.haunted.sim import batch, rollout

    loaded, why = batch.load_compiled()
    return rollout, loaded, why


try:
    _rollout, _loaded, _why = _simulator()
except Exception as exc:  # noqa: BLE001 - no simulator at all: still play, as lookahead
    _rollout, _loaded, _why = None, False, f"the simulator cannot load: {type(exc).__name__}: {exc}"

SEED = random.getrandbits(63)
"""From the round's AI seed (the worker seeded ``random`` with it)."""
if _rollout is not None:
    PLAYER = _rollout.RolloutAI(SEED, simulate=_loaded, why=_why)
    if PLAYER.fallback:
        print(f"montecarlo plays as lookahead this round: {PLAYER.fallback}")
else:
    print(f"montecarlo plays as lookahead this round: {_why}")
    PLAYER = None


def main(game_state, side):
    """This turn's moves, one per monster."""
    if PLAYER is not None:
        return PLAYER.move(game_state, side)
    return _lookahead(game_state, side)


def _lookahead(game_state, side):
    """The built-in lookahead, read from its file beside this one (no studio needed)."""
    global _LOOKAHEAD
    if "_LOOKAHEAD" not in globals():
        namespace = {"__name__": "lookahead"}
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lookahead.py")
        with open(path, encoding="utf-8") as file:
            exec(compile(file.read(), path, "exec"), namespace)
        _LOOKAHEAD = namespace["main"]
    return _LOOKAHEAD(game_state, side)
