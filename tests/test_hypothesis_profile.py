"""The property tests draw the same examples on every run, whatever the environment says (CI or
not), and draw new ones only when asked (README, Testing)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = '''
import os
from hypothesis import given, strategies as st

@given(st.integers(0, 2**62))
def test_draw(number):
    with open(os.environ["PROBE_OUT"], "a") as out:
        out.write(f"{number}\\n")
'''


def draws(tmp_path: Path, run: str, *options: str, **env: str) -> list[str]:
    """The numbers a probe property test draws with our conftest's settings loaded."""
    folder = tmp_path / run
    folder.mkdir()
    (folder / "test_probe.py").write_text(PROBE)
    out = folder / "drawn.txt"
    environ = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTHONHASHSEED")}
    # only the plugins that matter here: the others take seconds to load on a busy machine
    environ.update(env, PROBE_OUT=str(out), PYTHONPATH=str(ROOT),
                   PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "_hypothesis_pytestplugin",
         "-p", "tests.conftest", "-p", "no:cacheprovider", *options, "test_probe.py"],
        cwd=folder, env=environ, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return out.read_text().split()


def test_every_run_draws_the_same_examples_in_ci_or_not_unless_told_to_explore(
        tmp_path: Path) -> None:
    plain = draws(tmp_path, "plain")
    assert len(plain) > 10
    assert draws(tmp_path, "ci", CI="true") == plain
    explored = draws(tmp_path, "explore", "--hypothesis-profile=explore")
    again = draws(tmp_path, "explore-again", "--hypothesis-profile=explore")
    # 2**62 numbers to choose from: two random runs share hardly any by chance
    assert len(set(explored) - set(plain)) > 10
    assert len(set(again) - set(explored)) > 10
