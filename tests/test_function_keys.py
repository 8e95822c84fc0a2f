"""Every function key has a twin that reaches the app: many terminals and SSH clients keep f-keys
(a browser terminal, macOS, tmux setups), and a feature behind one alone is lost there."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

from textual.binding import Binding

import studio

PACKAGE = Path(studio.__file__).parent
FUNCTION_KEY = re.compile(r"^f\d+$")


def bindings_of_every_screen_and_widget() -> list[tuple[str, Binding]]:
    found = []
    for path in sorted((PACKAGE / "screens").rglob("*.py")) + sorted(
            (PACKAGE / "widgets").rglob("*.py")) + [PACKAGE / "app.py"]:
        module = importlib.import_module(
            ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts))
        for _, klass in inspect.getmembers(module, inspect.isclass):
            if klass.__module__ != module.__name__:
                continue
            for binding in klass.__dict__.get("BINDINGS", ()):
                if isinstance(binding, Binding):
                    found.append((f"{module.__name__}.{klass.__name__}", binding))
    return found


def test_every_function_key_has_a_second_key() -> None:
    alone = []
    bindings = bindings_of_every_screen_and_widget()
    for where, binding in bindings:
        keys = [key.strip() for key in binding.key.split(",")]
        if any(FUNCTION_KEY.match(key) for key in keys) and all(FUNCTION_KEY.match(key)
                                                                  for key in keys):
            alone.append(f"{where}: {binding.key} ({binding.action})")
    assert len(bindings) > 200  # the walk found the screens
    assert alone == []
