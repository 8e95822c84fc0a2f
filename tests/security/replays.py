"""A real Haunted Tiles replay to break: made by an in-process match of built-ins, once."""

from __future__ import annotations

import json

_REPLAYS: dict[bool, dict] = {}


def haunted_replay_document(aborted: bool = False) -> dict:
    """A real replay (an in-process match of built-ins on a small map), made once: a finished
    one-round match, or a three-round one stopped in its second round (a round to re-simulate,
    and one that stopped half-way)."""
    if aborted not in _REPLAYS:
        from studio.engines.haunted import replay as replays
        from studio.engines.haunted.board import Map
        from studio.engines.haunted.inprocess import InProcessPlayer
        from studio.engines.haunted.match import Entrant, MatchAborted, MatchConfig, run_match

        def builtin(name: str) -> Entrant:
            return Entrant(name, lambda: InProcessPlayer(name), source=f"builtin:{name}")

        def stop(index, state, events, record) -> None:
            if aborted and index == 2 and record["turn"] == 2:
                raise MatchAborted()

        board = Map.from_rows("Small", ["33333"] * 5)
        config = MatchConfig(rounds=3 if aborted else 1, max_rounds=3, maps=("Small",))
        result = run_match(builtin("greedy"), builtin("wander"), {"Small": board}, config, 7,
                           observer=stop)
        _REPLAYS[aborted] = replays.build(result, "test")
    return json.loads(json.dumps(_REPLAYS[aborted]))
