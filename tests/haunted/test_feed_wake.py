"""The wake on a live feed (issue 30): readable when the feed is written, replaced or removed,
quiet otherwise; where the system has none, None (the spectator then polls)."""

from __future__ import annotations

import os
import select
import sys
from pathlib import Path

import pytest

from studio.sessions.haunted import feed_wake
from studio.sessions.haunted.feed_tail import FeedTail
from studio.sessions.haunted.feed_wake import open_wake

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


def readable(wake, timeout: float = 2.0) -> bool:
    return bool(select.select([wake.fileno()], [], [], timeout)[0])


def identity(path: Path) -> tuple[Path, int, int]:
    found = os.stat(path)
    return (path, found.st_dev, found.st_ino)


def test_a_write_wakes_and_nothing_else_does(tmp_path: Path) -> None:
    feed = tmp_path / "live.jsonl"
    feed.write_bytes(b"")
    wake = open_wake()
    assert wake is not None
    try:
        assert wake.watch(identity(feed))
        assert not readable(wake, 0.1)
        with feed.open("ab") as out:
            out.write(b'{"event": "turn"}\n')
            out.flush()
            assert readable(wake) and wake.drain()
            assert not readable(wake, 0.1) and not wake.drain()  # drained: quiet again
            out.write(b"more\n")
        assert readable(wake)
    finally:
        wake.close()


def test_a_new_run_s_file_is_watched_once_the_tail_moves_to_it(tmp_path: Path) -> None:
    feed = tmp_path / "live.jsonl"
    feed.write_bytes(b"old\n")
    tail = FeedTail(feed)
    assert tail.read() == [b"old"]
    wake = open_wake()
    try:
        assert wake.watch(tail.file)
        fresh = tmp_path / "new.jsonl"
        fresh.write_bytes(b"")
        os.replace(fresh, feed)  # a new run writes a new file in its place
        assert readable(wake)
        wake.drain()
        tail.read()
        assert tail.file != wake.watched and tail.file == identity(feed)
        assert wake.watch(tail.file)
        feed.write_bytes(b"new\n")
        assert readable(wake)
    finally:
        wake.close()


def test_watching_nothing_or_a_file_gone_is_refused_quietly(tmp_path: Path) -> None:
    wake = open_wake()
    try:
        assert wake.watch(None)
        assert not wake.watch((tmp_path / "gone.jsonl", 0, 0))  # the kernel refuses: poll it
        assert not readable(wake, 0.05)
    finally:
        wake.close()


def test_without_inotify_there_is_no_wake(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(feed_wake, "_libc", None)
    assert open_wake() is None


def test_a_tail_says_when_a_read_left_lines_for_the_next(tmp_path: Path) -> None:
    feed = tmp_path / "live.jsonl"
    feed.write_bytes(b"a\n" * 100)
    tail = FeedTail(feed, chunk=64)
    assert len(tail.read()) == 32 and tail.more
    while tail.more:
        tail.read()
    assert not tail.more and tail.read() == []
