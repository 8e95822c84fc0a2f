"""A btree project's settings as a form shows them (seed, seats, missing links, display) and
back: parsing and checking what was typed, for the settings screen; no UI here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.engines.btree.play.seats import SEAT_HINT, is_seat
from studio.storage.errors import ProjectError

MAX_SEED = 2**53 - 1
MAX_CELL_WIDTH = 16
MISSING_LINKS = {
    "error": "a link or x-file whose target is missing stops the import with an error naming it",
    "empty": "a link or x-file whose target is missing expands to nothing, as trrbt does (a "
             "level or library file meant to be included by another loads alone)",
}
"""What each ``missing_links`` setting means, in the words the import dialog shows."""


@dataclass
class SettingsForm:
    """The settings as text fields and ticks, as typed."""

    seed: str = "0"
    missing_empty: bool = False
    seats: dict[str, str] = field(default_factory=dict)
    glyphs: str = ""
    cell_width: str = "0"
    show_hidden: bool = False
    images: bool = True


def glyphs_text(glyphs: dict[str, str]) -> str:
    """``{"X": "✕", "_": "·"}`` as ``X=✕ _=·`` (one pair a word)."""
    return " ".join(f"{tile}={glyph}" for tile, glyph in glyphs.items())


def parse_glyphs(text: str) -> dict[str, str]:
    """``X=✕ _=·`` back into a mapping; a word without ``=`` or with an empty side is refused."""
    out: dict[str, str] = {}
    for word in text.split():
        tile, sep, glyph = word.partition("=")
        if not sep or not tile or not glyph:
            raise ProjectError(f"glyphs: {word!r} is not TILE=GLYPH (e.g. X=✕ _=·)")
        out[tile] = glyph
    return out


def form_of(settings: dict[str, Any], pids: list[str]) -> SettingsForm:
    """The form for a model's settings; ``pids``: the game's players (each gets a seat)."""
    btree, display = settings.get("btree", {}), settings.get("display", {})
    seats = {str(pid): str(seat) for pid, seat in settings.get("seats", {}).items()}
    for pid in pids:
        seats.setdefault(pid, "human")
    return SettingsForm(str(btree.get("seed", 0)), btree.get("missing_links") == "empty", seats,
                        glyphs_text(display.get("glyphs", {})), str(display.get("cell_width", 0)),
                        bool(display.get("show_hidden", False)),
                        bool(display.get("images", True)))


def _whole(text: str, high: int, what: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise ProjectError(f"{what} must be a whole number") from None
    if not 0 <= value <= high:
        raise ProjectError(f"{what} must be from 0 to {high}")
    return value


def apply_form(settings: dict[str, Any], form: SettingsForm) -> dict[str, Any]:
    """New settings with the form's values (the other tables and keys kept as they were).

    Raises:
        ProjectError: a value that does not read, saying which and why.
    """
    seed = _whole(form.seed, MAX_SEED, "the seed")
    width = _whole(form.cell_width, MAX_CELL_WIDTH, "the cell width")
    seats = {}
    for pid, seat in form.seats.items():
        seat = seat.strip().lower() or "human"
        if not is_seat(seat):
            raise ProjectError(f"player {pid}'s seat must be {SEAT_HINT}, not {seat!r}")
        seats[pid] = seat
    new = dict(settings)
    new["btree"] = {**settings.get("btree", {}), "seed": seed,
                    "missing_links": "empty" if form.missing_empty else "error"}
    if seats or "seats" in settings:
        new["seats"] = seats
    display = {**settings.get("display", {}), "cell_width": width,
               "show_hidden": form.show_hidden}
    if form.images:
        display.pop("images", None)  # the default: files that never set it stay as they were
    else:
        display["images"] = False
    glyphs = parse_glyphs(form.glyphs)
    if glyphs:
        display["glyphs"] = glyphs
    else:
        display.pop("glyphs", None)
    new["display"] = display
    return new
