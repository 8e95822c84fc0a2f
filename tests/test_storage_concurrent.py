"""Several sessions on one folder: saves never silently replace another session's work.

Independent of SSH: "another session" here is another thread or another load of the same file,
which is all two studio processes sharing a folder amount to.
"""

from __future__ import annotations

import fcntl
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import studio.storage.folder as folder_module
from studio.storage import (
    FileTakenError, StaleFileError, backup_path, create_project, duplicate_project, load_project,
    move_to_trash, rename_project, save_project,
)
from studio.storage.atomic import atomic_write, folder_lock


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    return create_project(tmp_path, "tilecode", "Shared").path


class LockWatch:
    """Records whether the next exclusive ``flock`` call found the lock taken (and so waits).

    Knowing that the saver is blocked must not depend on how long we give it to get there: on a
    loaded machine it may not have reached the lock after any fixed sleep, and "not finished
    yet" would then pass with no lock at all. A non-blocking attempt on the same descriptor
    tells the two apart; the real blocking call follows unchanged.
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.asked = threading.Event()
        self.found_taken: bool | None = None
        real_flock = fcntl.flock

        def flock(fd: int, operation: int) -> None:
            if operation == fcntl.LOCK_EX and not self.asked.is_set():
                try:
                    real_flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    self.found_taken = True
                else:
                    self.found_taken = False
                    self.asked.set()
                    return
                self.asked.set()
            real_flock(fd, operation)

        monkeypatch.setattr(fcntl, "flock", flock)

    def saver_waits(self) -> bool:
        """Wait until the saver asked for the lock; True if it found it taken."""
        return self.asked.wait(30) and self.found_taken is True


def test_the_stale_check_and_the_write_happen_under_the_folder_lock(
        shared: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two saves at the same instant: the second waits, then sees the first and stops."""
    mine = load_project(shared)
    mine.header.name = "Mine"
    outcome: list[BaseException | Path] = []

    def save_mine() -> None:
        try:
            outcome.append(save_project(mine, check_stale=True))
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            outcome.append(exc)

    with folder_lock(shared.parent):
        watch = LockWatch(monkeypatch)
        saver = threading.Thread(target=save_mine)
        saver.start()
        assert watch.saver_waits()  # the save waits for the lock
        assert not outcome  # and has done nothing before it
        # The other session's save, inside the window the lock protects.
        theirs = shared.read_text(encoding="utf-8").replace('name = "Shared"', 'name = "Theirs"')
        atomic_write(shared, theirs.encode())
    saver.join(10)
    assert isinstance(outcome[0], StaleFileError) and not outcome[0].missing
    assert load_project(shared).name == "Theirs"


def test_the_lock_also_holds_between_processes(shared: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # The other process holds the lock until told (a fixed hold raced a loaded machine: the
    # save could begin after it ended).
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys\n"
         "from pathlib import Path\n"
         "from studio.storage.atomic import folder_lock\n"
         "with folder_lock(Path(sys.argv[1])):\n"
         "    print('locked', flush=True)\n"
         "    sys.stdin.readline()\n", str(shared.parent)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    outcome: list[BaseException | Path] = []

    def save() -> None:
        try:
            outcome.append(save_project(load_project(shared), check_stale=True))
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            outcome.append(exc)

    saver = threading.Thread(target=save)
    watch = LockWatch(monkeypatch)
    try:
        assert holder.stdout.readline().strip() == "locked"
        saver.start()
        assert watch.saver_waits() and not outcome  # it waits for the other process
        holder.stdin.write("release\n")
        holder.stdin.flush()
        saver.join(10)
        assert outcome == [shared]  # and saves once the other process let go
    finally:
        holder.stdin.close()
        holder.wait(10)
        if saver.ident is not None:
            saver.join(10)


def test_save_as_never_writes_over_a_file_made_meanwhile(shared: Path) -> None:
    project = load_project(shared)
    other = shared.with_name("taken.toml")
    other.write_text("someone else's file\n", encoding="utf-8")
    with pytest.raises(FileTakenError) as info:
        save_project(project, other, check_stale=True, exclusive=True)
    assert "exists" in info.value.message and info.value.file == other
    assert other.read_text(encoding="utf-8") == "someone else's file\n"
    assert project.path == shared and not list(shared.parent.glob(".*.tmp"))


def test_two_sessions_creating_one_name_get_two_files(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    first = create_project(tmp_path, "btree", "Maze")
    real_free_path = folder_module.free_path
    calls: list[Path] = []

    def stale_free_path(folder: Path, name: str) -> Path:
        # The other session chose maze.toml before this one wrote it: this one sees it free.
        calls.append(real_free_path(folder, name))
        return first.path if len(calls) == 1 else calls[-1]

    monkeypatch.setattr(folder_module, "free_path", stale_free_path)
    second = create_project(tmp_path, "btree", "Maze")
    assert second.path == tmp_path / "maze-2.toml" and len(calls) == 2
    assert load_project(first.path).kind == "btree" and load_project(second.path).name == "Maze"
    copy = duplicate_project(first.path, "Maze")
    assert copy.path not in (first.path, second.path)


def test_a_project_renamed_by_another_session_asks_and_loses_nothing(shared: Path) -> None:
    mine = load_project(shared)
    renamed = rename_project(shared, "Theirs")  # the other session renames it
    assert not shared.exists()
    mine.body["game"]["round_ms"] = 300
    with pytest.raises(StaleFileError) as info:
        save_project(mine, check_stale=True)
    assert info.value.missing and "deleted or renamed" in info.value.message
    save_project(mine)  # "save here again"
    assert load_project(shared).body["game"]["round_ms"] == 300
    assert load_project(renamed.path).name == "Theirs"


def test_a_project_trashed_by_another_session_asks_and_loses_nothing(shared: Path) -> None:
    mine = load_project(shared)
    trashed = move_to_trash(shared)
    mine.body["game"]["round_ms"] = 300
    with pytest.raises(StaleFileError):
        save_project(mine, check_stale=True)
    copy = shared.with_name("mine.toml")
    save_project(mine, copy, check_stale=True, exclusive=True)  # "save as"
    assert load_project(copy).body["game"]["round_ms"] == 300
    assert load_project(trashed).name == "Shared" and not backup_path(copy).exists()
