"""Access to ../shared (test data beside the checkout); tests skip cleanly when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"


def requires_shared(*parts: str) -> Path:
    """The path under ../shared, or skip the test saying why (a user's clone has no shared/)."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs ../shared/{'/'.join(parts)} (test data beside the checkout), absent here")
    return path
