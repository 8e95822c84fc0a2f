"""Helpers for UI tests: the app as tests run it (fixed size, no animations)."""

from __future__ import annotations

from pathlib import Path

from studio.app import StudioApp

SIZE = (100, 30)


def studio_app(path: Path | str = "games", theme: str | None = None) -> StudioApp:
    app = StudioApp(Path(path), theme=theme)
    app.animation_level = "none"
    return app
