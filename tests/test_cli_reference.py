"""docs/cli.md, the options reference, stays in step with the parser it is generated from."""

from __future__ import annotations

import argparse
import importlib.util
import sys

import pytest

from studio import commands
from tests.conftest import ROOT


def _tool():
    path = ROOT / "tools" / "cli_reference.py"
    spec = importlib.util.spec_from_file_location("cli_reference", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("cli_reference", module)
    spec.loader.exec_module(module)
    return module


def test_docs_cli_md_is_what_the_parser_generates() -> None:
    tool = _tool()
    assert tool.TARGET.read_text(encoding="utf-8") == tool.render(), (
        f"docs/cli.md and the parser differ: run {tool.COMMAND} and commit docs/cli.md"
    )


def test_the_reference_names_every_option_of_every_command() -> None:
    from studio.cli import build_parser

    text = _tool().render()
    for name in ["open", *commands.INDEX]:
        assert f"## `studio {name}`" in text
        parser = build_parser(name)
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        for action in sub.choices[name]._actions:
            if action.help is argparse.SUPPRESS:
                continue
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert f"`{flag}" in text, (name, flag)


def test_a_new_option_makes_the_reference_out_of_date(monkeypatch: pytest.MonkeyPatch) -> None:
    tool = _tool()
    arguments, run = commands.load("replay")

    def more(parser: argparse.ArgumentParser) -> None:
        arguments(parser)
        parser.add_argument("--brand-new", help="an option the page does not have yet")

    monkeypatch.setitem(commands.COMMANDS, "replay", (more, run))
    text = tool.render()
    assert "`--brand-new BRAND_NEW`" in text
    assert text != tool.TARGET.read_text(encoding="utf-8")
    assert tool.main(["--check"]) == 1


def test_the_readme_links_the_reference() -> None:
    assert "docs/cli.md" in (ROOT / "README.md").read_text(encoding="utf-8")
