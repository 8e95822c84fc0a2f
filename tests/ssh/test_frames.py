"""The shared view's cutting of a studio's output into frames (``studio.ssh.broadcast``): a
spectator is given whole frames only, however the reads of the terminal cut them."""

from __future__ import annotations

from studio.ssh.broadcast import SYNC_END, SYNC_QUERY, SYNC_START, Frames, shared_size

OUTPUT = (b"\x1b[?1049h\x1b[?1000h" + SYNC_QUERY + b"\x1b[?2048$p"  # set-up: for nobody
          + SYNC_START + b"\x1b[1;1Hframe one\x1b[2;1H\x1b[?2026" + SYNC_END  # a near-marker inside
          + b"\x1b[?25l"  # between frames: for nobody
          + SYNC_START + b"\x1b[3;1Hframe two" + SYNC_END + b"\x1b")  # an escape left at the end


def replay(chunks: list[bytes]) -> list[tuple[str, bytes]]:
    frames = Frames()
    pieces = [piece for chunk in chunks for piece in frames.feed(chunk)]
    merged: list[tuple[str, bytes]] = []
    for kind, data in pieces:  # the bytes of a frame in one piece, however they were read
        if kind == "in" and merged and merged[-1][0] == "in":
            merged[-1] = ("in", merged[-1][1] + data)
        else:
            merged.append((kind, data))
    return merged


EXPECTED = [("query", b""), ("start", b""), ("in", b"\x1b[1;1Hframe one\x1b[2;1H\x1b[?2026"),
            ("end", b""), ("start", b""), ("in", b"\x1b[3;1Hframe two"), ("end", b"")]


def test_the_frames_and_the_query_are_found_in_one_read() -> None:
    assert replay([OUTPUT]) == EXPECTED


def test_a_read_cut_anywhere_gives_the_same_frames() -> None:
    for cut in range(1, len(OUTPUT)):
        assert replay([OUTPUT[:cut], OUTPUT[cut:]]) == EXPECTED, cut


def test_a_byte_at_a_time_gives_the_same_frames() -> None:
    assert replay([OUTPUT[k:k + 1] for k in range(len(OUTPUT))]) == EXPECTED


def test_a_terminal_is_shown_the_largest_standard_size_that_fits_it() -> None:
    assert shared_size(80, 24) == (80, 24)
    assert shared_size(125, 36) == (120, 30)
    assert shared_size(300, 100) == (240, 80)
    assert shared_size(70, 20) == (70, 20)  # smaller than any: its own
    assert shared_size(79, 40) == (79, 40)
