"""Every limit on what the studio reads from a file, in one table, and the pure checks behind them.

Files come from anywhere (a downloaded game, a shared folder, a competitor's replay), so each
reader bounds what it accepts before it parses: the bytes it reads, how deep text may nest, how
far YAML aliases may expand. The numbers live here, at the bottom layer, because both the
engines' text parsers (trrbt YAML/JSON) and storage's file readers enforce them and every layer
may import an engine module; the file handling itself is in ``studio.storage.reading``. The
README lists them for users ("Limits on files").

The caps are set from measured real files with a wide margin, and from how fast the parser that
follows is: the largest behaviour-tree game of the trrbt corpus expands to 260 KB, the bundled
games are under 6 KB, a ten-round Haunted match with chatty AIs makes a replay of about 3 MB.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

KIB = 1024
MIB = 1024 * KIB

# ------------------------------------------------------------------------------------- bytes

MAX_TOML_BYTES = 2 * MIB
"""A project file (any kind) or a TileCode replay. tomllib is pure Python and reads a hostile
file at about 0.5 MB/s, so 2 MiB costs a few seconds at worst; it is 8 times the largest known
game (260 KB) and 400 times the bundled ones."""
MAX_GAME_BYTES = 2 * MIB
"""A game to import or play from its own format: a trrbt game (.yaml, .yml, .json) and each file
it includes (45 times the largest of the trrbt corpus, 46 KB), a TileCode settings .json or
games.ts. Imported as a project, a game makes a smaller TOML file, within MAX_TOML_BYTES."""
MAX_REPLAY_BYTES = 8 * MIB
"""A Haunted Tiles replay, after gunzip (and so the compressed file too): some 25 of the longest
rounds (15×15 map, 340 turns, logs full) against 3 MB for a usual ten-round match. JSON of
empty lists costs 25 times its size once parsed, so this keeps the worst file near 200 MB."""
MAX_MAPS_JSON_BYTES = 1 * MIB
"""The original game's ``maps.json`` (4 KB for its five maps)."""
MAX_TEAMS_CSV_BYTES = 16 * MIB
"""A competition's team list: a thousand teams each pasting a large script."""
MAX_AI_SOURCE_BYTES = 4 * MIB
"""One AI file (.py or .js): big enough for a library embedded in it, as the original rules ask."""
MAX_INDEX_BYTES = 4 * MIB
"""A tournament's ``index.json`` (its bracket and standings)."""
AI_FILES_LISTED = 200
"""AI files offered to pick from when a team is added (more: the list says so; a path is typed)."""
AI_FILES_SCANNED = 5_000
"""Folder entries looked at to find them: a folder of 10,000 files must not hold the dialog up."""

# ------------------------------------------------------------------------------------ shapes

MAX_NESTING = 128
"""Arrays and tables (objects, mappings) inside each other in any text the studio reads. The
trrbt corpus nests at most 29 deep, studio files less than 10; past a few hundred, Python's
parsers and the code walking their result run out of stack (a RecursionError, or a crash in C)."""
MAX_TREE_DEPTH = 64
"""Nodes inside each other in a behaviour tree (the trrbt corpus: 13). The compiler walks trees
recursively; a btree project stores its tree flat, so nesting alone does not bound it."""
MAX_REPLAY_ROUNDS = 1_000_000
"""Rounds a TileCode replay may say it ran: over 8 hours of play at the fastest round period
(30 ms), 41 hours at the usual 150 ms. Unbounded, ``rounds = 10**15`` made the studio build a
list of that many inputs before anything else."""
MAX_INDEX_ENTRANTS = 1024
"""Entrants of a tournament's ``index.json`` (a thousand teams, as MAX_TEAMS_CSV_BYTES allows);
its matches are bounded by what its mode plays with that many."""
MAX_COMPILED_NODES = 20_000
"""Nodes a behaviour tree may compile to once transforms and links are expanded: six times the
largest of the trrbt corpus (3,097 nodes, compiled in 0.7 s). Nested ``x-replace`` nodes multiply
(ten withs, eight deep: 10^8 nodes from a file of 2 KB)."""
MAX_YAML_NODES = 1_000_000
"""Values a YAML document may hold once its aliases are expanded (``*name`` repeats the value
named ``&name``). A "billion laughs" file of 1 KB expands to 10^9 values; an honest file of
:data:`MAX_GAME_BYTES` holds fewer than this, aliases or not."""
MAX_SPRITE_SIDE = 256
"""Pixels across and down a trrbt sprite image (the corpus's are 64×64). An image is unpacked
(zlib) only up to what its stated size holds, so a small file cannot unpack to gigabytes."""


def human_bytes(count: int) -> str:
    """``2 MiB``, ``512 KiB``, ``100 bytes``: a size as the limits above are written."""
    for unit, size in (("GiB", 1024 * MIB), ("MiB", MIB), ("KiB", KIB)):
        if count >= size and count % size == 0:
            return f"{count // size} {unit}"
    if count >= 1024 * MIB:
        return f"{count / (1024 * MIB):.1f} GiB"
    if count >= MIB:
        return f"{count / MIB:.1f} MiB"
    if count >= KIB:
        return f"{count / KIB:.1f} KiB"
    return f"{count} bytes"


# ----------------------------------------------------------------------------- nesting depth

# Only brackets outside strings (and TOML comments) nest. A string may run to the end of the
# text: an unclosed one is a syntax error the parser reports, and matching it to the end keeps
# the scan linear. The closing quote is optional for the same reason.
_JSON_SKIP = r'"[^"\\]*(?:\\.[^"\\]*)*"?'
_TOML_SKIP = (r"'''.*?(?:'''|\Z)"
              r'|"""[^\\]*?(?:\\.[^\\]*?)*?(?:"""|\Z)'
              r"|'[^'\n]*'?"
              r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"?'
              r"|#[^\n]*")
_TOKENS = {
    "json": re.compile(_JSON_SKIP + r"|[\[{]+|[\]}]+", re.S),
    "toml": re.compile(_TOML_SKIP + r"|[\[{]+|[\]}]+", re.S),
}
_NOT_BRACKETS = bytes(range(256)).translate(None, b"[]{}")
_INNERMOST = (b"[]", b"{}", b"[}", b"{]")


def _bracket_bound(text: str) -> int:
    """An upper bound of the nesting depth, strings not told apart (fast: no Python loop per
    character). Removing every innermost pair lowers the depth by exactly one, so a few passes
    of ``bytes.replace`` shrink the work for the loop over runs that follows."""
    brackets = text.encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
    passes = 0
    while len(brackets) > 4096 and passes < 16:
        smaller = brackets
        for pair in _INNERMOST:
            smaller = smaller.replace(pair, b"")
        if len(smaller) == len(brackets):
            break
        brackets, passes = smaller, passes + 1
    depth = deepest = 0
    for run in re.finditer(rb"[\[{]+|[\]}]+", brackets):
        size = run.end() - run.start()
        if brackets[run.start()] in b"[{":
            depth += size
            deepest = max(deepest, depth)
        else:
            depth -= size
    return deepest + passes


SCAN_TOKENS = 1_000_000
"""How many strings and bracket runs :func:`nesting_overflow` looks at, at most (about a second).
A file it cannot decide within them is left to the parser and :func:`too_deep`, which are safe
too, only slower to refuse it."""


def nesting_overflow(text: str, syntax: str, limit: int = MAX_NESTING,
                     budget: int = SCAN_TOKENS) -> int | None:
    """Where ``text`` (``"json"`` or ``"toml"``) first nests deeper than ``limit``, as an offset
    into ``text``; None when it does not (or not within ``budget`` tokens).

    Run before parsing, so that a file of 100,000 brackets is refused at once, with its line,
    before a parser recurses into it. Brackets in strings and comments do not count. Most files
    are decided by a fast bound that ignores strings; only one whose bound passes the limit is
    scanned token by token. Readers check the parsed document with :func:`too_deep` as well,
    and turn a parser's RecursionError into their error: the stdlib's json (in C) and tomllib
    (pure Python) both raise it cleanly, so nothing crashes when the scan gives up.
    """
    if _bracket_bound(text) <= limit:
        return None
    depth = 0
    for count, token in enumerate(_TOKENS[syntax].finditer(text)):
        if count >= budget:
            return None
        first = text[token.start()]
        if first in "[{":
            depth += token.end() - token.start()
            if depth > limit:
                return token.end() - (depth - limit)
        elif first in "]}":
            depth = max(depth - (token.end() - token.start()), 0)
    return None


def line_of(text: str, offset: int) -> int:
    """The 1-based line of ``offset`` in ``text``."""
    return text.count("\n", 0, offset) + 1


def too_deep(value: Any, limit: int = MAX_NESTING) -> tuple[str | int, ...] | None:
    """The path of the first list or dict in ``value`` nested more than ``limit`` deep (``value``
    itself, when a list or dict, is depth 1, as a JSON bracket would be); None if none is.

    For parsed documents, whose depth no bracket may show (TOML's dotted keys and ``[a.b.c]``
    headers). Walks with its own stack, so the check cannot itself run out of one.
    """
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if len(path) >= limit:
            return path
        stack.extend((child, (*path, key)) for key, child in _children(item))
    return None


def _children(value: Any) -> Iterator[tuple[str | int, Any]]:
    if isinstance(value, dict):
        for key, child in value.items():
            if isinstance(child, (dict, list)):
                yield str(key), child
    elif isinstance(value, list):
        for index, child in enumerate(value):
            if isinstance(child, (dict, list)):
                yield index, child
