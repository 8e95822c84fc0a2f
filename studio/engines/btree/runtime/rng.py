"""The reference engine's random number generator (§7.7), bit for bit.

A 31-bit LCG evaluated in IEEE-754 doubles: the product can exceed 2**53 and is rounded exactly
as JavaScript rounds it, so the arithmetic must stay in floats (integer arithmetic gives a
different sequence).
"""

from __future__ import annotations

import math
from typing import MutableSequence, TypeVar

_MUL = 1103515245.0
_INC = 12345.0
_MOD = 2147483648.0  # 2**31

T = TypeVar("T")


def seed_state(seed: int) -> float:
    """The RNG state after seeding with ``seed`` (a non-negative integer below 2**53).

    Seed 0 leaves the state at 0; any other seed discards ten draws (the reference's rule).
    """
    if seed < 0:
        raise ValueError(f"seed must be non-negative, not {seed}")
    state = math.floor(seed) % _MOD
    if seed != 0:
        for _ in range(10):
            state = (_MUL * state + _INC) % _MOD
    return float(state)


class Rng:
    """The engine RNG; ``state`` is the whole state (a float holding an integer < 2**31)."""

    __slots__ = ("state",)

    def __init__(self, state: float = 0.0) -> None:
        self.state = state

    def seed(self, seed: int) -> None:
        """Reseed per §7.7."""
        self.state = seed_state(seed)

    def draw(self) -> float:
        """Advance and return a number in [0, 1)."""
        self.state = (_MUL * self.state + _INC) % _MOD
        return self.state / _MOD

    def index(self, n: int) -> int:
        """One draw scaled to an index in ``range(n)`` (n >= 1), as ``floor(u * n)``."""
        self.state = (_MUL * self.state + _INC) % _MOD
        return int(self.state / _MOD * n)

    def try_order(self, n: int) -> list[int]:
        """The order in which ``random-try`` tries its ``n`` children (popped from the end)."""
        order = list(range(n))
        self.shuffle(order)
        return order

    def take(self, order: list[int]) -> int:
        """The next child of a ``random-try`` order: its last element (removed)."""
        return order.pop()

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates in place: for i from n-1 down to 1, swap i with floor(draw() * (i + 1))."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            state = (_MUL * state + _INC) % _MOD
            j = int(state / _MOD * (i + 1))
            items[i], items[j] = items[j], items[i]
        self.state = state
