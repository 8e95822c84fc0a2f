"""Bounds on a YAML document, checked on its parser events before anything is built from it.

A YAML alias (``*name``) repeats the value anchored ``&name``: nine lines of aliases to aliases
make 10^8 values (the "billion laughs"), which PyYAML builds as shared references in no time,
and which every later walk of the game (reshaping, compiling) then expands in full. Deep nesting
is the other danger: PyYAML composes nodes recursively, in C with the fast loader, where running
out of stack is a crash rather than an exception.

So the text is first read as a stream of events (libyaml keeps its own stack, nothing recurses)
to count what the document would expand to and how deep it nests; only a document within
:data:`~studio.engines.common.limits.MAX_YAML_NODES` and
:data:`~studio.engines.common.limits.MAX_NESTING` is loaded.
"""

from __future__ import annotations

import yaml

from studio.engines.btree.model.errors import BtreeError
from studio.engines.common.limits import MAX_NESTING, MAX_YAML_NODES

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_HINT = "no trrbt game is built like this: the file is damaged or hostile"


def check_yaml_bounds(text: str, file: str = "", nesting: int = MAX_NESTING,
                      nodes: int = MAX_YAML_NODES) -> None:
    """Raise :class:`BtreeError` when the YAML ``text`` nests deeper than ``nesting`` or holds
    more than ``nodes`` values once its aliases are expanded (or an alias names a value that
    contains it, which expands for ever).

    YAML syntax errors are left to the caller: this raises :class:`yaml.YAMLError` for them.
    """
    anchors: dict[str, int] = {}
    """Expanded size of each anchored value, once it is complete."""
    open_values: list[list] = []
    """[anchor, size so far] of each collection being read, outermost first."""
    total = 0
    for event in yaml.parse(text, Loader=_Loader):
        size = 0
        if isinstance(event, yaml.CollectionStartEvent):
            open_values.append([event.anchor, 1])
            total += 1
            if len(open_values) > nesting:
                raise BtreeError(f"lists and mappings nest more than {nesting} deep "
                                 f"(line {event.start_mark.line + 1})", file=file, hint=_HINT)
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, size = open_values.pop()
            if anchor is not None:
                anchors[anchor] = size
        elif isinstance(event, yaml.ScalarEvent):
            size = 1
            total += 1
            if event.anchor is not None:
                anchors[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor not in anchors:
                if any(anchor == event.anchor for anchor, _ in open_values):
                    raise BtreeError(f"the alias *{event.anchor} is inside the value it names "
                                     f"(line {event.start_mark.line + 1}): it never ends",
                                     file=file, hint=_HINT)
                continue  # an undefined alias: the loader reports it with its line
            size = anchors[event.anchor]
            total += size
        else:
            continue
        if isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent, yaml.CollectionEndEvent)) \
                and open_values:
            open_values[-1][1] += size
        if total > nodes:
            raise BtreeError(f"the document holds more than {nodes:,} values once its aliases "
                             f"(*name) are expanded (line {event.start_mark.line + 1})",
                             file=file, hint=_HINT)
