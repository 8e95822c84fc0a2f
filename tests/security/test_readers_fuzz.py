"""Random files for every reader: whatever the bytes, a reader returns or raises its own error.

Two kinds of input: any bytes at all, and a valid document with one part removed or replaced by
a value of another type (where missing keys and wrong types hide; the replay's reader then also
has its replay verified and listed, as the studio does next). The named attacks, with time and
memory measured, are in ``test_readers_hostile``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.security.readers import BY_NAME, READERS, Reader

FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

SCALARS = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(
    allow_nan=False) | st.text(max_size=6)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)


def read(reader: Reader, folder: Path, data: bytes) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / reader.file_name
    path.write_bytes(data)
    try:
        reader.read(path)
    except reader.errors:
        pass


@pytest.mark.parametrize("reader", READERS, ids=lambda reader: reader.name)
@FUZZ
@given(data=st.binary(max_size=2048))
def test_any_bytes(reader: Reader, data: bytes, tmp_path: Path) -> None:
    read(reader, tmp_path / reader.name, data)


@pytest.mark.parametrize("reader", READERS, ids=lambda reader: reader.name)
@FUZZ
@given(text=st.text(alphabet="[]{}\"'#=,:.\\\n -*&ab1", max_size=400))
def test_text_made_of_syntax(reader: Reader, text: str, tmp_path: Path) -> None:
    read(reader, tmp_path / reader.name, text.encode())


# ------------------------------------------------------------------- one part of a document


def mutate(document: Any, draw, value_strategy) -> Any:
    """``document`` with one part, chosen by ``draw``, deleted or replaced by a drawn value."""
    if not isinstance(document, (dict, list)) or not document:
        return draw(value_strategy)
    keys = list(document) if isinstance(document, dict) else list(range(len(document)))
    key = draw(st.sampled_from(keys))
    action = draw(st.sampled_from(["descend", "descend", "delete", "replace"]))
    copy = dict(document) if isinstance(document, dict) else list(document)
    if action == "delete":
        del copy[key]
    elif action == "replace":
        copy[key] = draw(value_strategy)
    else:
        copy[key] = mutate(document[key], draw, value_strategy)
    return copy


JSON_READERS = ["haunted-replay", "maps-json", "trrbt-json", "tournament-index"]
TOML_READERS = ["project", "tilecode-replay"]


@pytest.mark.parametrize("name", JSON_READERS)
@FUZZ
@given(data=st.data())
def test_a_json_document_with_a_part_missing_or_of_another_type(name: str, data,
                                                                 tmp_path: Path) -> None:
    reader = BY_NAME[name]
    document = mutate(json.loads(reader.valid()), data.draw, VALUES)
    read(reader, tmp_path / name, json.dumps(document).encode())


@pytest.mark.parametrize("name", TOML_READERS)
@FUZZ
@given(data=st.data())
def test_a_toml_document_with_a_part_missing_or_of_another_type(name: str, data,
                                                                 tmp_path: Path) -> None:
    import tomllib

    from studio.storage.tomlio import dumps

    reader = BY_NAME[name]
    toml_values = st.recursive(
        st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=6),
        lambda inner: st.lists(inner, max_size=3)
        | st.dictionaries(st.from_regex(r"[a-z]{1,5}", fullmatch=True), inner, max_size=3),
        max_leaves=6)
    document = mutate(tomllib.loads(reader.valid().decode()), data.draw, toml_values)
    if not isinstance(document, dict):
        document = {"value": document}
    read(reader, tmp_path / name, dumps(document).encode())
