"""The spectator screen follows its feed as it is written (issue 30: 30 spectators, every turn,
at most 0.5 s behind): woken by the feed's writes rather than looking ten times a second, at most
a frame's worth of looks however fast the feed grows, and polling where no wake can be had."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from studio.screens.haunted import spectator as spectator_module
from studio.sessions.haunted import feed_wake
from tests.haunted_ui.test_spectator import cup_feed, mid_match, spectate  # noqa: F401 - fixture
from tests.ui_helpers import studio_app

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


async def watch(pilot, lines: list[str]):
    screen, path = await spectate(pilot, lines, clock=time.time)
    await pilot.pause(0.2)
    return screen, path


def turn_shown(screen) -> int | None:
    record = screen.spectator.view().record
    return record.get("turn") if record else None


@linux_only
async def test_a_turn_written_is_drawn_without_waiting_for_a_poll(
        ht_project: Path, cup_feed: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spectator_module, "POLL", 60.0)  # no look of its own in this test
    monkeypatch.setattr(spectator_module, "WOKEN_POLL", 60.0)
    monkeypatch.setattr(spectator_module, "WAITING_POLL", 60.0)
    lines = mid_match(cup_feed)
    async with studio_app(ht_project).run_test(size=(80, 24)) as pilot:
        screen, path = await watch(pilot, lines[:-1])
        before = turn_shown(screen)
        with path.open("a") as out:
            out.write(lines[-1] + "\n")
        written = time.monotonic()
        while turn_shown(screen) == before and time.monotonic() - written < 5:
            await pilot.pause(0.01)
        assert turn_shown(screen) == before + 1
        assert f"turn {before + 1}" in screen.query_one("#turn").text


@linux_only
async def test_a_burst_of_turns_is_looked_at_a_frame_at_a_time(
        ht_project: Path, cup_feed: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spectator_module, "WOKEN_POLL", 60.0)
    monkeypatch.setattr(spectator_module, "WAITING_POLL", 60.0)
    async with studio_app(ht_project).run_test(size=(80, 24)) as pilot:
        screen, path = await watch(pilot, cup_feed[:3])
        looks = []
        poll = screen.spectator.poll
        monkeypatch.setattr(screen.spectator, "poll", lambda: looks.append(1) or poll())
        started = time.monotonic()
        with path.open("a") as out:
            for line in cup_feed[3:]:  # one write per line, as the writer does
                out.write(line + "\n")
                out.flush()
        await pilot.pause(0.5)
        spent = time.monotonic() - started
        assert screen.spectator.view().status == "over"  # every line read
        assert len(looks) <= spent / spectator_module.LEAST_GAP + 2 < len(cup_feed)


async def test_without_a_wake_the_screen_polls_as_before(
        ht_project: Path, cup_feed: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(feed_wake, "_libc", None)
    lines = mid_match(cup_feed)
    async with studio_app(ht_project).run_test(size=(80, 24)) as pilot:
        screen, path = await watch(pilot, lines[:-1])
        assert screen._wake is None and screen._interval == spectator_module.POLL
        before = turn_shown(screen)
        with path.open("a") as out:
            out.write(lines[-1] + "\n")
        await pilot.pause(spectator_module.POLL * 3)
        assert turn_shown(screen) == before + 1


async def test_leaving_the_screen_lets_go_of_the_document_and_the_wake(
        ht_project: Path, cup_feed: list[str]) -> None:
    # Textual calls each class's on_mount along the MRO; the screens' super().on_mount() made the
    # document screen subscribe twice, and the first listener outlived the screen.
    async with studio_app(ht_project).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        document = pilot.app.screen.document
        listeners = len(document._listeners)
        screen, _ = await watch(pilot, cup_feed[:3])
        assert len(document._listeners) == listeners + 1
        wake = screen._wake
        await pilot.press("escape")
        await pilot.pause()
        assert len(document._listeners) == listeners
        assert screen._wake is None and (wake is None or wake.fileno() == -1)
