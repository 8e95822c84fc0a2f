"""Telling trrbt game files (``.yaml``, ``.yml``, ``.json``) apart from other files of a folder.

The home screen lists the folder on every visit: it looks at the head of each file only, never
parses it (a level file can be megabytes of YAML, and a hostile one can be built to be slow to
parse). Importing one reads and checks it whole (:mod:`studio.storage.btree.trrbt`). This
module loads no engine, so that the home screen starts without them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from studio.storage.errors import ProjectError
from studio.storage.reading import read_head

TRRBT_SUFFIXES = (".yaml", ".yml", ".json")
BTREPLAY_SUFFIX = ".btreplay.json"
"""A btree game's saved play (``storage.btree.replay``): JSON, but not a game."""
SNIFF_BYTES = 64 * 1024
"""How much of a file is looked at: trrbt games put ``name`` and ``tree`` first."""
MAX_SHOWN_NAME = 80

_YAML_TREE = re.compile(r"^tree[ \t]*:", re.MULTILINE)
_YAML_NAME = re.compile(r"^name[ \t]*:[ \t]*(.*?)[ \t]*$", re.MULTILINE)
_JSON_TREE = re.compile(r'"tree"\s*:')
_JSON_NAME = re.compile(r'"name"\s*:\s*("(?:[^"\\\n]|\\.)*")')


def is_trrbt_name(path: Path) -> bool:
    """Named as a trrbt game may be (a btree replay, also ``.json``, is not one)."""
    name = path.name.lower()
    return name.endswith(TRRBT_SUFFIXES) and not name.endswith(BTREPLAY_SUFFIX)


def sniff_trrbt(path: Path) -> str | None:
    """The game's name ("" when its head names none) if ``path`` looks like a trrbt game: a
    top-level ``tree`` key in its first :data:`SNIFF_BYTES`; None for any other file.

    Raises:
        ProjectError: the file cannot be read (a FIFO, a device, no permission).
    """
    head = read_head(path, SNIFF_BYTES).decode("utf-8", errors="replace")
    if path.suffix.lower() == ".json":
        tree = _JSON_TREE.search(head)
        if not head.lstrip().startswith("{") or tree is None:
            return None
        name = _JSON_NAME.search(head, 0, tree.start())
        try:
            text = json.loads(name.group(1)) if name else ""
        except ValueError:
            text = ""
    else:
        if _YAML_TREE.search(head) is None:
            return None
        name = _YAML_NAME.search(head)
        text = name.group(1).strip("'\"") if name else ""
    return text[:MAX_SHOWN_NAME] if isinstance(text, str) else ""


def trrbt_paths(folder: Path) -> list[Path]:
    """The files of ``folder`` named as trrbt games may be (hidden ones left out)."""
    try:
        return sorted(path for path in folder.iterdir()
                      if is_trrbt_name(path) and not path.name.startswith("."))
    except OSError as exc:
        raise ProjectError(f"cannot list the folder: {exc.strerror or exc}", file=folder) from None
