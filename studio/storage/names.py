"""Names that come from outside (a project file, a form, a team-list CSV, a ``maps.json``):
one line of text that reads the same on every terminal.

A name is shown in lists, headers and replays, on other people's terminals too. The characters
refused are the ones :func:`studio.engines.common.inert.inert` would show as escapes (C0, DEL,
C1 and the bidi controls), from that one definition: shown escaped, such a name would still not
read as its author meant, and a bidi override makes ``evil\\u202egnp.py`` read ``evilyp.png``.
"""

from __future__ import annotations

from studio.engines.common.inert import name_problem
from studio.storage.errors import FieldPath, ProjectError

HINT = "type it again without it: a name is one line of visible text"
"""What to do, said with every refusal."""


def check_name_characters(name: str, what: str, field_path: FieldPath = (),
                          line: int | None = None) -> str:
    """``name``, when it holds no control or bidi character.

    Args:
        name: the name as it came in.
        what: what it names, for the message (``"team name"``).
        field_path: where it is in the document.
        line: the line of the file it came from, when known (a CSV row).

    Raises:
        ProjectError: naming the field, the character (as its escape) and what to do.
    """
    problem = name_problem(name)
    if problem is not None:
        raise ProjectError(f"the {what} contains {problem}", field_path=field_path, line=line,
                           hint=HINT)
    return name
