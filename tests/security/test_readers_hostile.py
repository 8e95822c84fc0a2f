"""Every reader against every named hostile file: each ends in the reader's own error, within
5 s and 300 MB (issue 28).

The cases run in one child process (``harness``), measured one by one; this module turns each
into a test of its own, so a failure names the reader and the attack.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.security.harness import MEGABYTES, SECONDS, Outcome, run_cases
from tests.security.hostile import CASES, applies, make
from tests.security.readers import READERS

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="FIFOs, /dev/zero and /proc/self are Linux's")

PAIRS = [(reader, case) for reader in READERS for case in CASES if applies(case, reader)]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Outcome]:
    root = tmp_path_factory.mktemp("hostile")
    cases = [(reader.name, case, str(make(case, reader, root))) for reader, case in PAIRS]
    for reader in READERS:  # and the valid file, which must be read without an error
        folder = root / f"{reader.name}--valid"
        folder.mkdir()
        (folder / reader.file_name).write_bytes(reader.valid())
        cases.append((reader.name, "valid", str(folder / reader.file_name)))
    return run_cases(cases)


@pytest.mark.parametrize("reader", READERS, ids=lambda reader: reader.name)
def test_the_valid_file_is_read(reader, outcomes) -> None:
    outcome = outcomes[(reader.name, "valid")]
    assert outcome.result == "accepted", outcome.error


@pytest.mark.parametrize(("reader", "case"), PAIRS,
                         ids=[f"{reader.name}-{case}" for reader, case in PAIRS])
def test_a_hostile_file_ends_in_the_reader_s_error_quickly(reader, case, outcomes) -> None:
    outcome = outcomes[(reader.name, case)]
    assert outcome.result == "typed", f"{outcome.result}: {outcome.error}"
    assert outcome.seconds <= SECONDS, f"took {outcome.seconds:.1f} s"
    assert outcome.megabytes <= MEGABYTES, f"grew by {outcome.megabytes:.0f} MB"
    assert "\n" not in outcome.error.strip(), "one line, no traceback"


def test_the_list_holds_every_attack_of_the_issue() -> None:
    assert set(CASES) == {
        "deep-nesting", "huge", "fifo", "dev-zero-link", "dangling-link", "folder",
        "binary-garbage", "invalid-utf8", "nul-bytes", "billion-laughs", "gzip-bomb",
        "missing-key", "wrong-type"}


def test_the_harness_reports_a_reader_that_hangs(tmp_path: Path) -> None:
    # A FIFO read the way readers were written (Path.read_bytes) blocks for ever: the child's
    # alarm ends it, and the case is reported as a timeout rather than hanging the suite.
    os.mkfifo(tmp_path / "x.json")
    outcome = run_cases([("unbounded", "fifo", str(tmp_path / "x.json"))])[("unbounded", "fifo")]
    assert outcome.result == "timeout"
