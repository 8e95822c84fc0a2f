"""``LineReader``: protocol lines stamped on arrival, judged later against a deadline."""

from __future__ import annotations

import os
import threading
import time

import pytest

from studio.engines.haunted.ai.arrivals import LineReader


@pytest.fixture
def open_pipe():
    """Makes (a reader over a pipe's read end, its write end); all closed afterwards."""
    made = []

    def make(**options):
        read_end, write_end = os.pipe()
        reader = LineReader(read_end, limit=1024, **options)
        made.append((reader, write_end))
        return reader, write_end

    yield make
    for reader, write_end in made:
        reader.close()
        try:
            os.close(write_end)
        except OSError:
            pass


@pytest.fixture
def pipe(open_pipe):
    """(reader, write end) with ten lines asked for (the runner asks for one per request)."""
    reader, write_end = open_pipe(name="test-lines")
    reader.expect(10)
    return reader, write_end


def test_lines_split_and_joined_across_writes_come_out_whole(pipe) -> None:
    reader, out = pipe
    os.write(out, b'{"a": 1}\n{"b"')
    os.write(out, b': 2}\n\n')
    soon = time.perf_counter() + 2.0
    assert [reader.next(soon).line for _ in range(3)] == [b'{"a": 1}', b'{"b": 2}', b""]


def test_a_line_that_came_in_time_counts_however_late_it_is_asked_for(pipe) -> None:
    reader, out = pipe
    sent = time.perf_counter()
    os.write(out, b"answer\n")
    time.sleep(0.3)
    arrival = reader.next(sent + 0.1)  # asked for after its deadline
    assert arrival is not None and arrival.line == b"answer"
    assert sent <= arrival.at < sent + 0.1


def test_a_line_that_came_late_does_not_count_though_it_is_waiting(pipe) -> None:
    reader, out = pipe
    deadline = time.perf_counter() + 0.05
    time.sleep(0.15)
    os.write(out, b"late\n")
    time.sleep(0.1)
    assert reader.next(deadline) is None


def test_waiting_ends_at_the_deadline_not_before(pipe) -> None:
    reader, _out = pipe
    started = time.perf_counter()
    assert reader.next(started + 0.2) is None
    assert 0.2 <= time.perf_counter() - started < 0.5


def test_end_of_file_and_overlong_lines_end_the_stream(pipe) -> None:
    reader, out = pipe
    os.write(out, b"last\n")
    os.close(out)
    soon = time.perf_counter() + 2.0
    assert reader.next(soon).line == b"last"
    end = reader.next(soon)
    assert end.line is None and end.ended == "eof"
    read_end, write_end = os.pipe()
    long = LineReader(read_end, limit=1024)
    try:
        os.write(write_end, b"x" * 2000)
        end = long.next(time.perf_counter() + 2.0)
        assert end.line is None and end.ended == "too long"
    finally:
        long.close()
        os.close(write_end)


def test_close_ends_the_thread_while_the_writer_lives_on_and_closes_the_fd() -> None:
    read_end, write_end = os.pipe()
    reader = LineReader(read_end, name="test-close")
    try:
        assert reader.running
        reader.close()
        reader.close()
        assert not reader.running
        assert not [t for t in threading.enumerate() if t.name == "test-close"]
        with pytest.raises(OSError):
            os.fstat(read_end)  # closed (and not reused by anything in between)
    finally:
        os.close(write_end)


def test_a_line_nobody_asked_for_ends_the_stream_and_nothing_after_it_is_kept(open_pipe) -> None:
    answered = []
    reader, write_end = open_pipe(on_line=lambda: answered.append(1))
    reader.expect()
    os.write(write_end, b"asked\nahead 1\nahead 2\n")
    soon = time.perf_counter() + 2.0
    assert reader.next(soon).line == b"asked"
    end = reader.next(soon)
    assert end.line is None and end.ended == "unasked"
    assert answered == [1], "on_line runs for the line asked for only"
    deadline = time.monotonic() + 2.0
    while reader.running and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not reader.running, "the thread stops reading at the first line nobody asked for"


def test_a_line_asked_for_later_is_not_unasked(open_pipe) -> None:
    reader, write_end = open_pipe()
    for line in (b"one", b"two"):
        reader.expect()
        os.write(write_end, line + b"\n")
        assert reader.next(time.perf_counter() + 2.0).line == line


def test_an_overlong_line_followed_by_others_in_one_chunk_is_too_long(open_pipe) -> None:
    reader, write_end = open_pipe()
    reader.expect(3)
    os.write(write_end, b"ok\n" + b"x" * 2000 + b"\nmore\n")
    soon = time.perf_counter() + 2.0
    assert reader.next(soon).line == b"ok"
    assert reader.next(soon).ended == "too long"
