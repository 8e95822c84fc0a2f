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


HOME_START = """
import io, sys
from textual.app import App
import studio.app
import studio.screens.home as home
from studio import cli

first_list = []  # what was loaded when the list was first shown: the first frame's glance
real_show = home.HomeScreen._show_entries

def show(self, entries, previous):
    if not first_list:
        first_list.append(" ".join(sorted(sys.modules)))
    return real_show(self, entries, previous)

home.HomeScreen._show_entries = show

class Terminal(io.StringIO):  # `studio` opens the UI only on a terminal
    def isatty(self):
        return True

def run(app, **options):  # the home screen's first frame, headless; then what was imported
    async def look(pilot):
        await pilot.pause()
        print(first_list[0] if first_list else "", file=sys.__stdout__)
        print(" ".join(sorted(sys.modules)), file=sys.__stdout__)
        pilot.app.exit()
    return App.run(app, headless=True, auto_pilot=look, size=(80, 24))

studio.app.StudioApp.run = run
sys.stdin = sys.stdout = Terminal()
sys.exit(cli.main([sys.argv[1]]))
"""

NOT_AT_START = {
    # a kind's screens and what they stand on: each loads when a project of that kind opens
    "studio.screens.tilecode.home", "studio.screens.btree.editor", "studio.screens.haunted.hub",
    "studio.engines.tilecode.engine", "studio.engines.btree.compiling.compiler",
    "studio.engines.btree.runtime.engine", "studio.engines.haunted.match",
    "studio.engines.haunted.tournament", "numba", "yaml",
    # what the home screen shows only when asked: help, dialogs, the save path; text areas
    "studio.screens.help", "studio.screens.dialogs", "studio.widgets.save",
    "textual.widgets._text_area",
}


def test_the_home_screen_starts_without_the_kinds_screens_and_engines(tmp_path) -> None:
    """`studio FOLDER` up to the home screen's first frame loads none of a kind's screens,
    engines, storage or sessions, and no command's module: the first frame waited for them all
    (issue 27).
    Opening a project of each kind loads its screens then (the Pilot tests of each kind)."""
    from studio.storage import create_project

    # The first row is selected and its summary shown: a TileCode one (a behaviour tree's
    # summary compiles its tree, so the compiler loads when one is selected).
    for kind, name in (("tilecode", "Alpha"), ("btree", "Beta"), ("haunted", "Gamma")):
        create_project(tmp_path, kind, name)
    result = subprocess.run([sys.executable, "-c", HOME_START, str(tmp_path)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    at_first_frame, after = (set(line.split()) for line in result.stdout.splitlines())
    assert "studio.screens.home" in at_first_frame
    # The list comes from the headers: no kind's storage nor engine loads for the first frame
    # (some 90 ms); they load with the full read that follows in a thread.
    kinds_storage = {name for name in at_first_frame if name.startswith(
        ("studio.storage.tilecode", "studio.storage.btree", "studio.storage.haunted",
         "studio.storage.project", "studio.storage.folder"))}
    assert kinds_storage == set(), "a kind's storage loads for the first frame"
    engines = {name for name in at_first_frame if name.startswith("studio.engines.")
               and not name.startswith("studio.engines.common")}
    assert engines == set(), "an engine loads for the first frame"
    loaded = at_first_frame | after
    kinds_screens = {name for name in loaded
                     if name.startswith(("studio.screens.tilecode", "studio.screens.btree",
                                         "studio.screens.haunted"))}
    assert kinds_screens == set(), "a kind's screens load at start"
    assert {name for name in loaded if name.startswith("studio.sessions")} == set()
    assert {name for name in loaded if name.startswith("studio.commands.")} == set()
    assert loaded & NOT_AT_START == set()
