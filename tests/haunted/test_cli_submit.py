"""``studio submit`` and ``studio submissions`` (issue 30): exit codes, messages, the deadline."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from studio import cli
from studio.storage.haunted.submissions import list_submissions

AI = "def main(game_state, side):\n    return ['south', 'south', 'south']\n"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def cup(tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A haunted project with two teams of their own, Alpha and Beta (ais/alpha.py, beta.py)."""
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "new", "haunted", "Cup", "-o", "cup.toml")[0] == 0
    (tmp_path / "ais").mkdir()
    text = (tmp_path / "cup.toml").read_text()
    for name in ("alpha", "beta"):
        (tmp_path / "ais" / f"{name}.py").write_text(AI)
        text += f'\n[[team]]\nname = "{name.title()}"\nruntime = "python"\nsource = "ais/{name}.py"\n'
    (tmp_path / "cup.toml").write_text(text)
    return tmp_path / "cup.toml"


def test_submit_stores_and_lists(cup: Path, capsys) -> None:
    code, out, err = run(capsys, "submit", str(cup), "ais/alpha.py")  # the file says the team
    assert code == 0 and err == ""
    assert out.startswith("Submitted for Alpha at ") and out.rstrip().endswith(
        list_submissions(cup.parent, "Alpha")[0].short_hash)
    code, out, _ = run(capsys, "submit", str(cup), "--team", "Beta", "ais/alpha.py")
    assert code == 0 and "Submitted for Beta" in out
    code, out, _ = run(capsys, "submissions", str(cup))
    lines = out.splitlines()
    assert code == 0 and lines[0] == "deadline: none (open)"
    assert lines[1].startswith("Alpha  20") and lines[1].endswith("1 in all")
    data = json.loads(run(capsys, "submissions", str(cup), "--json")[1])
    assert [t["name"] for t in data["teams"]] == ["Alpha", "Beta"]
    assert data["teams"][0]["playing"]["file"].startswith("submissions/alpha/")


def test_after_the_deadline_submit_says_so_and_stores_nothing(cup: Path, capsys) -> None:
    code, _, err = run(capsys, "submissions", str(cup), "--deadline", "2020-01-01T00:00:00-07:00")
    assert code == 0 and "deadline 2020-01-01 00:00 -0700" in err
    assert tomllib.loads(cup.read_text())["submissions"] == {"deadline": "2020-01-01T00:00:00-07:00"}
    assert cup.with_name("cup.toml.bak").exists()
    code, out, err = run(capsys, "submit", str(cup), "ais/alpha.py")
    assert code == 1 and out == ""
    assert err == ("studio: ais/alpha.py: submissions closed at 2020-01-01 00:00 -0700 "
                   "(2020-01-01 07:00 UTC); nothing was stored\n")
    assert list_submissions(cup.parent, "Alpha") == []
    listed = run(capsys, "submissions", str(cup))[1]
    assert "(closed)" in listed.splitlines()[0] and "Alpha  no submission" in listed
    # The teacher reopens.
    assert run(capsys, "submissions", str(cup), "--no-deadline")[0] == 0
    assert "submissions" not in tomllib.loads(cup.read_text())
    assert run(capsys, "submit", str(cup), "ais/alpha.py")[0] == 0


def test_submit_refusals(cup: Path, capsys) -> None:
    (cup.parent / "ais" / "bad.py").write_text("def main(s, side)\n    return []\n")
    code, _, err = run(capsys, "submit", str(cup), "--team", "Alpha", "ais/bad.py")
    assert code == 1 and "SyntaxError" in err and "nothing was stored" in err
    code, _, err = run(capsys, "submit", str(cup), "ais/bad.py")
    assert code == 1 and "no team of the project plays this file" in err and "--team" in err
    code, _, err = run(capsys, "submit", str(cup), "--team", "Nobody", "ais/alpha.py")
    assert code == 1 and "no team named 'Nobody'" in err
    code, _, err = run(capsys, "submit", str(cup), "--team", "Greedy Ghosts", "ais/alpha.py")
    assert code == 1 and "plays a built-in AI" in err
    (cup.parent / "ais" / "huge.py").write_bytes(b"#" * (4 * 1024 * 1024 + 1))
    code, _, err = run(capsys, "submit", str(cup), "--team", "Alpha", "ais/huge.py")
    assert code == 1 and "more than the 4 MiB an AI file may have" in err
    assert not (cup.parent / "submissions").exists()


def test_a_deadline_without_a_zone_is_refused(cup: Path, capsys) -> None:
    before = cup.read_text()
    code, _, err = run(capsys, "submissions", str(cup), "--deadline", "2026-11-13T17:00")
    assert code == 1 and "--deadline: the deadline 2026-11-13T17:00:00 has no time zone" in err
    assert cup.read_text() == before


def test_a_project_tournament_skips_a_team_without_a_submission(cup: Path, capsys) -> None:
    assert run(capsys, "submit", str(cup), "ais/alpha.py")[0] == 0
    code, out, err = run(capsys, "tournament", "--project", str(cup), "Alpha", "Beta",
                         "Greedy Ghosts", "--rounds", "1", "--seed", "2")
    assert code == 0 and "skipped Beta: no submission" in err
    assert "Beta" not in out and "Alpha" in out
