"""Each limit at its edge, with the production numbers: what is just inside is read, what is just
past is refused with an error that says which limit and where.

An attacker aims at the edge (one byte more, one bracket deeper), so these tests do too.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

from studio.engines.common import limits
from studio.engines.common.limits import (
    MAX_NESTING,
    MAX_REPLAY_BYTES,
    MAX_TOML_BYTES,
    human_bytes,
    nesting_overflow,
    too_deep,
)
from studio.storage import ProjectError, load_project
from studio.storage.reading import gunzip_bounded, parse_json, read_bounded
from studio.storage.tomlio import parse_toml

HEADER = '[project]\nkind = "btree"\nname = "Edge"\nformat = 1\n'


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# ------------------------------------------------------------------------------------ sizes


def test_a_file_of_exactly_the_cap_is_read_one_byte_more_is_not(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_bytes(b"#" * (MAX_TOML_BYTES - 1) + b"\n")
    assert len(read_bounded(path, MAX_TOML_BYTES)) == MAX_TOML_BYTES
    with pytest.raises(ProjectError, match="no .project. table"):
        load_project(path)  # past the size check: refused for what it says, not its size
    path.write_bytes(b"#" * MAX_TOML_BYTES + b"\n")
    with pytest.raises(ProjectError, match=r"more than the 2 MiB a project file may have") as error:
        load_project(path)
    assert error.value.file == path and "README" in error.value.hint


def test_the_size_is_checked_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    with open(path, "wb") as file:
        file.truncate(1 << 40)  # a sparse terabyte: reading it would take hours
    with pytest.raises(ProjectError, match="the file is 1024 GiB"):
        read_bounded(path, MAX_TOML_BYTES, "a project file")


def test_a_file_that_grows_past_its_size_is_read_up_to_the_cap_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # st_size can lie (a file being appended to): the read itself stops at the cap.
    path = tmp_path / "x.toml"
    path.write_bytes(b"x" * 100)
    real_fstat = os.fstat

    def shrunk(fd: int):
        found = real_fstat(fd)
        return os.stat_result((*found[:6], 10, *found[7:]))

    monkeypatch.setattr(os, "fstat", shrunk)
    assert read_bounded(path, 100) == b"x" * 100
    with pytest.raises(ProjectError, match="keeps growing"):
        read_bounded(path, 99)


def test_sizes_read_the_way_the_readme_writes_them() -> None:
    assert [human_bytes(n) for n in (MAX_TOML_BYTES, MAX_REPLAY_BYTES, 1536, 100)] == [
        "2 MiB", "8 MiB", "1.5 KiB", "100 bytes"]


# ---------------------------------------------------------------------------------- nesting


def test_toml_nested_to_the_limit_parses_one_deeper_is_refused_with_its_line() -> None:
    assert parse_toml(f"seed = {nested(MAX_NESTING)}\n{HEADER}")["seed"]
    with pytest.raises(ProjectError, match=f"nest more than {MAX_NESTING} deep") as error:
        parse_toml(f"{HEADER}[btree]\nseed = {nested(MAX_NESTING + 1)}\n", Path("x.toml"))
    assert error.value.line == 6
    with pytest.raises(ProjectError, match="nest more than"):  # tables count as they nest
        parse_toml(f"{HEADER}[btree]\nseed = {nested(MAX_NESTING)}\n", Path("x.toml"))


def test_json_nested_to_the_limit_parses_one_deeper_is_refused() -> None:
    assert parse_json(nested(MAX_NESTING)) is not None
    with pytest.raises(ProjectError, match="nest more than") as error:
        parse_json('{"a":\n' + nested(MAX_NESTING + 1) + "}")
    assert error.value.line == 2


def test_brackets_in_strings_and_comments_do_not_count() -> None:
    many = "[{" * 1000
    assert parse_toml(f'a = "{many}"  # {many}\nb = \'{many}\'\nc = """\n{many}\n"""\n')["b"] == many
    assert parse_json(json.dumps({"a": many, "b": [many, "\\\"" + many]}))["a"] == many


def test_depth_through_dotted_keys_is_refused_too() -> None:
    # No bracket shows it: [a.a.a....] builds tables inside tables.
    keys = ".".join(["a"] * (MAX_NESTING + 1))
    with pytest.raises(ProjectError, match="nest more than") as error:
        parse_toml(f"{HEADER}[{keys}]\nx = 1\n")
    assert error.value.field_path == ("a",) * 6  # the branch, cut short for the screen
    assert parse_toml(f"[{'.'.join(['a'] * MAX_NESTING)}]\n") is not None
    assert too_deep({"a": [[]]}, 3) is None and too_deep({"a": [[]]}, 2) == ("a", 0)


def test_a_text_the_scan_gives_up_on_is_still_refused_after_parsing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The scan reads a bounded number of tokens; past them the parsers (safe: json counts its
    # recursion in C, tomllib is Python) and the check of the result still refuse the text.
    monkeypatch.setattr("studio.storage.reading.nesting_overflow", lambda *a, **k: None)
    monkeypatch.setattr("studio.storage.tomlio.nesting_overflow", lambda *a, **k: None)
    for depth in (MAX_NESTING + 1, 100_000):
        with pytest.raises(ProjectError, match="nest more than"):
            parse_json(nested(depth))
        with pytest.raises(ProjectError, match="nest more than"):
            parse_toml(f"a = {nested(depth)}\n")


def test_the_scan_stops_at_its_budget() -> None:
    text = "[]," * 100 + nested(MAX_NESTING + 1)
    assert nesting_overflow(text, "json") is not None
    assert nesting_overflow(text, "json", budget=50) is None
    assert limits.SCAN_TOKENS >= 100_000


# ------------------------------------------------------------------------------------- gzip


def test_gzip_unpacking_to_exactly_the_cap_is_read_one_byte_more_is_not() -> None:
    assert len(gunzip_bounded(gzip.compress(bytes(MAX_REPLAY_BYTES)), MAX_REPLAY_BYTES)) \
        == MAX_REPLAY_BYTES
    with pytest.raises(ProjectError, match="unpacks to more than 8 MiB"):
        gunzip_bounded(gzip.compress(bytes(MAX_REPLAY_BYTES + 1)), MAX_REPLAY_BYTES)


def test_gzip_members_count_together_and_a_cut_stream_is_an_error() -> None:
    member = gzip.compress(bytes(1000))
    assert gunzip_bounded(member * 3, 3000) == bytes(3000)
    with pytest.raises(ProjectError, match="unpacks to more than"):
        gunzip_bounded(member * 4, 3000)
    with pytest.raises(ProjectError, match="cut short"):
        gunzip_bounded(member[:-4], 3000)
    with pytest.raises(ProjectError, match="not readable gzip"):
        gunzip_bounded(b"\x1f\x8b" + b"\x00" * 20, 3000)
