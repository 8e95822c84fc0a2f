"""Over SSH as a student (issue 30): the test opponent is another team's submission, chosen by
its time and hash, and played in the sandbox; its crash reaches the student without a line of
its source."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from studio.engines.haunted.builtin_ais import NAMES
from studio.storage.haunted.submissions import store_submission
from tests.ssh.test_roles import SECRET, keys, server, shared, teams  # noqa: F401 - fixtures
from tests.ssh.test_served_paths import wait_words

CRASHING = (f"# {SECRET['b']}\n"
            "def main(game_state, side):\n"
            f"    raise ValueError('{SECRET['b']}')  # {SECRET['b']}\n")


async def test_a_student_plays_another_teams_submission_and_never_sees_its_source(
        server, keys, shared: Path) -> None:  # noqa: F811
    handed = store_submission(shared, "Team B", CRASHING.encode(), ".py",
                              datetime(2026, 11, 13, 22, 59, 2, tzinfo=timezone.utc))
    terminal = await teams(server, keys["student"])
    await terminal.press("e")  # Team A's own file
    await terminal.wait_for(SECRET["a"], "AI editor")
    await terminal.press("ctrl+o")
    await wait_words(terminal, "Test opponent", "team Team A (current file)")
    # Past the built-ins and Team A's own file to Team B's submission (scrolled into view).
    await terminal.press("home", *["down"] * (len(NAMES) + 1), pause=0.2)
    await wait_words(terminal, "Team B — submitted 2026-11-13 22:59:02 UTC", handed.sha256[:8])
    assert "Team B (current file)" not in terminal.text()
    await terminal.press("enter")
    await wait_words(terminal, "Test vs Team B — submitted")
    await terminal.press("ctrl+r")
    await wait_words(terminal, "Team B (submitted)", "exception: what it raised or printed is not shown", timeout=40)
    await terminal.settle()
    assert SECRET["b"] not in terminal.text(), terminal.text()
    assert "ValueError" not in terminal.text()
    await terminal.press("escape", pause=0.4)
    assert SECRET["b"] not in terminal.text()
    await terminal.close()
