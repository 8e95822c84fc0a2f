"""The README's "Where the studio writes files" names the places the code writes to: a test
fails when one of them moves and the table does not follow."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT


def _section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## Where the studio writes files\n(.*?)^## ", text, re.S | re.M)
    assert match, "README.md has no 'Where the studio writes files' section"
    return match.group(1)


def test_the_table_names_each_place_the_code_writes() -> None:
    from studio.engines.haunted.ai.spawn import PREFIX
    from studio.sessions.haunted.ai_files import AI_FOLDER
    from studio.sessions.haunted.replays import FOLDER
    from studio.storage.atomic import backup_path
    from studio.storage.btree.replay import REPLAY_SUFFIX as BTREE_REPLAY
    from studio.storage.folder import TRASH
    from studio.storage.tilecode.replay import REPLAY_SUFFIX as TILECODE_REPLAY

    section = _section()
    for place in (f"{TRASH}/", f"`{FOLDER}/", f"`{AI_FOLDER}/", f"{PREFIX}PID-", TILECODE_REPLAY,
                  BTREE_REPLAY, backup_path(Path("NAME.toml")).name):
        assert place in section, place


def test_the_host_key_place_is_the_one_serve_uses(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    hostkey = pytest.importorskip("studio.ssh.hostkey")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    path = hostkey.default_host_key_path()
    assert path == tmp_path / "studio" / hostkey.KEY_NAME
    assert f"`$XDG_STATE_HOME/studio/{hostkey.KEY_NAME}`" in _section()
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    state = tmp_path / ".local" / "state" / "studio"
    assert hostkey.default_host_key_path() == state / hostkey.KEY_NAME
    assert "~/.local/state/studio/" in _section()
