"""The rule selector's model (spec tilecode.md §8.7): its cells, and finding and making rules.

The selector shows four 3×3 quadrants for the selected sprite kind. Each cell names a rule
*type* and a *key*: the centre direction for change and smash rules, the button for press rules,
``never`` for never rules. :func:`rule_key` gives a rule's cell, so a cell is "filled" when
:func:`counts` is positive for it. Every function returns new values and leaves its inputs alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .model import SPRITE_CODES, Game, Rule, TileRecord
from .views import default_transforms

QUADRANTS = ("change", "press", "smash", "misc")
"""Quadrant order on screen: change top-left, press top-right, smash bottom-left, misc
bottom-right."""


@dataclass(frozen=True)
class SelectorCell:
    """One cell of a selector quadrant.

    ``col`` and ``row`` (0..2) place the cell in its quadrant's 3×3 grid; cells not listed are
    empty (the smash quadrant draws the kind's sprite in its middle).
    """

    quadrant: str
    """``change``, ``press``, ``smash`` or ``misc``."""
    key: str
    """Centre direction (change, smash), button (press) or ``never`` (misc)."""
    label: str
    """What the cell shows: an arrow, ``*``, ``A``, ``rest``, ``moving`` or ``never``."""
    caption: str
    """The help caption (the original's speech bubble)."""
    col: int
    row: int

    @property
    def rule_type(self) -> str:
        """The rule type the cell creates (the misc quadrant holds never rules)."""
        return "never" if self.quadrant == "misc" else self.quadrant


def _cells() -> tuple[SelectorCell, ...]:
    arrows = {"up": "↑", "left": "←", "right": "→", "down": "↓"}
    places = {"up": (1, 0), "left": (0, 1), "right": (2, 1), "down": (1, 2)}
    cells = [
        SelectorCell("change", "up", "↑", "moved up", 1, 0),
        SelectorCell("change", "left", "←", "moved left", 0, 1),
        SelectorCell("change", "any", "*", "any", 1, 1),
        SelectorCell("change", "right", "→", "moved right", 2, 1),
        SelectorCell("change", "down", "↓", "moved down", 1, 2),
        SelectorCell("change", "resting", "rest", "rested", 0, 2),
        SelectorCell("change", "moving", "moving", "moved", 2, 2),
    ]
    for key in ("up", "left", "A", "right", "down"):
        col, row = places.get(key, (1, 1))
        caption = "A button" if key == "A" else f"dpad {key}"
        cells.append(SelectorCell("press", key, arrows.get(key, "A"), caption, col, row))
    for key in ("up", "left", "right", "down"):
        cells.append(SelectorCell("smash", key, arrows[key], f"smash {key}", *places[key]))
    cells.append(SelectorCell("misc", "never", "never", "never", 0, 0))
    return tuple(cells)


SELECTOR_CELLS: tuple[SelectorCell, ...] = _cells()
"""Every cell, quadrant by quadrant in :data:`QUADRANTS` order, reading order within each."""


def cell_for(rule_type: str, key: str) -> SelectorCell | None:
    """The cell of a (rule type, key) pair, or None when no cell shows it.

    Args:
        rule_type: ``press``, ``change``, ``smash`` or ``never``.
        key: as :func:`rule_key` returns it.

    Returns:
        The cell, or None (for example a hand-edited smash rule whose centre ``dir`` is ``any``).
    """
    for cell in SELECTOR_CELLS:
        if cell.rule_type == rule_type and cell.key == key:
            return cell
    return None


def rule_key(rule: Rule) -> tuple[str, str]:
    """The (type, key) a rule is filed under in the selector.

    Args:
        rule: any rule.

    Returns:
        ``("press", button)``, ``("change", centre dir)``, ``("smash", centre dir)`` or
        ``("never", "never")``.
    """
    if rule.type == "press":
        return "press", str(rule.button)
    if rule.type == "never":
        return "never", "never"
    return rule.type, rule.centre.dir


def _code(kind: int) -> str:
    if not 0 <= kind < len(SPRITE_CODES):
        raise ValueError(f"sprite kind {kind} is outside 0..3")
    return SPRITE_CODES[kind]


def rules_for_kind(game: Game, kind: int) -> list[Rule]:
    """The rules of a sprite kind: those whose centre include holds it, ascending id; and the
    rules whose centre holds no sprite kind at all (left so by a reset or a toggle), under every
    kind: a rule never leaves the selector while it exists (it cannot fire until it has one,
    which the validator says).

    This is the list the rule editor's previous / next buttons walk through.

    Args:
        game: the game.
        kind: sprite kind 0..3.

    Returns:
        The rules, ascending id.

    Raises:
        ValueError: ``kind`` is not a sprite kind.
    """
    code = _code(kind)
    return sorted((r for r in game.rules
                   if code in r.centre.include or not r.centre.include & set(SPRITE_CODES)),
                  key=lambda r: r.id)


def rules_at(game: Game, kind: int, rule_type: str, key: str) -> list[Rule]:
    """The rules of one selector cell for a sprite kind, ascending id.

    Args:
        game: the game.
        kind: sprite kind 0..3.
        rule_type: the cell's rule type.
        key: the cell's key.

    Returns:
        The rules filed under that cell; the selector opens the first one.
    """
    return [r for r in rules_for_kind(game, kind) if rule_key(r) == (rule_type, key)]


def counts(game: Game, kind: int) -> dict[tuple[str, str], int]:
    """How many rules of a sprite kind each selector cell holds.

    Args:
        game: the game.
        kind: sprite kind 0..3.

    Returns:
        Every cell's (type, key) with its count (0 for empty cells), followed by any key of an
        existing rule that no cell shows (hand-edited rules), so no rule goes uncounted.
    """
    out = {(cell.rule_type, cell.key): 0 for cell in SELECTOR_CELLS}
    for rule in rules_for_kind(game, kind):
        key = rule_key(rule)
        out[key] = out.get(key, 0) + 1
    return out


def free_rule_id(game: Game) -> int:
    """The smallest non-negative id no rule uses (§3.1: new rules fill gaps)."""
    used = {rule.id for rule in game.rules}
    candidate = 0
    while candidate in used:
        candidate += 1
    return candidate


def put_rule(game: Game, rule: Rule) -> Game:
    """The game with ``rule`` stored: replacing the rule of the same id, or inserted by id.

    Args:
        game: the game.
        rule: the new or edited rule.

    Returns:
        A new game; rules stay in ascending id and the other rules are shared.
    """
    rules = [r for r in game.rules if r.id != rule.id]
    index = next((i for i, r in enumerate(rules) if r.id > rule.id), len(rules))
    rules.insert(index, rule)
    return replace(game, rules=tuple(rules))


def delete_rule(game: Game, rule_id: int) -> Game:
    """The game without the rule ``rule_id``.

    Raises:
        KeyError: no rule has that id.
    """
    if game.rule(rule_id) is None:
        raise KeyError(f"no rule has id {rule_id}")
    return replace(game, rules=tuple(r for r in game.rules if r.id != rule_id))


def new_rule(game: Game, kind: int, rule_type: str, key: str) -> tuple[Game, Rule]:
    """Create the rule a selector cell makes (§8.7) and store it under the smallest free id.

    The centre includes the kind. Change and smash rules take the cell's direction as their
    centre ``dir``, press rules the cell's button (centre ``dir`` any), never rules nothing more.
    Transforms come from :func:`~studio.engines.tilecode.views.default_transforms`: rotate-3-way
    when the kind is the game's player kind (§5), else none.

    Args:
        game: the game.
        kind: sprite kind 0..3.
        rule_type: the cell's rule type.
        key: the cell's key.

    Returns:
        The new game and the new rule.

    Raises:
        ValueError: ``kind`` is not a sprite kind, or (type, key) is not a selector cell.
    """
    code = _code(kind)
    if cell_for(rule_type, key) is None:
        raise ValueError(f"no selector cell makes a {rule_type} rule for {key!r}")
    direction = key if rule_type in ("change", "smash") else "any"
    centre = TileRecord(2, 2, include=frozenset({code}), dir=direction)
    rule = Rule(
        free_rule_id(game), rule_type, (centre,),
        button=key if rule_type == "press" else None,
        transforms=default_transforms({code}, game.player_kind),
    )
    return put_rule(game, rule), rule


def add_like(game: Game, rule: Rule, kind: int) -> tuple[Game, Rule]:
    """The editor's "+": a new rule of the same type, direction or button, for ``kind``.

    Args:
        game: the game.
        rule: the rule being edited.
        kind: the selected sprite kind.

    Returns:
        The new game and the new rule.

    Raises:
        ValueError: the rule's (type, key) is not a selector cell (a hand-edited rule).
    """
    return new_rule(game, kind, *rule_key(rule))


def neighbours(game: Game, kind: int, rule_id: int) -> tuple[int | None, int | None]:
    """The ids before and after ``rule_id`` among the kind's rules (None at the ends).

    The rule itself need not be among them (its centre may no longer include the kind after an
    edit): the neighbours are then the nearest lower and higher ids of the kind's rules.

    Args:
        game: the game.
        kind: sprite kind 0..3.
        rule_id: the current rule.

    Returns:
        (previous id or None, next id or None).
    """
    ids = [r.id for r in rules_for_kind(game, kind)]
    before = [i for i in ids if i < rule_id]
    after = [i for i in ids if i > rule_id]
    return (before[-1] if before else None, after[0] if after else None)


# ------------------------------------------------------------------------- the cursor's grid

GRID_COLUMNS = 7
"""The selector's logical grid: column 0 holds the sprite kinds, 1..3 and 4..6 the quadrants."""
GRID_ROWS = 6


def grid_position(cell: SelectorCell) -> tuple[int, int]:
    """Where a cell sits on the logical grid (the left quadrants are columns 1..3, the lower
    ones rows 3..5)."""
    right = cell.quadrant in ("press", "misc")
    bottom = cell.quadrant in ("smash", "misc")
    return 1 + cell.col + (3 if right else 0), cell.row + (3 if bottom else 0)


STOPS: frozenset[tuple[int, int]] = frozenset(
    {(0, k) for k in range(len(SPRITE_CODES))} | {grid_position(c) for c in SELECTOR_CELLS})
"""Every place the cursor may rest: a sprite kind or a rule cell, never a blank."""


ACROSS_WEIGHT = 3
"""How much a step sideways costs against a step forward when the cursor picks a stop."""


def step(cursor: tuple[int, int], dx: int, dy: int) -> tuple[int, int]:
    """Where one arrow press takes the cursor: the nearest stop in that direction.

    A blank cell holds no rule, so stopping on one would only cost a key press: the cursor
    passes over blanks. Stops ahead are measured forward (wrapping past the edge to the other
    side, so every stop is reachable in every direction) plus :data:`ACROSS_WEIGHT` per line
    sideways, so a stop on the cursor's own line wins over a nearer one off it (smash ← goes
    to smash →, not to smash ↑).

    Args:
        cursor: the current (column, row); a blank is allowed (it moves off it).
        dx: -1, 0 or 1.
        dy: -1, 0 or 1 (exactly one of ``dx``, ``dy`` is non-zero).

    Returns:
        The new (column, row), one of :data:`STOPS`.
    """
    x, y = cursor
    delta, size = (dx, GRID_COLUMNS) if dx else (dy, GRID_ROWS)

    def cost(stop: tuple[int, int]) -> tuple[int, int, int, int]:
        along, across = (stop[0] - x, stop[1] - y) if dx else (stop[1] - y, stop[0] - x)
        forward = along * delta % size or size
        return forward + ACROSS_WEIGHT * abs(across), forward, stop[1], stop[0]

    return min((s for s in STOPS if s != cursor), key=cost)
