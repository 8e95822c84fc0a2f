"""What one editable field of a node type is (spec §11.2): its kind, range and default.

Below both the field table (:mod:`.node_fields`) and the readers of typed values
(:mod:`.field_values`), which each need it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

KINDS = ("text", "int", "float", "bool", "choice", "words", "pid", "pattern")
BUTTONS = ("", "up", "down", "left", "right", "action1", "action2")


@dataclass(frozen=True)
class FieldSpec:
    """One editable field of a node type.

    ``low``/``high`` bound numbers (inclusive); for text, ``low`` is the shortest length allowed.
    ``default`` is what a new node gets, or what an absent optional field means. ``required``
    fields cannot be cleared. ``word`` text cannot contain spaces.
    """

    name: str
    kind: str
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    default: Any = None
    required: bool = False
    word: bool = False
    label: str = ""
