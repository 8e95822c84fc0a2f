"""T0 (YAML reshaping) and T1 (compilation) against the corpus, plus corpus round trips."""

from __future__ import annotations

import pytest

from studio.engines.btree import BtreeError, compile_game, export_json, parse_json_game
from studio.storage.btree.kind import body_to_game
from studio.storage.project import dumps_project, loads_project
from studio.storage.btree.trrbt import file_resolver, import_game, load_compiled, load_trrbt
from tests.btree.formats_corpus import (
    BTREE,
    EMPTY_LINKS,
    GAMES,
    expected,
    game_ids,
    missing_links_for,
    normalise,
    readme_resolver,
)
from tests.shared_data import requires_shared

PARSED = [entry for entry in GAMES if entry["parsed"]]


def test_the_corpus_is_there() -> None:
    requires_shared("corpus", "btree")
    assert len(GAMES) == 78 and len(PARSED) == 62


@pytest.mark.parametrize("entry", PARSED, ids=game_ids(PARSED))
def test_t0_yaml_reshaping_equals_parsed(entry: dict) -> None:
    requires_shared("corpus", "btree")
    game = load_trrbt(BTREE / entry["game"])
    assert normalise({"name": game.name, "tree": game.tree}) == normalise(expected(entry["parsed"]))


@pytest.mark.parametrize("entry", GAMES, ids=game_ids(GAMES))
def test_t1_compiled_tree_equals_expanded(entry: dict) -> None:
    requires_shared("corpus", "btree")
    compiled = load_compiled(BTREE / entry["game"], missing_links_for(entry))
    assert normalise(compiled.to_json()) == normalise(expected(entry["expanded"]))
    # the README's strict variant holds too: pids keep their types (1 stays a number)
    assert normalise(compiled.to_json(), strict=True) == normalise(expected(entry["expanded"]), strict=True)
    assert compiled.nodes[0] is compiled.tree
    assert len(compiled.origin) == len(compiled.via) == len(compiled.nodes)


@pytest.mark.parametrize("entry", GAMES, ids=game_ids(GAMES))
def test_t1_strict_error_mode_fails_only_where_the_corpus_needs_lenient_links(entry: dict) -> None:
    requires_shared("corpus", "btree")
    if entry["game"] in EMPTY_LINKS:
        with pytest.raises(BtreeError, match="not found|not the nid"):
            load_compiled(BTREE / entry["game"], "error")
    else:
        load_compiled(BTREE / entry["game"], "error")


@pytest.mark.parametrize("entry", PARSED, ids=game_ids(PARSED))
def test_decision_9_include_rule_agrees_with_the_readme_rule_on_the_corpus(entry: dict) -> None:
    requires_shared("corpus", "btree")
    path = BTREE / entry["game"]
    game = load_trrbt(path)
    ours = compile_game(game, "empty", file_resolver(path))
    readme = compile_game(game, "empty", readme_resolver(path))
    assert ours.to_json() == readme.to_json()


@pytest.mark.parametrize("entry", GAMES, ids=game_ids(GAMES))
def test_imported_project_is_self_contained_and_expands_like_the_reference(entry: dict) -> None:
    requires_shared("corpus", "btree")
    project, _compiled = import_game(BTREE / entry["game"], missing_links_for(entry))
    text = dumps_project(project)
    again = loads_project(text)
    assert dumps_project(again) == text  # canonical
    game = body_to_game(again.body, again.name)
    assert game.sprites == load_trrbt(BTREE / entry["game"]).sprites  # soko2.json has sprites
    assert 'type = "x-file"' not in text
    compiled = compile_game(game, again.body["btree"]["missing_links"])  # no resolver: no files
    assert normalise(compiled.to_json()) == normalise(expected(entry["expanded"]))


@pytest.mark.parametrize("entry", GAMES, ids=game_ids(GAMES))
def test_json_export_round_trip(entry: dict) -> None:
    requires_shared("corpus", "btree")
    game = load_trrbt(BTREE / entry["game"])
    first = export_json(game)
    imported = parse_json_game(first)
    assert imported.to_json() == game.to_json()
    assert export_json(imported) == first
    assert first.isascii()
