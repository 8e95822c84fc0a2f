"""Engines and storage stay headless: importing them must not pull in Textual or Rich."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import studio.engines
import studio.storage


def _modules(package) -> list[str]:
    names = [package.__name__]
    for info in pkgutil.walk_packages(package.__path__, prefix=package.__name__ + "."):
        names.append(info.name)
    return names


def test_engines_and_storage_never_import_textual_or_rich() -> None:
    modules = _modules(studio.engines) + _modules(studio.storage)
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
