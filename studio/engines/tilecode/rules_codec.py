"""The packed rule buffers of original TileCode settings (``RuleB<id>``; corpus README §5).

Layout (4 background and 4 sprite kinds, so one attribute byte each; fields fill each byte from
its least-significant bits and never cross a byte)::

    byte 0   type (bits 0-3), ruleArg (bits 4-7)
    byte 1   transforms (bits 0-3), N = record count (bits 4-7)
    N × 4    col|row<<4, background attributes, sprite attributes, dir|C<<4
    then     for each record with C > 0, in header order: C × (instruction, argument)

The raw form keeps every code as stored, so decode → encode is the identity on valid buffers.
Mapping codes to the model (and dropping what the studio does not support) is the importer's job.
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.engines.tilecode.codec import TilecodeImportError

HEADER_BYTES = 2
RECORD_BYTES = 4
COMMAND_BYTES = 2
KINDS_PER_VECTOR = 4
"""Each attribute byte holds 2 bits for each of 4 kinds."""
MAX_COMMANDS = 4
"""The original editor allowed 4 commands per Do row; a larger count means a corrupt buffer."""

# Highest code the original defines for each field; anything above cannot be mapped at all.
MAX_TYPE, MAX_TRANSFORMS, MAX_DIR, MAX_INSTRUCTION = 3, 6, 6, 6


@dataclass(frozen=True)
class RawCommand:
    """One stored command: instruction and argument codes."""

    inst: int
    arg: int


@dataclass(frozen=True)
class RawRecord:
    """One stored tile record; attribute codes are indexed by kind (0 don't care … 3 exclude)."""

    col: int
    row: int
    background: tuple[int, int, int, int]
    sprite: tuple[int, int, int, int]
    dir: int
    commands: tuple[RawCommand, ...] = ()


@dataclass(frozen=True)
class RawRule:
    """One stored rule with every code as found in the buffer."""

    type: int
    arg: int
    transforms: int
    records: tuple[RawRecord, ...] = ()


def unpack_attributes(byte: int) -> tuple[int, int, int, int]:
    """The 2-bit attribute codes of kinds 0..3 (kind k at bits 2k..2k+1)."""
    return tuple((byte >> (2 * kind)) & 3 for kind in range(KINDS_PER_VECTOR))  # type: ignore[return-value]


def pack_attributes(codes: tuple[int, ...]) -> int:
    """Inverse of :func:`unpack_attributes`."""
    if len(codes) != KINDS_PER_VECTOR or any(not 0 <= code <= 3 for code in codes):
        raise ValueError(f"attribute codes must be 4 values in 0..3, got {codes}")
    return sum(code << (2 * kind) for kind, code in enumerate(codes))


def expected_length(record_count: int, command_total: int) -> int:
    """Exact byte count of a rule buffer."""
    return HEADER_BYTES + RECORD_BYTES * record_count + COMMAND_BYTES * command_total


def _check(value: int, top: int, what: str, key: str, offset: int, low: int = 0) -> None:
    if not low <= value <= top:
        raise TilecodeImportError(f"{what} {value} is outside {low}..{top}", key, offset)


def decode_rule(data: bytes, key: str = "") -> RawRule:
    """Decode one packed rule.

    Raises:
        TilecodeImportError: wrong length (missing or trailing bytes), or a code the original
            does not define (type, transforms, col/row, dir, instruction, command count > 4).
    """
    if len(data) < HEADER_BYTES:
        raise TilecodeImportError(f"rule buffer of {len(data)} bytes is shorter than its 2-byte header", key, 0)
    rule_type, arg = data[0] & 0x0F, data[0] >> 4
    transforms, count = data[1] & 0x0F, data[1] >> 4
    _check(rule_type, MAX_TYPE, "rule type", key, 0)
    _check(transforms, MAX_TRANSFORMS, "transforms", key, 1)
    headers_end = HEADER_BYTES + RECORD_BYTES * count
    if len(data) < headers_end:
        raise TilecodeImportError(
            f"{count} tile records need {headers_end} bytes of headers, the buffer has {len(data)}", key, len(data))
    headers = []
    for index in range(count):
        at = HEADER_BYTES + RECORD_BYTES * index
        col, row = data[at] & 0x0F, data[at] >> 4
        _check(col, 3, "record column", key, at, low=1)
        _check(row, 3, "record row", key, at, low=1)
        dir_code, commands = data[at + 3] & 0x0F, data[at + 3] >> 4
        _check(dir_code, MAX_DIR, "direction predicate", key, at + 3)
        _check(commands, MAX_COMMANDS, "command count", key, at + 3)
        headers.append((col, row, unpack_attributes(data[at + 1]), unpack_attributes(data[at + 2]), dir_code, commands))
    size = expected_length(count, sum(header[5] for header in headers))
    if len(data) != size:
        missing = "trailing" if len(data) > size else "missing"
        raise TilecodeImportError(
            f"rule buffer has {len(data)} bytes, its {count} records and commands need exactly {size} "
            f"({missing} bytes)", key, min(len(data), size))
    records = []
    at = headers_end
    for col, row, background, sprite, dir_code, commands in headers:
        decoded = []
        for _ in range(commands):
            _check(data[at], MAX_INSTRUCTION, "instruction", key, at)
            decoded.append(RawCommand(data[at], data[at + 1]))
            at += COMMAND_BYTES
        records.append(RawRecord(col, row, background, sprite, dir_code, tuple(decoded)))
    return RawRule(rule_type, arg, transforms, tuple(records))


def encode_rule(rule: RawRule) -> bytes:
    """Pack a rule (inverse of :func:`decode_rule`).

    Raises:
        ValueError: a field that does not fit its nibble or byte.
    """
    def nibbles(low: int, high: int, what: str) -> int:
        if not (0 <= low <= 15 and 0 <= high <= 15):
            raise ValueError(f"{what} ({low}, {high}) do not fit in 4 bits each")
        return high << 4 | low

    out = bytearray((nibbles(rule.type, rule.arg, "type and ruleArg"),
                     nibbles(rule.transforms, len(rule.records), "transforms and record count")))
    for record in rule.records:
        out.append(nibbles(record.col, record.row, "col and row"))
        out.append(pack_attributes(record.background))
        out.append(pack_attributes(record.sprite))
        out.append(nibbles(record.dir, len(record.commands), "dir and command count"))
    for record in rule.records:
        for command in record.commands:
            if not (0 <= command.inst <= 255 and 0 <= command.arg <= 255):
                raise ValueError(f"command codes {command} do not fit in a byte")
            out += bytes((command.inst, command.arg))
    return bytes(out)
