"""The ``[ladder]`` table of a Haunted Tiles project: whether the always-current ladder is on.

    [ladder]
    enabled = true        # every submission plays every other team's latest one
    games_per_pair = 1    # matches per pair and side (1-4)
    seed = 0              # the ladder's seed; each match's seed derives from it

A project without the table has the ladder off. Checked here, with the field path of a bad
value, so that a project cannot load with a ladder that would fail later.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from studio.storage.haunted.tables import fail, is_int, keys
from studio.storage.kinds import Body

LADDER_KEYS = {"enabled", "games_per_pair", "seed"}
MAX_GAMES_PER_PAIR = 4
"""Each new submission plays 2 x this many matches per other team: more would keep a class of
twenty teams waiting for an afternoon."""


@dataclass(frozen=True)
class LadderSettings:
    enabled: bool = False
    games_per_pair: int = 1
    seed: int = 0

    def table(self) -> dict[str, Any]:
        """The ``[ladder]`` table that says these settings."""
        return {"enabled": self.enabled, "games_per_pair": self.games_per_pair, "seed": self.seed}


def ladder_of(body: Body) -> LadderSettings:
    """The project's ladder settings (off without a ``[ladder]`` table).

    Raises:
        ProjectError: a value is of the wrong type or out of range, with its field path.
    """
    if "ladder" not in body:
        return LadderSettings()
    table = keys(body["ladder"], LADDER_KEYS, "ladder")
    enabled = table.get("enabled", False)
    if not isinstance(enabled, bool):
        raise fail("enabled must be true or false", "ladder", "enabled")
    games = table.get("games_per_pair", 1)
    if not is_int(games) or not 1 <= games <= MAX_GAMES_PER_PAIR:
        raise fail(f"games_per_pair must be a whole number from 1 to {MAX_GAMES_PER_PAIR}",
                   "ladder", "games_per_pair")
    seed = table.get("seed", 0)
    if not is_int(seed) or not 0 <= seed < 2**63:
        raise fail("seed must be a whole number, 0 or more", "ladder", "seed")
    return LadderSettings(enabled, games, seed)
