"""Raw original rules → model rules, with the fix-ups of spec §4.2 and §3.4.

What the studio cannot run is dropped or disabled with a warning instead of failing the import
(the original editor allowed it, so real games may contain it): u-turn and next-level commands,
press rules on button B, commands on corner tiles or otherwise against the row rules of §3.4,
``dir`` filters on tiles that bind no witness (reset to ``any``), never rules that cannot run
(kept, ``enabled = false``). Codes the original never defined are import errors.
"""

from __future__ import annotations

from collections.abc import Callable

from studio.engines.tilecode.codec import TilecodeImportError
from studio.engines.tilecode.model import (
    BACKGROUND_CODES, BUTTONS, CENTRE, CORNERS, DIR_PREDICATES, DIRECTIONS, GAME_ARGS, MOVE_ARGS,
    RULE_TYPES, SPRITE_CODES, TRANSFORMS, VERBS, Command, Rule, TileRecord,
)
from studio.engines.tilecode.rules_codec import HEADER_BYTES, RECORD_BYTES, RawCommand, RawRecord, RawRule

Warn = Callable[[str], None]
BUTTON_B = 5
U_TURN, NEXT_LEVEL = 5, 3
ATTRIBUTE_SETS = {1: "include", 2: "include2", 3: "exclude"}


def _command(raw: RawCommand, key: str, offset: int, warn: Warn, where: str) -> Command | None:
    """One stored command as a model command; None (with a warning) when unsupported."""
    verb = VERBS[raw.inst]  # decode_rule guarantees 0..6; VERBS says "create" for spawn
    arg = raw.arg
    if verb == "move":
        if arg == U_TURN:
            warn(f"{where}: 'move u-turn' is not supported, dropped")
            return None
        choices: tuple[str, ...] = MOVE_ARGS
    elif verb in ("paint", "portal"):
        choices = BACKGROUND_CODES
    elif verb in ("create", "block"):
        choices = SPRITE_CODES
    elif verb == "game":
        if arg == NEXT_LEVEL:
            warn(f"{where}: 'game next-level' is not supported, dropped")
            return None
        choices = GAME_ARGS
    else:  # destroy: the original ignores its argument and always writes 0
        if arg != 0:
            warn(f"{where}: destroy argument {arg} ignored")
        return Command("destroy")
    if arg >= len(choices):
        raise TilecodeImportError(f"{verb} argument {arg} is outside 0..{len(choices) - 1}", key, offset + 1)
    return Command(verb, choices[arg])


def _row_problem(rule_type: str, witness: bool, kept: list[Command], command: Command) -> str | None:
    """Why ``command`` may not follow ``kept`` on its Do row (§3.4 errors 2–5), or None."""
    after_create = command.verb == "move" and bool(kept) and kept[-1].verb == "create"
    if rule_type == "never" and command.verb not in ("game", "block"):
        return "never rules may only use game and block"
    if command.text == "move stop" and rule_type != "smash":
        return "'move stop' is only for smash rules"
    if rule_type == "smash" and command.verb == "move" and command.arg != "stop":
        return "smash rules may only move 'stop'"
    if command.verb in ("move", "destroy") and not after_create:
        if kept:
            return f"'{command.verb}' must be the first command of its row"
        if not witness:
            return f"'{command.verb}' needs a tile that declares a witness"
    if not after_create and command.verb in {k.verb for k in kept}:
        return f"'{command.verb}' is used twice in the row"
    return None


def _sets(background: tuple[int, ...], sprite: tuple[int, ...]) -> dict[str, frozenset[str]]:
    sets: dict[str, set[str]] = {name: set() for name in ATTRIBUTE_SETS.values()}
    for codes, names in ((background, BACKGROUND_CODES), (sprite, SPRITE_CODES)):
        for kind, code in enumerate(codes):
            if code:
                sets[ATTRIBUTE_SETS[code]].add(names[kind])
    return {name: frozenset(kinds) for name, kinds in sets.items()}


def _record(rule_type: str, raw: RawRecord, key: str, offset: int, warn: Warn, where: str) -> TileRecord:
    """One stored record; ``offset`` is where its first command is in the buffer."""
    record = TileRecord(raw.col, raw.row, **_sets(raw.background, raw.sprite), dir=DIR_PREDICATES[raw.dir])
    if record.position != CENTRE and record.dir != "any" and not record.declares_witness:
        warn(f"{where}: dir {record.dir!r} on a tile that declares no witness, reset to 'any'")
        record = TileRecord(record.col, record.row, record.include, record.include2, record.exclude)
    commands = []
    for index, raw_command in enumerate(raw.commands):
        command = _command(raw_command, key, offset + 2 * index, warn, where)
        if command is not None:
            commands.append(command)
    if commands and record.position in CORNERS:
        warn(f"{where}: commands on a corner tile are not supported, dropped: "
             + ", ".join(c.text for c in commands))
        commands = []
    # The centre's witness is the centre sprite itself (§6.4), even when backgrounds are named too.
    witness = (any(code in SPRITE_CODES for code in record.include) if record.position == CENTRE
               else record.declares_witness)
    kept: list[Command] = []
    for command in commands:
        problem = _row_problem(rule_type, witness, kept, command)
        if problem:
            warn(f"{where}: {command.text!r} dropped: {problem}")
        else:
            kept.append(command)
    return TileRecord(record.col, record.row, record.include, record.include2, record.exclude,
                      record.dir, tuple(kept))


def convert_rule(rule_id: int, raw: RawRule, warn: Warn) -> Rule | None:
    """The model rule for a stored one, or None (with a warning) when it cannot run at all.

    Raises:
        TilecodeImportError: a code the original does not define, or two records on one tile.
    """
    key = f"RuleB{rule_id}"
    rule_type = RULE_TYPES[raw.type]
    button = None
    if rule_type == "press":
        if raw.arg == BUTTON_B:
            warn(f"rule {rule_id}: button B is not supported, rule dropped")
            return None
        if raw.arg >= len(BUTTONS):
            raise TilecodeImportError(f"press button {raw.arg} is outside 0..{len(BUTTONS) - 1}", key, 0)
        button = BUTTONS[raw.arg]
    seen: set[tuple[int, int]] = set()
    records = []
    offset = HEADER_BYTES + RECORD_BYTES * len(raw.records)
    for index, raw_record in enumerate(raw.records):
        position = (raw_record.col, raw_record.row)
        if position in seen:
            raise TilecodeImportError(f"a second record for tile {position}", key, HEADER_BYTES + RECORD_BYTES * index)
        seen.add(position)
        where = f"rule {rule_id} record {position}"
        records.append(_record(rule_type, raw_record, key, offset, warn, where))
        offset += 2 * len(raw_record.commands)
    rule = Rule(rule_id, rule_type, tuple(records), button, TRANSFORMS[raw.transforms])
    centre = rule.centre
    if rule_type == "smash" and centre.dir not in DIRECTIONS:
        warn(f"rule {rule_id}: smash rule without a centre direction (dir {centre.dir!r}) "
             "cannot run, dropped")
        return None
    if rule_type == "never" and (
        not any(code in SPRITE_CODES for code in centre.include)
        or any(code in BACKGROUND_CODES for code in centre.include)
    ):
        warn(f"rule {rule_id}: never rule whose centre include is not only sprite kinds "
             "cannot run, imported disabled")
        return Rule(rule.id, rule.type, rule.tiles, rule.button, rule.transforms, enabled=False)
    return rule
