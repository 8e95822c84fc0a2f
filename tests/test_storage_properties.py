"""Property tests: valid projects round-trip exactly; corrupted files give only ProjectError."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.engines.common.inert import is_inert
from studio.storage import KINDS, ProjectError, dumps_project, loads_project
from studio.storage.project import Project, ProjectHeader
from studio.storage.tomlio import decode_utf8, dumps

# Kept small on purpose: generating examples, not checking them, is what costs time here.
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=8)
KEYS = st.one_of(
    st.sampled_from(["a", "seed", "name", "x-y", "snake_case", "with space", "é", "", "1"]), TEXT
)
GRID = st.lists(st.text(".#PB_ ", min_size=1, max_size=6), min_size=1, max_size=4).map(
    lambda rows: "\n".join(rows) + "\n"
)
SCALARS = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False),
    st.booleans(),
    TEXT,
    GRID,
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(KEYS, inner, max_size=4),
    ),
    max_leaves=6,
)
TABLES = st.dictionaries(KEYS, VALUES, max_size=4)
BODY = st.dictionaries(
    KEYS.map(lambda k: "project_" if k == "project" else k),
    st.one_of(TABLES, st.lists(TABLES, min_size=1, max_size=3)),
    max_size=3,
)
NAMES = st.text(st.characters(exclude_categories=("Cs", "Cc")), min_size=1, max_size=20).map(
    lambda s: s.strip() or "unnamed"
).filter(is_inert)  # a bidi control (category Cf) is no name: storage refuses it


@st.composite
def projects(draw: st.DrawFn) -> Project:
    header = ProjectHeader(draw(st.sampled_from(list(KINDS))), draw(NAMES), 1)
    return Project(header, draw(BODY))


def _same(a: Any, b: Any) -> bool:
    """Equality that treats -0.0 and 0.0 alike but keeps types apart (1 is not 1.0 or True)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) or (a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a))
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return a == b


@contextmanager
def generic_bodies() -> Iterator[None]:
    """Switch off the kinds' own body validation: these bodies are random tables, valid TOML
    but not games. Each kind's storage tests check its own bodies round-trip."""
    saved = {kind: spec.validate for kind, spec in KINDS.items()}
    try:
        for spec in KINDS.values():
            spec.validate = None
        yield
    finally:
        for kind, validate in saved.items():
            KINDS[kind].validate = validate


@settings(max_examples=2000, suppress_health_check=[HealthCheck.too_slow])
@given(projects())
def test_valid_projects_round_trip_exactly(project: Project) -> None:
    text = dumps_project(project)
    with generic_bodies():
        again = loads_project(text)
    assert again.header == project.header
    assert _same(again.body, project.body)
    assert dumps_project(again) == text


def _load_bytes(data: bytes) -> None:
    loads_project(decode_utf8(data))


@st.composite
def corrupted(draw: st.DrawFn) -> bytes:
    project = draw(projects())
    document = project.document()
    how = draw(st.sampled_from(["truncate", "flip", "insert", "retype", "drop"]))
    if how in ("retype", "drop"):
        table = draw(st.sampled_from(list(document)))
        if how == "drop":
            if isinstance(document[table], dict) and document[table] and draw(st.booleans()):
                del document[table][draw(st.sampled_from(list(document[table])))]
            else:
                del document[table]
        elif isinstance(document[table], dict) and document[table]:
            key = draw(st.sampled_from(list(document[table])))
            document[table][key] = draw(VALUES)
        else:
            document[table] = draw(VALUES)
        try:
            return dumps(document).encode()
        except TypeError:
            return b""
    data = bytearray(dumps(document).encode())
    if how == "truncate":
        return bytes(data[: draw(st.integers(0, len(data)))])
    if how == "flip":
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(data) - 1))
            data[at] ^= 1 << draw(st.integers(0, 7))
        return bytes(data)
    at = draw(st.integers(0, len(data)))
    return bytes(data[:at]) + draw(st.binary(min_size=1, max_size=8)) + bytes(data[at:])


@settings(max_examples=2500, suppress_health_check=[HealthCheck.too_slow])
@given(corrupted())
def test_corrupted_files_raise_only_project_error(data: bytes) -> None:
    # The kinds' validators stay on: random bodies must give them only ProjectError too.
    try:
        _load_bytes(data)
    except ProjectError as exc:
        assert exc.message
        str(exc)  # the message must render
