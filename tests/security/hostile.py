"""The named hostile inputs: what an attacker puts where the studio reads a file.

Each case makes, in a folder of its own, a file under the reader's file name. The list is the
issue's (28): deep nesting, huge sizes, a FIFO, a link to /dev/zero, a dangling link, a folder
named like the file, binary garbage, invalid UTF-8, NUL bytes, a YAML "billion laughs", a gzip
bomb, a missing key and a wrong type.
"""

from __future__ import annotations

import os
import random
import zlib
from collections.abc import Callable
from pathlib import Path

from tests.security.readers import Reader, missing_key, wrong_type

DEEP = 100_000
"""How deep the deep-nesting attack nests (the reported one)."""
HUGE = 1 << 30
"""A sparse file of 1 GiB: bigger than every cap, and no disk used."""


def deep_text(syntax: str) -> bytes:
    """Brackets nested :data:`DEEP` deep, in the reader's syntax (a value where one belongs)."""
    opened, closed = "[" * DEEP, "]" * DEEP
    body = {
        "toml": f'[project]\nkind = "btree"\nname = "Deep"\nformat = 1\n\n[btree]\nseed = {opened}{closed}\n',
        "json": f'{{"name": "deep", "tree": {opened}{closed}}}',
        "yaml": f"name: deep\ntree: {opened}{closed}\n",
        "csv": f"Team Name,URL/Code\nDeep,{opened}{closed}\n",
        "python": f"def main(game_state, side):\n    return {'(' * DEEP}{')' * DEEP}\n",
    }
    return body[syntax].encode()


def billion_laughs() -> bytes:
    """A game of a few hundred bytes whose tree, once its aliases are expanded, has 10^9 nodes:
    each level is an order node with ten aliases of the level below as its children."""
    lines = ["name: laughs", "levels:",
             "  a: &a {type: order, children: [" + ", ".join(["{type: display-board}"] * 10) + "]}"]
    for level in "bcdefghi":
        previous = chr(ord(level) - 1)
        lines.append(f"  {level}: &{level} {{type: order, children: ["
                     + ", ".join([f"*{previous}"] * 10) + "]}")
    lines.append("tree: *i")
    return ("\n".join(lines) + "\n").encode()


def gzip_bomb() -> bytes:
    """About 1 MB of gzip that unpacks to 1 GiB: a thousand members of 1 MiB of zeros each."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    member = packer.compress(bytes(1 << 20)) + packer.flush()
    return member * 1024


def garbage() -> bytes:
    return random.Random(28).randbytes(64 * 1024)


def _inject(valid: bytes, what: bytes) -> bytes:
    middle = len(valid) // 2
    return valid[:middle] + what + valid[middle:]


def _write(data: bytes) -> Callable[[Path, Reader], None]:
    return lambda path, reader: path.write_bytes(data)


def _huge(path: Path, reader: Reader) -> None:
    with open(path, "wb") as file:
        file.truncate(HUGE)


CASES: dict[str, Callable[[Path, Reader], None]] = {
    "deep-nesting": lambda path, reader: path.write_bytes(deep_text(reader.syntax)),
    "huge": _huge,
    "fifo": lambda path, reader: os.mkfifo(path),
    "dev-zero-link": lambda path, reader: path.symlink_to("/dev/zero"),
    "dangling-link": lambda path, reader: path.symlink_to(path.with_name("nowhere")),
    "folder": lambda path, reader: path.mkdir(),
    "binary-garbage": lambda path, reader: path.write_bytes(garbage()),
    "invalid-utf8": lambda path, reader: path.write_bytes(_inject(reader.valid(), b"\xff\xfe\xc3")),
    "nul-bytes": lambda path, reader: path.write_bytes(_inject(reader.valid(), b"\x00")),
    "billion-laughs": _write(billion_laughs()),
    "gzip-bomb": lambda path, reader: path.write_bytes(gzip_bomb()),
    "missing-key": lambda path, reader: path.write_bytes(missing_key(reader) or b""),
    "wrong-type": lambda path, reader: path.write_bytes(wrong_type(reader) or b""),
}
"""Each attack by name: ``make(path, reader)`` puts it at ``path``."""


def applies(case: str, reader: Reader) -> bool:
    """Whether ``case`` means something for ``reader``: an AI file has no keys; the home screen
    leaves folders out of its list rather than listing them broken; CSV does not nest, and a
    team's code of brackets is text kept in a file (JavaScript is parsed in a worker)."""
    if case == "deep-nesting" and reader.syntax == "csv":
        return False
    if case == "missing-key":
        return missing_key(reader) is not None
    if case == "wrong-type":
        return wrong_type(reader) is not None
    return not (case == "folder" and reader.name == "home-scan")


def make(case: str, reader: Reader, root: Path) -> Path:
    """The attack ``case`` for ``reader``, in a folder of its own under ``root``."""
    folder = root / f"{reader.name}--{case}"
    folder.mkdir(parents=True)
    path = folder / reader.file_name
    CASES[case](path, reader)
    return path
