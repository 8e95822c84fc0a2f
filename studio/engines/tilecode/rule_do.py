"""The rule editor's Do side (spec tilecode.md §8.8): which commands each Do row offers, and
what adding, replacing or deleting one does.

The When side and the invariants both sides keep are in :mod:`.rule_edit`; like there, every
function returns a new rule and leaves its input alone.
"""

from __future__ import annotations

from dataclasses import replace

from .model import BACKGROUND_CODES, CENTRE, CORNERS, DIRECTIONS, GAME_ARGS, KIND_CODES, SPRITE_CODES, Command, \
    Game, Rule, TileRecord
from .rule_edit import DISPLAY_ROWS, Tile, collide_tile, editable_tiles, has_witness, tile_record, \
    with_record
from .rules_codec import MAX_COMMANDS

VERB_MENU = ("move", "destroy", "paint", "create", "block", "portal", "game")
"""Command menu order (§8.8)."""
_SPRITE_VERBS = ("move", "destroy")
_NEVER_VERBS = ("game", "block")


def do_rows(rule: Rule) -> tuple[Tile, ...]:
    """The Do rows shown and edited, in display order (the order they run: left, up, centre,
    down, right).

    Smash rules: the centre and the collide tile. Never rules: the centre row, plus any edge row
    that already carries commands (from a file); a never rule has no location, so commands on
    other rows would do exactly the same and the editor does not offer them. Press and change
    rules: all five.
    """
    if rule.type == "smash":
        return tuple(t for t in DISPLAY_ROWS if t in (CENTRE, collide_tile(rule)))
    if rule.type == "never":
        return tuple(t for t in DISPLAY_ROWS if t == CENTRE or tile_record(rule, *t).do)
    return DISPLAY_ROWS


def row_beside(rule: Rule, tile: Tile) -> Tile | None:
    """The Do row that → from a When tile in the grid's right column goes to: the tile's own
    row (the right tile's), else the row of a tile on the same grid line (up for the top line,
    down for the bottom), so the cursor crosses to the row the picture puts beside it.

    Returns:
        The row, or None when it is not shown (a smash or never rule's hidden rows).
    """
    rows = do_rows(rule)
    if tile in rows:
        return tile
    return next((t for t in rows if t[1] == tile[1] and t[0] != 1), None)


def tile_beside(rule: Rule, row: Tile) -> Tile | None:
    """The When tile that ← from a Do row goes to: the right column's tile on the line of the
    row's own tile (the way back from :func:`row_beside`); None when a smash rule hides it."""
    return (3, row[1]) if (3, row[1]) in editable_tiles(rule) else None


def _command_errors(rule_type: str, record: TileRecord, do: tuple[Command, ...]) -> set[int]:
    """Indexes of ``do`` that §3.4 rejects on this record (the validator's command checks)."""
    if record.position in CORNERS:
        return set(range(len(do)))
    bad = set(range(MAX_COMMANDS, len(do)))
    witnessed = has_witness(record)
    used: set[str] = set()
    for k, command in enumerate(do):
        after_create = k > 0 and do[k - 1].verb == "create" and command.verb == "move"
        if (
            (rule_type == "never" and command.verb not in _NEVER_VERBS)
            or (command.verb in used and not after_create)
            or (command.verb in _SPRITE_VERBS and not after_create and (k > 0 or not witnessed))
            or (command.verb == "move" and rule_type == "smash" and command.arg != "stop")
            or (command.arg == "stop" and rule_type != "smash")
        ):
            bad.add(k)
        used.add(command.verb)
    return bad


def row_errors(rule: Rule, col: int, row: int) -> tuple[int, ...]:
    """Indexes of the commands on a row that break §3.4 (the editor flags them); editor
    choices produce them only in the ways the module docstring lists."""
    record = tile_record(rule, col, row)
    return tuple(sorted(_command_errors(rule.type, record, record.do)))


def arg_choices(rule: Rule, verb: str) -> tuple[str, ...]:
    """The argument menu of a verb: move the 4 directions (smash rules: only ``stop``); paint,
    portal b0..b3; create, block s0..s3; game win, lose, score; destroy () (it takes none).

    Raises:
        ValueError: not a verb.
    """
    if verb == "move":
        return ("stop",) if rule.type == "smash" else DIRECTIONS
    table = {"paint": BACKGROUND_CODES, "portal": BACKGROUND_CODES, "create": SPRITE_CODES,
             "block": SPRITE_CODES, "game": GAME_ARGS, "destroy": ()}
    if verb not in table:
        raise ValueError(f"{verb!r} is not a command")
    return table[verb]


def _sample(rule: Rule, verb: str) -> Command:
    args = arg_choices(rule, verb)
    return Command(verb, args[0] if args else None)


def verb_choices(rule: Rule, col: int, row: int, index: int) -> tuple[str, ...]:
    """The verbs the command menu offers at slot ``index`` of a Do row, in menu order.

    A verb is offered when putting it there (replacing the command at ``index``, or appending
    when ``index == len(do)``) leaves it and every command §3.4 accepted before accepted: move and
    destroy only first on a witness row, move again right after a create, each verb once per
    row, never rules game and block only (smash rules: move means stop, see :func:`arg_choices`).

    Returns:
        Verbs in the order move, destroy, paint, create, block, portal, game; () off the Do rows
        (corners, smash tiles other than centre and collide), on a full row's append slot, and
        for an index outside 0..len(do).
    """
    if (col, row) not in do_rows(rule):
        return ()
    record = tile_record(rule, col, row)
    if not 0 <= index <= len(record.do) or index >= MAX_COMMANDS:
        return ()
    before = _command_errors(rule.type, record, record.do)
    offered = []
    for verb in VERB_MENU:
        do = (*record.do[:index], _sample(rule, verb), *record.do[index + 1:])
        after = _command_errors(rule.type, record, do)
        if index not in after and after <= before:
            offered.append(verb)
    return tuple(offered)


def set_command(rule: Rule, col: int, row: int, index: int, command: Command) -> Rule:
    """Replace the command at ``index`` of a Do row, or append it (``index == len(do)``).

    Raises:
        ValueError: the verb is not in :func:`verb_choices` at that slot, or its argument not
            in :func:`arg_choices`.
    """
    if command.verb not in verb_choices(rule, col, row, index):
        raise ValueError(f"{command.verb!r} is not offered at slot {index} of row ({col},{row})")
    args = arg_choices(rule, command.verb)
    allowed = command.arg in args if args else command.arg is None
    if not allowed:
        raise ValueError(f"{command.text!r}: the argument is not offered")
    record = tile_record(rule, col, row)
    do = (*record.do[:index], command, *record.do[index + 1:])
    return with_record(rule, replace(record, do=do))


def delete_command(rule: Rule, col: int, row: int, index: int) -> Rule:
    """Remove the command at ``index`` of a Do row.

    Deleting a ``create`` also deletes the ``move`` right after it: that move addresses the
    created sprite, and on its own it would move the row's witness instead (or break §3.4).

    Raises:
        IndexError: no command at ``index``.
    """
    record = tile_record(rule, col, row)
    if not 0 <= index < len(record.do):
        raise IndexError(f"row ({col},{row}) has no command {index}")
    end = index + 1
    if record.do[index].verb == "create" and end < len(record.do) and record.do[end].verb == "move":
        end += 1
    return with_record(rule, replace(record, do=record.do[:index] + record.do[end:]))



def describe_command(command: Command, game: Game) -> str:
    """A command in short words: ``move right``, ``stop``, ``paint grass``, ``create apple``,
    ``game +10``, ``destroy``."""
    if command.verb == "move" and command.arg == "stop":
        return "stop"
    if command.verb == "game":
        return "game +10" if command.arg == "score" else f"game {command.arg}"
    if command.arg in KIND_CODES:
        return f"{command.verb} {game.kind_name(command.arg)}"
    return command.text
