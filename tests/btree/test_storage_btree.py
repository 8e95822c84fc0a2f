"""The btree TOML project body (spec §4.4): conversions, canonical saves, validation, summary."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.engines.btree import BtreeError, Game, compile_game
from studio.storage import KINDS, ProjectError, dumps_project, loads_project, new_project
from studio.storage.btree.kind import body_to_game, game_to_body, summarize, validate
from studio.storage.btree.body import grid_from_toml, grid_to_toml
from studio.storage.btree.trrbt import import_game, inline_includes, load_compiled

HEADER = '[project]\nkind = "btree"\nname = "T"\nformat = 1\n'

TREE = {
    "type": "order",
    "comment": "root",
    "children": [
        {"type": "set-board", "pattern": {"main": [["X", "P"], ["_", "_"]], "goal": [[".", "G"], [".", "."]]}},
        {"type": "loop-until-all", "nid": "loop", "children": [
            {"type": "player", "pid": 1, "children": [
                {"type": "rewrite", "desc": "odd", "button": "", "lhs": {"main": [["P", ""]]},
                 "rhs": {"main": [["a b", "P"]]}, "mouse": False},
            ]},
            {"type": "loop-times", "times": 2, "children": []},
        ]},
        {"type": "x-replace", "what": "a", "withs": [1, "b", 2.5], "children": []},
        {"type": "display-board", "delay": 0.5},
    ],
}


def test_patterns_use_text_when_they_can_and_arrays_otherwise() -> None:
    assert grid_to_toml([["A", "B"]]) == "A B"
    assert grid_to_toml([["A", "B"], ["C", "D"]]) == "A B\nC D\n"
    assert grid_to_toml([["A", ""]]) == [["A", ""]]
    assert grid_to_toml([["a b"]]) == [["a b"]]
    assert grid_to_toml([]) == [] and grid_to_toml([[]]) == [[]]
    assert grid_from_toml("\n A  B \n C D\n\n", ()) == [["A", "B"], ["C", "D"]]


def test_body_round_trip_keeps_fields_order_and_types() -> None:
    game = Game(name="T", tree=TREE)
    body = game_to_body(game, seats={"1": "human"})
    text = dumps_project(loads_project(HEADER + "\n" + dumps_project_body(body)))
    project = loads_project(text)
    assert dumps_project(project) == text  # canonical
    back = body_to_game(project.body, project.name)
    assert back.tree == TREE
    assert 'lhs.main = [["P", ""]]' in text and 'pattern.goal = """\n. G\n. .\n"""' in text
    assert "pid = 1\n" in text and "withs = [1, \"b\", 2.5]" in text


def dumps_project_body(body: dict) -> str:
    from studio.storage.tomlio import dumps

    return dumps(body)


def test_the_spec_example_reads_as_the_authored_tree() -> None:
    text = HEADER + """
[btree]
seed = 0
missing_links = "error"

[seats]
hero = "human"

[display]
cell_width = 0
show_hidden = false
glyphs = { X = "█", "_" = " " }

[[node]]
at = []
type = "order"

[[node]]
at = [0]
type = "set-board"
pattern.main = \"\"\"
X P
X _
\"\"\"

[[node]]
at = [1]
type = "x-spin"

[[node]]
at = [1, 0]
type = "rewrite"
button = "right"
lhs.main = "P _"
rhs.main = "_ P"
"""
    project = loads_project(text)
    game = body_to_game(project.body, project.name)
    assert game.tree["children"][1]["children"][0]["lhs"] == {"main": [["P", "_"]]}
    assert len(compile_game(game).tree["children"]) == 5


@pytest.mark.parametrize(
    ("nodes", "path", "message"),
    [
        ('[[node]]\nat = [0]\ntype = "order"\n', ("node", 0, "at"), "root"),
        ('[[node]]\nat = []\ntype = "order"\n\n[[node]]\nat = [1]\ntype = "match"\npattern.main = "A"\n',
         ("node", 1, "at"), "expected at = \\[0\\]"),
        ('[[node]]\nat = []\ntype = "order"\n\n[[node]]\nat = [0, 0]\ntype = "order"\n', ("node", 1, "at"), "no parent"),
        ('[[node]]\nat = []\ntype = "match"\npattern.main = "A"\n\n[[node]]\nat = [0]\ntype = "order"\n',
         ("node", 1, "at"), "cannot have children"),
        ('[[node]]\nat = []\ntype = "orderr"\n', ("node", 0, "type"), "unknown node type"),
        ('[[node]]\nat = []\n', ("node", 0, "type"), "needs a type"),
        ('[[node]]\nat = "x"\ntype = "order"\n', ("node", 0, "at"), "child indices"),
        ('[[node]]\nat = []\ntype = "match"\npattern.main = "A B\\nC"\n', ("node", 0, "pattern", "main"), "equally long"),
        ('[[node]]\nat = []\ntype = "match"\npattern.main = "A\\n\\nB"\n', ("node", 0, "pattern", "main"), "empty row"),
        ('[[node]]\nat = []\ntype = "match"\npattern.main = "A"\npattern.b = "A B"\n', ("node", 0, "pattern", "b"), "first layer"),
        ('[[node]]\nat = []\ntype = "match"\npattern.main = 3\n', ("node", 0, "pattern", "main"), "text"),
        ('[[node]]\nat = []\ntype = "match"\npattern = "A"\n', ("node", 0, "pattern"), "table of layers"),
        ('[[node]]\nat = []\ntype = "order"\nchildren = []\n', ("node", 0, "children"), "implied"),
        ('[btree]\nseed = -1\n', ("btree", "seed"), "seed"),
        ('[btree]\nmissing_links = "maybe"\n', ("btree", "missing_links"), "missing_links"),
        ('[btree]\nsede = 1\n', ("btree", "sede"), "unknown key"),
        ('[seats]\nhero = "robot"\n', ("seats", "hero"), "seat"),
        ('[display]\ncell_width = "wide"\n', ("display", "cell_width"), "cell_width"),
        ('[display]\nshow_hidden = 1\n', ("display", "show_hidden"), "show_hidden"),
    ],
)
def test_validation_errors_have_field_paths(nodes: str, path: tuple, message: str) -> None:
    with pytest.raises(ProjectError, match=message) as info:
        loads_project(HEADER + "\n" + nodes, Path("g.toml"))
    assert info.value.field_path == path
    assert info.value.line is not None


def test_registered_on_the_kind_and_new_projects_are_valid_games() -> None:
    spec = KINDS["btree"]
    assert spec.validate is validate and spec.summarize is summarize
    project = new_project("btree", "Fresh")
    text = dumps_project(project)
    assert dumps_project(loads_project(text)) == text
    compiled = compile_game(body_to_game(project.body, project.name))
    assert [n["type"] for n in compiled.nodes] == ["order", "set-board", "display-board"]


def test_summary() -> None:
    body = game_to_body(Game(name="T", tree=TREE))
    summary = summarize(body)
    assert summary == {"nodes": 8, "compiled": 7, "players": ["1"], "board": "2×2×2", "warnings": 0}
    broken = game_to_body(Game(name="T", tree={"type": "order", "children": [{"type": "x-link", "target": "x"}]}))
    assert "x" in summarize(broken)["error"]
    assert summarize({})["error"] == "no tree"


def test_sprites_and_nulls() -> None:
    sprites = {"images": {"hero": {"size": [2, 1], "data": "eJw="}}, "tiles": {"P": "hero", ".": None},
               "back": [["_", "x"]], "players": {"1": [1, 2, 3]}}
    tree = {"type": "order", "pid": None, "children": []}
    warnings: list[str] = []
    body = game_to_body(Game(name="S", tree=tree, sprites=sprites), warnings=warnings)
    assert body["sprites"]["tiles"] == {"P": "hero", ".": False} and body["sprites"]["back"] == "_ x"
    assert warnings == ["node at [] field 'pid': null dropped (TOML has no null)"]
    text = dumps_project(loads_project(HEADER + "\n" + dumps_project_body(body)))
    game = body_to_game(loads_project(text).body, "S")
    assert game.sprites == sprites and game.tree == {"type": "order", "children": []}


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_includes_resolve_relative_to_the_including_file_and_import_self_contained(tmp_path: Path) -> None:
    _write(tmp_path, "rules/loop.yaml", "name: loop\ntree:\n  type: order\n  nid: gameloop\n  children:\n"
           "  - {type: rewrite, lhs: A, rhs: B}\n  - {type: x-file, file: ../shared/end, target: ending}\n")
    _write(tmp_path, "shared/end.yaml", "name: end\ntree: {type: win, nid: ending, pid: 1, children: []}\n")
    top = _write(tmp_path, "level.yaml", "name: level\ntree:\n  type: order\n  children:\n"
                 "  - {type: set-board, pattern: A}\n  - {type: x-file, file: rules/loop, target: gameloop}\n")
    compiled = load_compiled(top)
    assert [n["type"] for n in compiled.nodes] == ["order", "set-board", "order", "rewrite", "win"]
    assert compiled.origin[4][0].endswith("end.yaml")
    project, again = import_game(top)
    text = dumps_project(project)
    assert 'type = "x-file"' not in text and text.count('type = "x-prune"') == 2
    assert again.to_json() == compiled.to_json()
    out = tmp_path / "level.toml"
    out.write_text(text, encoding="utf-8")
    assert load_compiled(out).to_json() == compiled.to_json()


def test_import_of_a_missing_include_needs_lenient_links(tmp_path: Path) -> None:
    top = _write(tmp_path, "g.yaml", "name: g\ntree:\n  type: order\n  children:\n"
                 "  - {type: set-board, pattern: A}\n  - {type: x-file, file: nope, target: t}\n")
    with pytest.raises(BtreeError, match="include file 'nope' not found"):
        import_game(top)
    project, compiled = import_game(top, "empty")
    assert project.body["btree"]["missing_links"] == "empty" and len(compiled.nodes) == 2


def test_x_file_root_is_wrapped() -> None:
    game = Game(name="r", tree={"type": "x-file", "file": "f", "target": "t"})
    carried = inline_includes(game, lambda f, k: ("f", {"type": "match", "nid": "t", "pattern": {"main": [["A"]]}}))
    assert carried.tree["type"] == "x-ident"
    assert [c["type"] for c in carried.tree["children"]] == ["x-link", "x-prune"]
    assert compile_game(carried).tree == {"type": "match", "pattern": {"main": [["A"]]}}


def test_a_replay_is_saved_beside_its_project_tied_to_its_saved_text(tmp_path: Path) -> None:
    import hashlib
    import json

    from studio.storage import create_project
    from studio.storage.btree.replay import replay_path, save_replay

    project = create_project(tmp_path, "btree", "Moat")
    asked: list[str] = []

    def replay_data(sha: str) -> dict:
        asked.append(sha)
        return {"game_sha256": sha, "choices": [2, 0]}

    target = save_replay(project.path, project, replay_data)
    assert target == replay_path(project.path) == tmp_path / "moat.btreplay.json"
    assert asked == [hashlib.sha256(dumps_project(project).encode()).hexdigest()]
    assert json.loads(target.read_text()) == {"game_sha256": asked[0], "choices": [2, 0]}
    assert not list(tmp_path.glob("*.bak"))  # a replay is written again, never backed up


def test_an_unknown_node_type_names_the_nearest_and_every_type() -> None:
    # It pointed to "the btree spec (§3.2)", a document users do not have.
    with pytest.raises(ProjectError) as info:
        loads_project(HEADER + '\n[[node]]\nat = []\ntype = "rando-try"\n', Path("g.toml"))
    hint = info.value.hint
    assert "did you mean 'random-try'" in hint and "the node types are: " in hint
    assert "x-link" in hint and "rewrite-all" in hint and "§" not in hint
