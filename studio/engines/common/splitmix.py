"""The studio RNG: SplitMix64, used by TileCode, Haunted Tiles and btree's random seats.

One generator per run, seeded once; same seed, same sequence on every platform (integer only).
"""

from __future__ import annotations

MASK = (1 << 64) - 1


class SplitMix64:
    """SplitMix64 with an unbiased ``below(n)`` (rejection sampling)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not 0 <= seed < 1 << 64:
            raise ValueError(f"seed must be in [0, 2^64): {seed}")
        self.state = seed

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``; draws nothing when ``n == 1``."""
        if n < 1:
            raise ValueError(f"below() needs n >= 1, got {n}")
        if n == 1:
            return 0
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n
