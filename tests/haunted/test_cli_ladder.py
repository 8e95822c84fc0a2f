"""``studio ladder`` (issue 30) with real submissions: ``studio submit`` starts the catch-up in
the background, a runner in the foreground waits on the lock and plays what is left, and the
standings come out as a table and as JSON; a killed runner's match is played again, counted once;
``--follow`` plays new submissions until the ladder is turned off. The AIs are submitted files
in the sandbox."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path


from studio.storage.haunted.submissions import store_submission
from tests.haunted.test_cli_submit import AI, cup, run  # noqa: F401  (cup is a fixture)


def one_round(project: Path, ladder: str) -> None:
    text = project.read_text().replace("rounds = 5\nmax_rounds = 10", "rounds = 1\nmax_rounds = 1")
    project.write_text(text + ladder)


def runner_pid(err: str) -> int:
    found = re.search(r"\(process (\d+)\)", err)
    assert found, err
    return int(found.group(1))


def test_submissions_feed_the_ladder_and_its_standings(cup: Path, capsys) -> None:  # noqa: F811
    one_round(cup, "\n[ladder]\nenabled = true\nseed = 3\n")
    code, _, err = run(capsys, "submit", str(cup), "ais/alpha.py")
    assert code == 0 and "ladder plays its new matches in the background" in err
    runners = [runner_pid(err)]
    (cup.parent / "ais" / "beta.py").write_text(
        "def main(game_state, side):\n    return ['north', 'north', 'north']\n")
    code, _, err = run(capsys, "submit", str(cup), "ais/beta.py")
    runners.append(runner_pid(err))
    for pid in runners:  # the second waits on the lock while the first plays
        assert os.waitpid(pid, 0)[1] == 0
    assert not run(capsys, "ladder", str(cup))[0]  # nothing left for it
    code, out, _ = run(capsys, "ladder", str(cup), "--standings", "--json")
    table = json.loads(out)
    assert table["scheduled"] == table["played"] == 2
    assert sorted(r["team"] for r in table["standings"]) == ["Alpha", "Beta"]
    assert [r["played"] for r in table["standings"]] == [2, 2]
    replays = sorted((cup.parent / "replays" / "ladder").glob("match-*.json.gz"))
    assert len(replays) == 2
    code, out, _ = run(capsys, "ladder", str(cup), "--standings")
    assert "ladder on: 2 of 2 matches played" in out and "Alpha" in out


def test_the_ladder_command_says_when_the_ladder_is_off(cup: Path, capsys) -> None:  # noqa: F811
    code, _, err = run(capsys, "ladder", str(cup))
    assert code != 0 and "the ladder is off" in err and "enabled = true" in err
    one_round(cup, "\n[ladder]\ngames_per_pair = 0\n")
    code, _, err = run(capsys, "ladder", str(cup), "--standings")
    assert code != 0 and "ladder.games_per_pair" in err


def test_reset_forgets_the_results(cup: Path, capsys) -> None:  # noqa: F811
    folder = cup.parent / "replays" / "ladder"
    folder.mkdir(parents=True)
    (folder / "match-x.json.gz").write_bytes(b"")
    code, _, err = run(capsys, "ladder", str(cup), "--reset")
    assert code == 0 and "1 match(es) forgotten" in err
    assert not list(folder.glob("match-*"))


SLOW = "import time\n\n\ndef main(game_state, side):\n    time.sleep(0.05)\n    return ['south', 'none', 'north']\n"


def test_a_runner_killed_mid_match_leaves_it_to_the_next_counted_once(cup: Path,  # noqa: F811
                                                                      capsys) -> None:
    one_round(cup, "\n[ladder]\nenabled = false\n")  # submissions start nothing: we run it
    for name in ("alpha", "beta"):
        (cup.parent / "ais" / f"{name}.py").write_text(SLOW)
        assert run(capsys, "submit", str(cup), f"ais/{name}.py")[0] == 0
    cup.write_text(cup.read_text().replace("enabled = false", "enabled = true"))
    feed = cup.parent / "replays" / "ladder" / "live.jsonl"
    runner = subprocess.Popen([sys.executable, "-m", "studio", "ladder", str(cup), "--quiet"],
                              cwd=cup.parent)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (
            not feed.exists() or feed.read_text().count('"event":"turn"') < 3):
        time.sleep(0.05)  # the first match is some turns in
    runner.send_signal(signal.SIGKILL)
    runner.wait()
    index = cup.parent / "replays" / "ladder" / "index.json"
    before = json.loads(index.read_text())["matches"] if index.exists() else {}
    assert len(before) < 2  # killed before the end
    assert run(capsys, "ladder", str(cup), "--quiet")[0] == 0
    after = json.loads(index.read_text())
    assert len(after["matches"]) == 2
    assert [r["played"] for r in after["standings"]] == [2, 2]
    assert len(list(index.parent.glob("match-*.json.gz"))) == 2


def test_follow_plays_new_submissions_until_the_ladder_is_turned_off(cup: Path,  # noqa: F811
                                                                     capsys) -> None:
    one_round(cup, "\n[ladder]\nenabled = true\n")
    follower = subprocess.Popen([sys.executable, "-m", "studio", "ladder", str(cup), "--follow",
                                 "--interval", "0.2"], cwd=cup.parent,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(0.5)  # it looks, finds nothing, and waits for submissions
        for minute, name in enumerate(("Alpha", "Beta")):  # stored as a submit stores them
            store_submission(cup.parent, name, AI.encode(), ".py",
                             datetime(2026, 11, 13, 16, minute, tzinfo=timezone.utc))
        index = cup.parent / "replays" / "ladder" / "index.json"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
                not index.exists() or len(json.loads(index.read_text())["matches"]) < 2):
            time.sleep(0.1)
        assert len(json.loads(index.read_text())["matches"]) == 2
        cup.write_text(cup.read_text().replace("enabled = true", "enabled = false"))
        out, err = follower.communicate(timeout=30)
    finally:
        follower.kill()
    assert follower.returncode == 0 and "the ladder was turned off: stopping" in err
    assert "Alpha vs Beta" in out and "Beta vs Alpha" in out


def test_the_ladder_plays_on_a_cluster(cup: Path, capsys) -> None:  # noqa: F811
    """``--cluster local:2``: the submitted files go to Dask workers, played in their sandbox."""
    import pytest
    from importlib.util import find_spec

    if find_spec("distributed") is None:
        pytest.skip("Dask distributed is not installed (the cluster extra)")
    one_round(cup, "\n[ladder]\nenabled = true\nseed = 3\n")
    when = datetime(2026, 11, 10, 9, 0, tzinfo=timezone.utc)
    store_submission(cup.parent, "Alpha", (cup.parent / "ais" / "alpha.py").read_bytes(), ".py",
                     when)
    store_submission(cup.parent, "Beta",
                     b"def main(game_state, side):\n    return ['north', 'north', 'north']\n",
                     ".py", when)
    code, out, err = run(capsys, "ladder", str(cup), "--cluster", "local:2")
    assert code == 0, err
    assert "2 match(es) played" in err and "ladder on: 2 of 2 matches played" in out
    assert len(re.findall(r"ladder +\d+ +\w+ vs \w+ \(.*\): \w+ wins", out)) == 2
