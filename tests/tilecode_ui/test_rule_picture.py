"""The rule picture's parts drawn alone: what a Do slot says of its command."""

from __future__ import annotations

import types

from studio.engines.tilecode.model import Command
from studio.screens.tilecode.rule_picture import CMD_W, WIDE_CMD_W, command_label


def test_a_command_label_keeps_its_verb_whole_where_it_can() -> None:
    # "portal" with a two-column glyph read "porta ░░" in the Do rows, even at 120 columns.
    def label(verb: str, glyph: str) -> str:
        look = types.SimpleNamespace(code_glyph=lambda code: (glyph, None),
                                     code_name=lambda code: "wall")
        return "".join(text for text, _style in command_label(Command(verb, "b1"), look))

    assert label("portal", "░░") == "portal░░" and len(label("portal", "░░")) == CMD_W
    assert label("create", "ó") == "create ó"
    assert label("paint", "▓▓") == "paint ▓▓"


def test_a_wide_command_cell_names_the_kind_it_acts_on() -> None:
    def label(verb: str, name: str) -> str:
        look = types.SimpleNamespace(code_glyph=lambda code: ("▓▓", None),
                                     code_name=lambda code: name)
        return "".join(text for text, _style in
                       command_label(Command(verb, "b1"), look, WIDE_CMD_W))

    assert label("paint", "wall") == "paint ▓▓ wall"
    assert label("portal", "teleporter pad") == "portal ▓▓ telep…"  # cut to the cell, marked
    assert len(label("portal", "teleporter pad")) <= WIDE_CMD_W
