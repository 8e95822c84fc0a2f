"""Reading a field's value from what the user typed, one reader per kind of field (spec §11.2).

Each reader takes the field's :class:`~studio.engines.btree.editing.field_spec.FieldSpec` and the
text (or a value of the field's kind) and returns the value to store, or raises :class:`EditError`
naming the field and what it allows.
"""

from __future__ import annotations

import math
import re
from typing import Any

from studio.engines.btree.editing.field_spec import FieldSpec
from studio.engines.btree.editing.pattern_edit import (
    PatternTextError, pattern_from_text, shape_problems,
)
from studio.engines.btree.model.schema import js_string
from studio.engines.btree.editing.tree_view import EditError

BUTTON_ALIASES = {"∅": "", "none": "", "↑": "up", "↓": "down", "←": "left", "→": "right", "z": "action1",
                  "x": "action2"}
"""What the button field also accepts: the glyphs of spec §11.2 and ``none``."""

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_WHITESPACE = re.compile(r"\s")


def _number_text(low: float | None, high: float | None) -> str:
    return f"from {js_string(low)} to {js_string(high)}"


def _parse_int(spec: FieldSpec, value: Any) -> int:
    problem = f"{spec.name} must be a whole number {_number_text(spec.low, spec.high)}"
    if isinstance(value, str):
        if not re.fullmatch(r"[+-]?\d+", value.strip()):
            raise EditError(problem)
        number: Any = int(value.strip())
    elif isinstance(value, bool) or not isinstance(value, (int, float)):
        raise EditError(problem)
    elif isinstance(value, float) and not value.is_integer():
        raise EditError(problem)
    else:
        number = int(value)
    if not spec.low <= number <= spec.high:  # type: ignore[operator]
        raise EditError(problem)
    return number


def _parse_float(spec: FieldSpec, value: Any) -> int | float:
    problem = f"{spec.name} must be a number {_number_text(spec.low, spec.high)}"
    if isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"[+-]?\d+", text):
            number: Any = int(text)  # an int stays an int in the file and on export
        else:
            try:
                number = float(text)
            except ValueError:
                raise EditError(problem) from None
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        number = value
    else:
        raise EditError(problem)
    if not math.isfinite(number) or not spec.low <= number <= spec.high:  # type: ignore[operator]
        raise EditError(problem)
    return number


def _parse_bool(spec: FieldSpec, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise EditError(f"{spec.name} must be true or false")


def _parse_choice(spec: FieldSpec, value: Any) -> str:
    text = value.strip() if isinstance(value, str) else value
    text = BUTTON_ALIASES.get(text, text) if isinstance(text, str) else text
    if text not in spec.choices:
        shown = ", ".join(choice or "none" for choice in spec.choices)
        raise EditError(f"{spec.name} must be one of {shown}")
    return text


def _word_value(word: str) -> str | int | float:
    """A word as a number when it is exactly how that number is written (``2``, ``2.5``), else text.

    Replacement text is the number's decimal text (spec §6.3), so this never changes what a
    transform does; it keeps numbers numbers, as in files written by hand.
    """
    try:
        number: int | float = int(word) if re.fullmatch(r"-?\d+", word) else float(word)
    except ValueError:
        return word
    return number if math.isfinite(number) and js_string(number) == word else word


def _parse_words(spec: FieldSpec, value: Any) -> list[Any]:
    if isinstance(value, str):
        return [_word_value(word) for word in value.split()]
    if isinstance(value, (list, tuple)) and all(
        isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value
    ):
        return list(value)
    raise EditError(f"{spec.name} must be words separated by spaces")


def _parse_text(spec: FieldSpec, value: Any) -> str:
    if not isinstance(value, str):
        raise EditError(f"{spec.name} must be text")
    text = value.strip()
    if spec.word and _WHITESPACE.search(text):
        raise EditError(f"{spec.name} cannot contain spaces")
    if spec.low and len(text) < spec.low:
        raise EditError(f"{spec.name} cannot be empty")
    return text


def _parse_pid(spec: FieldSpec, value: Any) -> str | int | float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if not math.isfinite(value):
            raise EditError("pid must be text or a finite number")
        return value  # a number given as a number stays one (a YAML pid: 1)
    return _parse_text(spec, value)


def _parse_pattern(spec: FieldSpec, value: Any) -> dict[str, list[list[str]]]:
    if isinstance(value, str):
        try:
            return pattern_from_text(value)
        except PatternTextError as exc:  # keep the location: the text editor puts its cursor there
            raise PatternTextError(f"{spec.name}: {exc.message}", exc.line, exc.column) from None
    problems = [p for p in shape_problems(value, spec.name) if p.severity == "error"]
    if problems:
        raise EditError(f"{spec.name}: {problems[0].message}")
    return {layer: [list(row) for row in grid] for layer, grid in value.items()}


PARSERS = {"int": _parse_int, "float": _parse_float, "bool": _parse_bool, "choice": _parse_choice,
            "words": _parse_words, "text": _parse_text, "pid": _parse_pid, "pattern": _parse_pattern}
"""The reader of each kind of field (:data:`~studio.engines.btree.editing.field_spec.KINDS`)."""
