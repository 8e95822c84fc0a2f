"""The one path rule of a served session (issue 30, item 1), tried as an attacker would: ``..``,
an absolute path, a link in the middle, a link loop, the server's own files inside the folder,
and a path changed between the check and the open."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.engines.common.limits import MAX_AI_SOURCE_BYTES
from studio.storage import ProjectError, served
from studio.storage.atomic import atomic_write
from studio.storage.reading import read_bounded
from studio.sessions.haunted.ai_files import create_ai_file, export_copy, import_team_list


@pytest.fixture
def jail(tmp_path: Path, monkeypatch):
    """A served folder with a file in it, a secret beside it, and the process held to the
    folder for the test (the rule's state is put back after)."""
    root = tmp_path / "served"
    (root / "ais").mkdir(parents=True)
    (root / "ais" / "mine.py").write_text("def main(s, side):\n    return []\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("SECRET")
    key = root / "authorized_keys"  # the server's own file, inside the folder
    key.write_text("ssh-ed25519 AAAA teacher")
    monkeypatch.setattr(served, "_state", dict(served._state))
    monkeypatch.chdir(root)
    served.serve_from(root, [key], readable=[tmp_path / "package"])
    return root


def refused(call, *words: str) -> str:
    with pytest.raises(ProjectError) as caught:
        call()
    text = str(caught.value)
    for word in words:
        assert word in text, text
    return text


def test_a_path_inside_is_read_and_written(jail: Path) -> None:
    assert read_bounded(jail / "ais" / "mine.py", 1000).startswith(b"def main")
    atomic_write(jail / "ais" / "new.py", b"x = 1\n", backup=False)
    assert (jail / "ais" / "new.py").read_bytes() == b"x = 1\n"
    assert served.inside("ais/mine.py") == jail / "ais" / "mine.py"  # relative: from the folder


def test_dot_dot_and_an_absolute_path_are_refused_by_their_path(jail: Path) -> None:
    for path in ("../outside/secret.txt", str(jail.parent / "outside" / "secret.txt"),
                 "/etc/passwd", "ais/../../outside/secret.txt"):
        refused(lambda p=path: read_bounded(p, 1000), "outside the served folder (by its path)",
                "only in served/")
    refused(lambda: atomic_write(Path("../x.toml"), b"x", backup=False), "by its path")
    assert not (jail.parent / "x.toml").exists()


def test_a_link_in_the_middle_or_at_the_end_that_leads_out_is_refused(jail: Path) -> None:
    (jail / "door").symlink_to(jail.parent / "outside")
    (jail / "ais" / "peek.py").symlink_to(jail.parent / "outside" / "secret.txt")
    refused(lambda: read_bounded(jail / "door" / "secret.txt", 1000), "(through a link)")
    refused(lambda: read_bounded(jail / "ais" / "peek.py", 1000), "(through a link)")
    refused(lambda: atomic_write(jail / "door" / "planted.py", b"x", backup=False),
            "(through a link)")
    refused(lambda: served.make_folder(jail / "door" / "sub"), "(through a link)")
    assert sorted(os.listdir(jail.parent / "outside")) == ["secret.txt"]


def test_a_link_that_stays_inside_is_followed(jail: Path) -> None:
    (jail / "alias.py").symlink_to(jail / "ais" / "mine.py")
    assert read_bounded(jail / "alias.py", 1000).startswith(b"def main")


def test_a_link_loop_is_refused_with_its_reason(jail: Path) -> None:
    (jail / "a").symlink_to(jail / "b")
    (jail / "b").symlink_to(jail / "a")
    refused(lambda: read_bounded(jail / "a", 1000), "loop")
    refused(lambda: atomic_write(jail / "a" / "x", b"x", backup=False), "loop")


def test_the_servers_own_files_are_never_reached_even_inside_the_folder(jail: Path) -> None:
    refused(lambda: read_bounded(jail / "authorized_keys", 1000), "the server's own file")
    (jail / "alias").symlink_to(jail / "authorized_keys")
    refused(lambda: read_bounded(jail / "alias", 1000), "the server's own file")
    os.link(jail / "authorized_keys", jail / "hard")  # the same file under another name
    refused(lambda: read_bounded(jail / "hard", 1000), "the server's own file")
    refused(lambda: atomic_write(jail / "authorized_keys", b"ssh-ed25519 mine", backup=False),
            "the server's own file")
    assert (jail / "authorized_keys").read_text() == "ssh-ed25519 AAAA teacher"
    assert served.is_hidden(jail / "authorized_keys") and not served.is_hidden(jail / "ais")


def test_a_read_only_folder_is_read_never_written(jail: Path) -> None:
    package = jail.parent / "package"
    package.mkdir()
    (package / "builtin.py").write_text("x = 1\n")
    assert read_bounded(package / "builtin.py", 1000) == b"x = 1\n"
    refused(lambda: atomic_write(package / "builtin.py", b"x = 2\n", backup=False), "by its path")
    refused(lambda: served.make_folder(package / "sub"), "by its path")


def test_a_file_swapped_for_a_link_after_the_check_cannot_lead_out(jail: Path,
                                                                   monkeypatch) -> None:
    """The race: checked while a plain file, a link to the secret by the time it is opened."""
    target = jail / "ais" / "mine.py"
    check = served.inside

    def check_then_swap(path, *args, **kwargs):
        real = check(path, *args, **kwargs)
        if Path(path) == target:
            target.unlink()
            target.symlink_to(jail.parent / "outside" / "secret.txt")
        return real

    monkeypatch.setattr(served, "inside", check_then_swap)
    text = refused(lambda: read_bounded(target, 1000), "cannot read the file")
    assert "SECRET" not in text


def test_a_folder_swapped_for_a_link_after_the_check_gets_nothing_written(jail: Path,
                                                                          monkeypatch) -> None:
    """Checked while ``ais/`` was a folder, a link out when the temporary file is made: the
    descriptor's own path gives it away, and the file made outside is removed again."""
    check = served.inside
    calls = []

    def check_then_swap(path, *args, **kwargs):
        real = check(path, *args, **kwargs)
        calls.append(path)
        if len(calls) == 2:  # the folder's check, the last before the temporary file
            os.rename(jail / "ais", jail / "ais-moved")
            (jail / "ais").symlink_to(jail.parent / "outside")
        return real

    monkeypatch.setattr(served, "inside", check_then_swap)
    refused(lambda: atomic_write(jail / "ais" / "new.py", b"x", backup=False),
            "changed while it was opened")
    assert sorted(os.listdir(jail.parent / "outside")) == ["secret.txt"]


def test_the_ai_file_writers_and_the_team_list_follow_the_rule(jail: Path) -> None:
    refused(lambda: export_copy(jail, "../stolen.py", b"x"), "by its path")
    refused(lambda: export_copy(jail, "/tmp/stolen.py", b"x"), "by its path")
    assert not (jail.parent / "stolen.py").exists()
    assert export_copy(jail, "ais/copy.py", b"x") == jail / "ais" / "copy.py"
    refused(lambda: export_copy(jail, "ais/copy.py", b"y"), "that file exists")
    refused(lambda: import_team_list(Path("/etc/passwd"), jail, set()),
            "cannot read the team list", "/etc/passwd is outside the served folder")
    os.rename(jail / "ais", jail / "ais-real")
    (jail / "ais").symlink_to(jail.parent / "outside")
    refused(lambda: create_ai_file(jail, "evil", ".py", lambda _t: "x"), "through a link")
    assert sorted(os.listdir(jail.parent / "outside")) == ["secret.txt"]


def test_not_served_every_path_is_as_before(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(served, "_state", dict(served._state, root=None))
    (tmp_path / "a.txt").write_text("A")
    assert read_bounded(tmp_path / "a.txt", MAX_AI_SOURCE_BYTES) == b"A"
    assert served.inside("/etc/passwd") == Path("/etc/passwd")


def test_the_root_cannot_be_moved_once_set(jail: Path) -> None:
    with pytest.raises(RuntimeError):
        served.serve_from("/")
    assert served.served_root() == jail
