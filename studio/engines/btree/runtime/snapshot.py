"""Engine snapshots: the whole run-time state, sharing board rows and immutable choice data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from studio.engines.btree.runtime.boardstate import BoardState


def freeze_frame(frame: list) -> tuple:
    """A hashable copy of a frame ``[node_id, index, any, aux]`` (aux may be a list)."""
    aux = frame[3]
    if type(aux) is list:
        aux = tuple(aux)
    return (frame[0], frame[1], frame[2], aux)


def thaw_frame(frame: tuple) -> list:
    """The live frame of a frozen one (``random-try`` keeps its order as a list)."""
    aux = frame[3]
    if type(aux) is tuple:
        aux = list(aux)
    return [frame[0], frame[1], frame[2], aux]


@dataclass(frozen=True, eq=False)
class Snapshot:
    """A saved engine state (opaque to callers; restore it with ``Engine.restore``)."""

    board: BoardState
    stack: tuple | None
    prev: bool | None
    result: dict | None
    step_count: int
    rng: float
    display: tuple
    choice: tuple
    extra: Any = None
