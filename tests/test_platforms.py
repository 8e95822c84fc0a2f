"""Off Linux, what cannot work says so in one line instead of failing later with a traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from studio import cli
from studio.engines.haunted.match import MatchConfig
from studio.sessions.haunted.entrants import resolve_entrant
from studio.storage import ProjectError


def _ai(tmp_path: Path) -> Path:
    path = tmp_path / "mine.py"
    path.write_text("def move(state):\n    return []\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("platform", ["darwin", "win32"])
def test_an_ai_worker_off_linux_is_refused_with_what_to_do(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, platform: str,
) -> None:
    monkeypatch.setattr(sys, "platform", platform)
    for spec in (str(_ai(tmp_path)), "builtin:greedy"):
        with pytest.raises(ProjectError) as caught:
            resolve_entrant(spec, MatchConfig())
        assert f"run only on Linux; this is {platform}" in str(caught.value)
        assert "--in-process" in str(caught.value)


def test_built_in_ais_in_the_studio_process_play_anywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    entrant = resolve_entrant("builtin:greedy", MatchConfig(), in_process=True)
    assert entrant.runtime == "builtin"


def test_match_off_linux_is_one_line_and_exit_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    ai = str(_ai(tmp_path))
    monkeypatch.setattr(sys, "platform", "darwin")
    assert cli.main(["match", ai, "builtin:greedy", "--seed", "1", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("studio: AI worker processes run only on Linux")


def test_serve_on_windows_says_it_needs_a_pseudo_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "platform", "win32")
    assert cli.main(["serve", "--ssh", "games"]) == 1
    err = capsys.readouterr().err
    assert "studio serve needs Linux or macOS" in err and "WSL" in err


def test_the_studio_imports_where_signal_has_no_sighup() -> None:
    """Windows' signal module has no SIGHUP; the app must still load there."""
    import subprocess

    code = "import signal; del signal.SIGHUP; import studio.app; print('ok')"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.stdout.strip() == "ok", result.stderr
