"""Engines and storage stay headless: importing them must not pull in Textual or Rich."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import studio.engines
import studio.screens
import studio.sessions
import studio.storage


def _modules(package) -> list[str]:
    names = [package.__name__]
    for info in pkgutil.walk_packages(package.__path__, prefix=package.__name__ + "."):
        names.append(info.name)
    return names


def test_engines_and_storage_never_import_textual_or_rich() -> None:
    modules = _modules(studio.engines) + _modules(studio.storage) + _modules(studio.sessions)
    assert "studio.storage.project" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print(' '.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"imported: {result.stdout.strip()}"


def test_the_check_itself_catches_a_ui_import() -> None:
    code = "import sys, studio.app\nprint('textual' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.stdout.strip() == "True"


def test_history_and_document_are_headless_too() -> None:
    code = (
        "import sys, studio.widgets.history, studio.widgets.document\n"
        "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def test_screens_and_commands_do_not_import_each_other() -> None:
    """Logic both need lives below both (screens.md): neither layer imports the other."""
    from pathlib import Path

    root = Path(studio.engines.__file__).parent.parent
    for folder, banned in (("screens", ("studio.commands",)),
                           ("widgets", ("studio.commands", "studio.screens")),
                           ("commands", ("studio.screens", "studio.widgets"))):
        for path in (root / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for name in banned:
                assert f"from {name}" not in text and f"import {name}" not in text, (path, name)


def test_the_studio_and_its_screens_start_without_numba() -> None:
    """numba takes about 0.4 s and 30 MB a process to import: every start and every SSH session
    paid it while only a solve or a simulation needs it (it loads then). numpy (TileCode's round
    commit uses it) is cheap and allowed."""
    screens = ["studio.app"] + [name for name in _modules(studio.screens)
                                if not name.endswith("__main__")]
    code = (
        "import importlib, sys\n"
        f"for name in {screens!r}:\n"
        "    importlib.import_module(name)\n"
        "from studio.cli import load_all\n"
        "load_all()\n"  # what `studio` runs first: every command module, for the help
        "print(' '.join(sorted(m for m in ('numba', 'llvmlite') if m in sys.modules)))\n"
        "from studio.engines.btree import solve\n"
        "print('numba' in sys.modules or 'plain')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    before, after = result.stdout.splitlines()
    assert before == "", f"imported at start: {before}"
    assert after in ("True", "plain")  # the solver still loads when asked for
