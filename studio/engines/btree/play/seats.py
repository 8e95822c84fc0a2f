"""Seat kinds (§11.3, issue 32): who moves for a player, as written in ``[seats]`` and ``--player``.

``human``, ``random``, ``first``, ``solver``, and ``computer`` — the search player of
:mod:`studio.engines.btree.search.mcts` — which may carry its time per move: ``computer:0.5``.
Storage, the CLI and the screens all read a seat through :func:`parse_seat`, so they accept the
same words. Light on purpose: no search code loads with it.
"""

from __future__ import annotations

import math

SEAT_KINDS = ("human", "random", "first", "solver", "computer")
COMPUTER_SECONDS = 1.0  # the computer's time per move when the seat names none
MAX_COMPUTER_SECONDS = 600.0
SEAT_HINT = "human, random, first, solver or computer[:SECONDS]"


def parse_seat(text: str) -> tuple[str, float | None]:
    """``"computer:0.5"`` → ``("computer", 0.5)``; ``"random"`` → ``("random", None)``.

    A bare ``computer`` thinks :data:`COMPUTER_SECONDS`.

    Raises:
        ValueError: not a seat, or a time that is not a number of seconds in (0, 600].
    """
    kind, sep, rest = str(text).strip().partition(":")
    if kind not in SEAT_KINDS or (sep and kind != "computer"):
        raise ValueError(f"{text!r} is not a seat: write {SEAT_HINT}")
    if kind != "computer":
        return kind, None
    if not sep:
        return kind, COMPUTER_SECONDS
    try:
        seconds = float(rest)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds <= MAX_COMPUTER_SECONDS:  # NaN fails too
        raise ValueError(f"{text!r}: the computer's seconds per move are a number in (0, 600]")
    return kind, seconds


def is_seat(text: object) -> bool:
    """Whether ``text`` reads as a seat (see :func:`parse_seat`)."""
    if not isinstance(text, str):
        return False
    try:
        parse_seat(text)
    except ValueError:
        return False
    return True
