"""Between the compiled tree and the authored one, for the editor's highlights and breakpoints.

A compiled node's ``origin`` is a :data:`~studio.engines.btree.compiling.compiled.NodeRef`
``(file_key, spec_path)``; the top-level game's key is ``""``. Here those become editor paths (tuples of child
indices), or None for nodes that came from an included file, which the editor does not show.
"""

from __future__ import annotations

from studio.engines.btree.compiling.compiled import Compiled, NodeRef
from studio.engines.btree.editing.tree_view import EditError, NodePath, path_from_spec, spec_path


def authored_path(ref: NodeRef) -> NodePath | None:
    """The editor path of an authored node reference; None for a node of an included file."""
    key, where = ref
    if key != "":
        return None
    try:
        return path_from_spec(where)
    except EditError:
        return None


def compiled_ids_of(compiled: Compiled, path: NodePath) -> list[int]:
    """The compiled node ids (pre-order) whose origin is the top-level authored node at ``path``.

    Empty for transforms and links (they leave no node of their own) and for pruned nodes.
    """
    ref = ("", spec_path(path))
    return [i for i, origin in enumerate(compiled.origin) if origin == ref]


def ids_by_path(compiled: Compiled) -> dict[NodePath, list[int]]:
    """:func:`compiled_ids_of` for every authored path at once (for marking a whole tree view)."""
    out: dict[NodePath, list[int]] = {}
    for i, ref in enumerate(compiled.origin):
        path = authored_path(ref)
        if path is not None:
            out.setdefault(path, []).append(i)
    return out


def authored_path_of(compiled: Compiled, node_id: int) -> NodePath | None:
    """The authored path a compiled node was copied from; None when it came from an included file.

    Raises:
        IndexError: no compiled node has that id.
    """
    return authored_path(compiled.origin[node_id])


def via_paths(compiled: Compiled, node_id: int) -> list[NodePath | None]:
    """The transform, link and include nodes that produced a compiled node, innermost first, as
    authored paths (None for those in included files).

    Raises:
        IndexError: no compiled node has that id.
    """
    return [authored_path(ref) for ref in compiled.via[node_id]]
