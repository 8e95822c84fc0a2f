"""Between the compiled tree and the authored one, for the editor and the debugger.

The compiler records, for every compiled node, the authored node it was copied from (``origin``)
and the transforms, links and includes that produced it (``via``), as ``(file key, spec path)``;
the top-level file's key is ``""``. These helpers turn them into editor paths.
"""

from __future__ import annotations

from .compiler import Compiled, NodeRef
from .tree_edit import Path, path_from_spec


def authored_path(ref: NodeRef) -> Path | None:
    """The editor path of an authored node reference (None for a node of an included file)."""
    key, spec = ref
    if key != "":
        return None
    try:
        return path_from_spec(spec)
    except ValueError:
        return None


def authored_path_of(compiled: Compiled, node_id: int) -> Path | None:
    """The authored node compiled node ``node_id`` was copied from (None if included)."""
    if not 0 <= node_id < len(compiled.origin):
        return None
    return authored_path(compiled.origin[node_id])


def via_paths(compiled: Compiled, node_id: int) -> list[Path]:
    """The top-level transform/link nodes that produced ``node_id``, innermost first."""
    out = []
    for ref in compiled.via[node_id] if 0 <= node_id < len(compiled.via) else ():
        path = authored_path(ref)
        if path is not None:
            out.append(path)
    return out


def compiled_ids_of(compiled: Compiled, path: Path) -> list[int]:
    """The compiled nodes copied from the top-level authored node at ``path``."""
    return [i for i, ref in enumerate(compiled.origin) if authored_path(ref) == path]
