"""The folder at a glance (the home screen's first frame) lists what the full read lists, and
the kinds' storage installs itself whichever module is imported first (issue 27)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from studio.storage.folder import scan_folder
from studio.storage.listing import HEADER_BYTES, glance_folder

GAMES = Path(__file__).resolve().parent.parent / "games"


def _rows(entries) -> list[tuple[str, str | None, str]]:
    return [(entry.name, entry.kind, entry.path.name) for entry in entries]


def test_a_glance_at_the_bundled_games_lists_them_as_the_full_read_does(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    shutil.copytree(GAMES, folder)
    glanced, read = glance_folder(folder), scan_folder(folder)
    assert _rows(glanced) == _rows(read) and len(read) >= 13
    assert all(entry.pending and entry.project is None for entry in glanced)
    assert not any(entry.pending for entry in read)


def test_replays_and_trrbt_games_are_told_apart_by_their_names(sample_games: Path) -> None:
    from tests.btree.trrbt_texts import TTT_YAML

    (sample_games / "ttt.yaml").write_text(TTT_YAML)
    (sample_games / "settings.json").write_text('{"not": "a game"}')
    glanced, read = glance_folder(sample_games), scan_folder(sample_games)
    assert _rows(glanced) == _rows(read)
    assert [entry.trrbt for entry in glanced] == [entry.trrbt for entry in read]
    assert "settings.json" not in {entry.path.name for entry in glanced}


@pytest.mark.parametrize("text, why", [
    (b'[project]\nname = "Cut"\n' + b"# padding\n" * HEADER_BYTES, "the table runs past the head"),
    (b"# " + b"x" * HEADER_BYTES + b'\n[project]\nname = "Late"\nkind = "btree"\n',
     "the header comes after the head"),
    (b'[project]\nname = "Unclosed\nkind = "btree"\n', "not TOML"),
    (b'[project]\nname = 7\nkind = "btree"\n', "a name that is not text"),
    (b'[project]\nname = "\xff"\nkind = "btree"\n', "not UTF-8"),
    (b"", "empty"),
])
def test_a_header_that_cannot_be_glanced_at_leaves_the_file_to_the_full_read(
        tmp_path: Path, text: bytes, why: str) -> None:
    (tmp_path / "odd.toml").write_bytes(text)
    (entry,) = glance_folder(tmp_path)
    assert entry.pending and entry.header is None, why
    assert entry.name == "odd" and entry.kind is None  # as the full read names a broken file


def test_a_broken_project_glanced_at_is_named_as_its_header_says_until_read(
        tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text(
        '[project]\nname = "Looks fine"\nkind = "tilecode"\nformat = 1\n\n[map]\nwidth = "x"\n')
    (glanced,) = glance_folder(tmp_path)
    assert (glanced.name, glanced.kind) == ("Looks fine", "tilecode")
    (read,) = scan_folder(tmp_path)
    assert read.project is None and read.error is not None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_among_the_projects_does_not_hang_the_glance(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.toml")
    (tmp_path / "big.toml").write_bytes(b"[project]\n" + b"#" * (50 * 1024 * 1024))
    entries = {entry.path.name: entry for entry in glance_folder(tmp_path)}
    assert set(entries) == {"pipe.toml", "big.toml"}  # listed, as the full read lists them
    assert entries["pipe.toml"].header is None and entries["big.toml"].header is None


def test_a_missing_folder_is_an_error_naming_it(tmp_path: Path) -> None:
    from studio.storage.errors import ProjectError

    with pytest.raises(ProjectError, match="no such folder"):
        glance_folder(tmp_path / "nowhere")


INSTALLED = """
import sys, threading
{first}
from studio.storage.kinds import KINDS
seen = []
def read():
    seen.append(all(KINDS[kind].validate is not None for kind in ("tilecode", "btree", "haunted")))
threads = [threading.Thread(target=read) for _ in range(8)]
[thread.start() for thread in threads]
[thread.join() for thread in threads]
print(all(seen) and len(seen) == 8)
"""


@pytest.mark.parametrize("first", [
    "import studio.storage.project",
    "from studio.storage.kinds import KINDS",
    "from studio.storage import load_project",
    "import studio.storage.listing",
])
def test_every_kind_is_validated_whichever_module_loads_first(first: str) -> None:
    """The kinds' storage installs itself on the first read of KINDS; threads reading at once
    (the home screen reads the folder in one) each see every validator, never a spec without."""
    result = subprocess.run([sys.executable, "-c", INSTALLED.format(first=first)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


def test_a_project_loaded_through_the_project_module_alone_is_validated(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[project]\nname = "B"\nkind = "tilecode"\nformat = 1\n\n[map]\nwidth = "x"\n')
    code = ("import sys\nfrom studio.storage.project import load_project\n"
            "from studio.storage.errors import ProjectError\n"
            f"try:\n    load_project({str(bad)!r})\nexcept ProjectError as exc:\n"
            "    print('refused', exc)\nelse:\n    print('loaded')\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60)
    assert result.stdout.startswith("refused"), result.stdout + result.stderr
