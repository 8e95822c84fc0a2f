"""The rule editor's model (spec tilecode.md §8.8): what each menu offers and what a choice does;
the When side and the rule's button and transforms here, the Do rows in :mod:`.rule_do`.

The menus offer only choices that keep §3.4 (checked by ``studio.storage.tilecode.check``):
no kind in two attribute sets, move/destroy only first on a witness row or as a move right after
a create, each verb once per row, at most 4 commands, none on corners, smash rules ``move stop``
only and a direction at the centre, never rules ``game``/``block`` only and sprite kinds only
in the centre include. A tile that loses its witness gets ``dir any`` back, so no warning is left
behind either.

Two edits can still break a command written earlier; the editor keeps such rules (it never
drops work) and flags them with :func:`.rule_do.row_errors` and the validator:

1. *A move or destroy loses its witness* (§3.4 error 2). A ``move``/``destroy`` that is the first
   command of a row (not a ``move`` right after a ``create``) needs the row to declare a witness.
   It loses it when :func:`toggle_attribute` or :func:`reset_tile` leaves an edge tile (or the
   smash collide tile) with an empty include or with a background kind in its include, or leaves
   the centre's include without a sprite kind.
2. *A never rule loses its centre sprite* (§3.4 error 5): :func:`toggle_attribute` or
   :func:`reset_tile` leaves the centre include of a never rule without a sprite kind.

Nothing else can produce an error; a property test checks that against the validator.
Every function returns a new rule and leaves its input alone; records keep their stored order,
new ones are appended, and records left all don't-care without commands are dropped (as saving
would drop them).
"""

from __future__ import annotations

from dataclasses import replace

from .model import (
    BUTTONS, CENTRE, DIR_PREDICATES, KIND_CODES,
    SPRITE_CODES, Game, Rule, TileRecord,
)

Tile = tuple[int, int]
ATTRIBUTE_CHOICES = ("include", "include2", "exclude")
TRANSFORM_CHOICES = (
    "none", "flip-horizontal", "flip-vertical", "rotate-left", "rotate-right", "rotate-3-way",
)
"""What the generalise screen offers; rotate-180 is read from files but never offered."""
DISPLAY_ROWS: tuple[Tile, ...] = ((1, 2), (2, 1), (2, 2), (2, 3), (3, 2))
"""Do rows on screen in the order they run (§6.10, the When grid read column by column): left,
up, centre, down, right, so the help numbers 1–5 count down the list."""
BADGES = {"include": "✓", "include2": "●", "exclude": "⊘"}
LABELS = {"include": "include", "include2": "include′", "exclude": "exclude"}
"""The attributes as the editor names them everywhere (the file format's ``include2`` is the
menu's include′)."""
_OFFSETS = {"left": (-1, 0), "up": (0, -1), "right": (1, 0), "down": (0, 1)}


# ----------------------------------------------------------------------------- records


def tile_record(rule: Rule, col: int, row: int) -> TileRecord:
    return rule.tile(col, row) or TileRecord(col, row)


def with_record(rule: Rule, record: TileRecord) -> Rule:
    """``rule`` with ``record`` in place of its tile's record (appended when new, dropped when
    vacuous)."""
    tiles = list(rule.tiles)
    index = next((i for i, r in enumerate(tiles) if r.position == record.position), None)
    keep = not record.is_empty
    if index is None:
        tiles += [record] if keep else []
    elif keep:
        tiles[index] = record
    else:
        del tiles[index]
    return replace(rule, tiles=tuple(tiles))


def has_witness(record: TileRecord) -> bool:
    # Mirrors tilecode_check.has_witness: the centre's witness is the centre sprite itself.
    if record.position == CENTRE:
        return any(code in SPRITE_CODES for code in record.include)
    return record.declares_witness


def _settle(record: TileRecord) -> TileRecord:
    """A ``dir`` is only meaningful where a witness is declared (§3.3); elsewhere reset it."""
    if record.position != CENTRE and record.dir != "any" and not record.declares_witness:
        return replace(record, dir="any")
    return record


def collide_tile(rule: Rule) -> Tile | None:
    """A smash rule's collide tile: the centre's neighbour in the centre direction (else None)."""
    offset = _OFFSETS.get(rule.centre.dir) if rule.type == "smash" else None
    return None if offset is None else (CENTRE[0] + offset[0], CENTRE[1] + offset[1])


# -------------------------------------------------------------------------- When tiles


def editable_tiles(rule: Rule) -> tuple[Tile, ...]:
    """The When tiles the editor draws and edits, row by row.

    Smash rules: the centre and the collide tile (the engine ignores the rest, §6.9); every
    other rule: all nine.
    """
    if rule.type == "smash":
        collide = collide_tile(rule)
        return tuple(sorted({CENTRE, collide} - {None}, key=lambda t: (t[1], t[0])))
    return tuple((col, row) for row in (1, 2, 3) for col in (1, 2, 3))


def _check_tile(rule: Rule, col: int, row: int) -> None:
    if (col, row) not in editable_tiles(rule):
        raise ValueError(f"tile ({col},{row}) is not editable in this {rule.type} rule")


def attribute_choices(rule: Rule, col: int, row: int) -> tuple[str, ...]:
    """The attributes the menu offers on a tile: include, include2, exclude (smash rules:
    include only); () on a tile that is not editable."""
    if (col, row) not in editable_tiles(rule):
        return ()
    return ("include",) if rule.type == "smash" else ATTRIBUTE_CHOICES


def kind_choices(rule: Rule, col: int, row: int, attribute: str | None = None) -> tuple[str, ...]:
    """The kind codes the attribute menu lists on a tile, in code order (() if not editable).

    All 8, except the smash centre (sprites only) and, for ``attribute="include"``, a never
    rule's centre (sprites only: §3.4 error 5). ``attribute=None`` gives what the menu row shows.
    """
    if (col, row) not in editable_tiles(rule):
        return ()
    at_centre = (col, row) == CENTRE
    if at_centre and (rule.type == "smash" or (rule.type == "never" and attribute == "include")):
        return SPRITE_CODES
    return KIND_CODES


def toggle_attribute(rule: Rule, col: int, row: int, code: str, attribute: str) -> Rule:
    """Give ``code`` the attribute on a tile, or make it don't-care if it already has it.

    The kind leaves the other two sets (they stay disjoint). A missing record is created at the
    end of the stored order; a record left vacuous is dropped. A non-centre tile that stops
    declaring a witness gets ``dir any`` back.

    Args:
        rule: the rule.
        col, row: an editable tile.
        code: a kind code offered by :func:`kind_choices` for this attribute.
        attribute: one of :func:`attribute_choices`.

    Returns:
        The edited rule.

    Raises:
        ValueError: the tile, attribute or kind is not offered.
    """
    _check_tile(rule, col, row)
    if attribute not in attribute_choices(rule, col, row):
        raise ValueError(f"{attribute!r} is not offered on tile ({col},{row})")
    if code not in kind_choices(rule, col, row, attribute):
        raise ValueError(f"{code!r} cannot be given {attribute} on tile ({col},{row})")
    record = tile_record(rule, col, row)
    had = record.attribute(code) == attribute
    sets = {name: getattr(record, name) - {code} for name in ATTRIBUTE_CHOICES}
    if not had:
        sets[attribute] = sets[attribute] | {code}
    return with_record(rule, _settle(replace(record, **sets)))


def reset_tile(rule: Rule, col: int, row: int) -> Rule:
    """The attribute menu's reset-all: every kind don't-care and ``dir any``; commands stay.

    The centre keeps its ``dir``: it is the rule's direction (change, smash: what the selector
    cell set; a smash rule needs one), not an attribute.

    Raises:
        ValueError: the tile is not editable.
    """
    _check_tile(rule, col, row)
    record = tile_record(rule, col, row)
    direction = record.dir if (col, row) == CENTRE else "any"
    return with_record(rule, TileRecord(col, row, dir=direction, do=record.do))


def witness(rule: Rule, col: int, row: int) -> tuple[str, ...] | None:
    """The sprite kinds (code order) a Do row's witness can be, or None when it has none.

    The centre's witness is the centre sprite: its include's sprite kinds (for a never rule, the
    kinds that must never match). An edge tile binds one when its include is non-empty and holds
    only sprite kinds (§3.3); corners never do.
    """
    record = tile_record(rule, col, row)
    if (col, row) == CENTRE:
        kinds = tuple(c for c in SPRITE_CODES if c in record.include)
        return kinds or None
    if not record.declares_witness:
        return None
    return tuple(c for c in SPRITE_CODES if c in record.include)


def direction_choices(rule: Rule, col: int, row: int) -> tuple[str, ...]:
    """The direction menu of a tile (§8.8).

    The centre of press, change and never rules and every edge tile with a witness offer left,
    up, right, down, resting, moving, any; the smash collide tile with a witness offers resting,
    moving, any (a collider's status); the smash centre offers none (its direction is the rule's
    selector cell); tiles without a witness offer none.
    """
    if (col, row) not in editable_tiles(rule):
        return ()
    if rule.type == "smash":
        if (col, row) == collide_tile(rule) and witness(rule, col, row):
            return ("resting", "moving", "any")
        return ()
    if (col, row) == CENTRE or witness(rule, col, row):
        return DIR_PREDICATES
    return ()


def set_direction(rule: Rule, col: int, row: int, direction: str) -> Rule:
    """Set a tile's direction predicate to one of :func:`direction_choices`.

    Raises:
        ValueError: the direction is not offered on that tile.
    """
    if direction not in direction_choices(rule, col, row):
        raise ValueError(f"direction {direction!r} is not offered on tile ({col},{row})")
    return with_record(rule, replace(tile_record(rule, col, row), dir=direction))


def button_choices() -> tuple[str, ...]:
    """The buttons of press rules: left, up, right, down, A (B is not supported)."""
    return BUTTONS


def set_button(rule: Rule, button: str) -> Rule:
    """A press rule with another button.

    Raises:
        ValueError: not a press rule, or not one of :func:`button_choices`.
    """
    if rule.type != "press" or button not in BUTTONS:
        raise ValueError(f"cannot set button {button!r} on a {rule.type} rule")
    return replace(rule, button=button)


def transform_choices() -> tuple[str, ...]:
    """What the generalise screen offers (rotate-180 is read from files, never offered)."""
    return TRANSFORM_CHOICES


def set_transforms(rule: Rule, transforms: str) -> Rule:
    """A rule with other transforms: one of :func:`transform_choices` or the current value.

    Raises:
        ValueError: anything else.
    """
    if transforms not in TRANSFORM_CHOICES and transforms != rule.transforms:
        raise ValueError(f"transforms {transforms!r} is not offered")
    return replace(rule, transforms=transforms)


# ---------------------------------------------------------------------------- describing


def describe_tile(rule: Rule, col: int, row: int, game: Game) -> str:
    """A tile in short words for the context strip, kinds named by their art names.

    Example: ``include: player ✓; exclude: wall ⊘, boulder ⊘; dir any``. The ``dir`` part is
    shown where it means something (the centre, or a tile with a witness); a tile with nothing
    on it reads ``don't care``.
    """
    record = tile_record(rule, col, row)
    parts = []
    for name in ATTRIBUTE_CHOICES:
        codes = [c for c in KIND_CODES if c in getattr(record, name)]
        if codes:
            parts.append(f"{LABELS[name]}: "
                         + ", ".join(f"{game.kind_name(c)} {BADGES[name]}" for c in codes))
    if (col, row) == CENTRE or record.declares_witness:
        parts.append(f"dir {record.dir}")
    return "; ".join(parts) or "don't care"
