"""TileCode project storage (spec tilecode.md §4.1): TOML body ⇄ Game, canonical writing, summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studio.engines.tilecode.model import (
    BUTTONS, DIR_PREDICATES, KIND_CODES, RULE_TYPES, TRANSFORMS, ArtKind, Command, Game, Rule,
    SpritePlacement, TileMap, TileRecord,
)
from studio.storage import (
    KINDS, ProjectError, create_project, dumps_project, load_project, loads_project, new_project,
)
from studio.storage.tilecode.kind import (
    body_problems, body_to_game, game_summary, game_to_body, game_to_project, new_game,
    project_to_game, summarize,
)
from studio.storage.tilecode.check import game_problems
from studio.storage.tomlio import dumps, parse_toml

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "tilecode"
CORPUS_GAMES = sorted(p.name.removesuffix(".expected.json") for p in CORPUS.glob("*.expected.json"))


def record(col: int, row: int, include=(), include2=(), exclude=(), dir="any", do=()) -> TileRecord:
    return TileRecord(col, row, frozenset(include), frozenset(include2), frozenset(exclude), dir,
                      tuple(Command.parse(text) for text in do))


def sample_game() -> Game:
    """A small game touching every field of the format."""
    base = new_game("Sample")
    sprites = (
        SpritePlacement(2, 1, 0), SpritePlacement(5, 1, 1), SpritePlacement(5, 1, 2),
        SpritePlacement(5, 1, 1), SpritePlacement(1, 3, 3),
    )
    rules = (
        Rule(0, "press", (record(2, 2, ["s0"], do=["move right"]), record(3, 2, exclude=["b0", "s1"])),
             "right", "rotate-3-way"),
        Rule(3, "change", (record(2, 2, ["s1", "s2"], dir="down", do=["move down"]),
                           record(2, 3, ["b2"], exclude=["s1"])), transforms="flip-horizontal"),
        Rule(4, "smash", (record(2, 2, ["s0"], dir="left"),
                          record(1, 2, ["s2"], do=["destroy", "game score"])), transforms="rotate-180"),
        Rule(7, "never", (record(2, 2, ["b1"], do=["game win"]),), enabled=False),
    )
    return Game(
        "Sample",
        (ArtKind("wall", base.backgrounds[0].art, "▓", "#91463d"), ArtKind("floor"),
         *base.backgrounds[2:]),
        (ArtKind("hero", base.sprites[0].art, "@"), *base.sprites[1:]),
        TileMap(8, 8, tuple(tuple((x + y) % 4 for x in range(8)) for y in range(8)), sprites),
        rules, 0, False, 200, 40,
        {"source": "ours", "license": "MIT", "note": "kept in order"}, 2**63 - 1, "art",
    )


# ------------------------------------------------------------------------------ round trips


def test_model_to_toml_to_model_is_identical() -> None:
    game = sample_game()
    text = dumps_project(game_to_project(game))
    project = loads_project(text)
    assert project_to_game(project) == game
    assert dumps_project(project) == text


def test_writer_layout_follows_the_spec_order() -> None:
    text = dumps_project(game_to_project(sample_game()))
    order = ["[project]", "[game]", "[provenance]", "[[backgrounds]]", "[[sprites]]", "[map]",
             "[[rules]]", "  [[rules.tiles]]"]
    positions = [text.index(marker) for marker in order]
    assert positions == sorted(positions)
    assert 'name = "wall"\nglyph = "▓"\ncolor = "#91463d"\nart = """\n' in text
    assert "player_kind = 0\nhelp = false\nround_ms = 200\nhigh_score = 40\n" in text
    assert 'source = "ours"\nlicense = "MIT"\nnote = "kept in order"\n' in text
    assert 'extra_sprites = [[5, 1, "s2"], [5, 1, "s1"]]' in text
    assert "  include = [\"s0\"]\n  do = [\"move right\"]\n" in text
    assert '  exclude = ["b0", "s1"]\n' in text  # backgrounds before sprites
    assert 'transforms = "rotate-180"' in text and "enabled = false" in text
    assert 'dir = "any"' not in text  # the default is omitted
    art = text.split('art = """\n', 1)[1].split('"""', 1)[0].splitlines()
    assert len(art) == 16 and all(len(row) == 16 for row in art)


def test_rules_are_written_by_id_and_empty_records_dropped() -> None:
    game = sample_game()
    walk = Rule(1, "press", (TileRecord(1, 1), record(2, 2, ["s0"], do=["move up"])), "up")
    shuffled = (game.rules[2], walk, game.rules[0])
    body = game_to_body(Game(game.name, game.backgrounds, game.sprites, game.map, shuffled))
    assert [rule["id"] for rule in body["rules"]] == [0, 1, 4]
    assert body["rules"][1]["tiles"] == [{"col": 2, "row": 2, "include": ["s0"], "do": ["move up"]}]
    back = body_to_game(body, "x").rule(1)
    assert back is not None and back.tiles == (walk.tiles[1],)


def test_reading_sorts_rules_and_keeps_record_order() -> None:
    body = game_to_body(sample_game())
    body["rules"].reverse()
    body["rules"][0]["tiles"].reverse()
    game = body_to_game(body, "x")
    assert [rule.id for rule in game.rules] == [0, 3, 4, 7]
    assert [r.position for r in game.rule(7).tiles] == [(2, 2)]
    assert [r.position for r in game.rule(0).tiles] == [(2, 2), (3, 2)]
    assert [r.position for r in body_to_game(game_to_body(game), "x").rule(0).tiles] == [(2, 2), (3, 2)]


def test_initial_sprites_follow_the_id_order_of_the_spec() -> None:
    body = game_to_body(sample_game())
    body["map"]["extra_sprites"] = [[1, 3, "s0"], [0, 0, "s3"], [1, 3, "s2"]]
    placements = body_to_game(body, "x").map.sprites
    assert [(p.x, p.y, p.kind) for p in placements] == [
        (0, 0, 3), (2, 1, 0), (5, 1, 1), (1, 3, 3), (1, 3, 0), (1, 3, 2),
    ]


def test_rotate_180_is_read_and_written_back() -> None:
    body = game_to_body(sample_game())
    assert body_to_game(body, "x").rule(4).transforms == "rotate-180"
    assert body["rules"][2]["transforms"] == "rotate-180"


def test_grids_tolerate_indentation_and_a_missing_final_newline() -> None:
    body = game_to_body(sample_game())
    expected = body_to_game(body, "x")
    rows = body["map"]["background"].splitlines()
    body["map"]["background"] = "\n".join("   " + row + "  " for row in rows)
    art = body["backgrounds"][0]["art"].upper()
    body["backgrounds"][0]["art"] = art
    assert body_to_game(body, "x") == expected


def test_missing_game_table_takes_the_defaults() -> None:
    body = game_to_body(sample_game())
    del body["game"]
    game = body_to_game(body, "x")
    assert (game.player_kind, game.help, game.round_ms, game.high_score) == (0, True, 150, 0)


def test_project_to_game_refuses_other_kinds() -> None:
    with pytest.raises(ProjectError) as info:
        project_to_game(new_project("btree", "Trees"))
    assert info.value.field_path == ("project", "kind")


# ----------------------------------------------------------------------- new project


def test_new_project_has_the_spec_defaults(tmp_path: Path) -> None:
    project = create_project(tmp_path, "tilecode", "Fresh")
    game = project_to_game(load_project(project.path))
    assert [kind.name for kind in game.backgrounds] == ["brick", "grass", "water", "dirt"]
    assert [kind.name for kind in game.sprites] == ["player", "player2", "cat", "snake head"]
    assert all(kind.art is not None and len(kind.art) == 16 for kind in game.backgrounds + game.sprites)
    assert (game.map.width, game.map.height, game.map.sprites, game.rules) == (32, 24, (), ())
    assert game.map.background[0] == (0,) * 32 and game.map.background[23] == (0,) * 32
    assert game.map.background[5] == (0,) + (1,) * 30 + (0,)
    assert (game.player_kind, game.help, game.round_ms, game.high_score) == (0, True, 150, 0)
    text = project.path.read_text(encoding="utf-8")
    assert dumps_project(load_project(project.path)) == text
    assert body_problems(project.body) == []


def test_default_seed_and_render_mode_are_written_only_when_set() -> None:
    plain = dumps_project(game_to_project(new_game("Plain")))
    assert "seed =" not in plain and "render =" not in plain
    text = dumps_project(game_to_project(sample_game()))
    assert "high_score = 40\nseed = 9223372036854775807\nrender = \"art\"\n" in text


@pytest.mark.parametrize(("line", "message"), [
    ("seed = -1", "seed must be a whole number"), ('render = "ascii"', "render 'ascii' is not one of"),
])
def test_bad_seed_or_render_mode_is_named(line: str, message: str) -> None:
    text = dumps_project(game_to_project(new_game("Bad"))).replace("high_score = 0\n",
                                                                   f"high_score = 0\n{line}\n")
    with pytest.raises(ProjectError) as info:
        loads_project(text)
    assert message in info.value.message and info.value.field_path[0] == "game"


def test_registry_is_wired() -> None:
    spec = KINDS["tilecode"]
    assert spec.new_body("x") == game_to_body(new_game("x"))
    assert spec.summarize(game_to_body(new_game("x")))["map"] == "32×24"
    assert spec.validate is not None and spec.check is not None


# -------------------------------------------------------------------------------- summary


def test_summary_counts() -> None:
    summary = game_summary(sample_game())
    assert summary == {
        "map": "8×8", "sprites": 5, "base_rules": 4, "derived_views": 3 + 1 + 1 + 0,
        "tile_records": 7, "commands": 5, "attributes": 10,
        "rule_mix": {"press": 1, "change": 1, "smash": 1, "never": 1},
    }
    # A malformed body (e.g. when the home screen lists a broken file) summarises to its error.
    assert summarize({"map": 3}) == {"error": "a game has exactly 4 [[backgrounds]] tables, this one has 0"}


def corpus_game(stem: str) -> Game:
    """A game built straight from a corpus ``NAME.expected.json`` (independent of the importer)."""
    data = json.loads((CORPUS / f"{stem}.expected.json").read_text(encoding="utf-8"))
    rules = []
    for rule_id, table in data["rules"].items():
        records = []
        for tile in table["tiles"]:
            sets = {name: frozenset([f"b{k}" for k in tile["background"][name]]
                                    + [f"s{k}" for k in tile["sprite"][name]])
                    for name in ("include", "include2", "exclude")}
            commands = tuple(Command.parse(_command_text(c)) for c in tile["commands"])
            records.append(TileRecord(tile["col"], tile["row"], sets["include"], sets["include2"],
                                      sets["exclude"], tile["dir_name"], commands))
        button = table["arg_name"] if table["type"] == "press" else None
        rules.append(Rule(int(rule_id), table["type"], tuple(records), button,
                          table["transforms_name"]))
    tile_map = data["map"]
    placements = tuple(SpritePlacement(x, y, int(c)) for y, row in enumerate(tile_map["sprites"])
                       for x, c in enumerate(row) if c != ".")
    background = tuple(tuple(int(c, 16) for c in row) for row in tile_map["background"])
    art = data["art"]
    return Game(stem, tuple(ArtKind(f"b{k}", tuple(a)) for k, a in enumerate(art["backgrounds"])),
                tuple(ArtKind(f"s{k}", tuple(a)) for k, a in enumerate(art["sprites"])),
                TileMap(tile_map["width"], tile_map["height"], background, placements),
                tuple(sorted(rules, key=lambda r: r.id)))


def _command_text(command: dict) -> str:
    name, arg = command["name"], command["arg"]
    if name == "destroy":
        return "destroy"
    if name == "game":
        return f"game {('win', 'lose', 'score')[arg]}"
    if name in ("paint", "portal"):
        return f"{name} b{arg}"
    if name in ("spawn", "block"):
        return f"{'create' if name == 'spawn' else 'block'} s{arg}"
    return f"move {('left', 'up', 'right', 'down', 'stop')[arg]}"


@pytest.mark.parametrize("stem", CORPUS_GAMES)
def test_summary_matches_the_corpus_and_corpus_games_round_trip(stem: str) -> None:
    game = corpus_game(stem)
    expected = json.loads((CORPUS / f"{stem}.expected.json").read_text(encoding="utf-8"))["summary"]
    summary = game_summary(game)
    for key in ("base_rules", "derived_views", "tile_records", "commands", "attributes", "rule_mix"):
        assert summary[key] == expected[key], key
    assert summary["map"] == "32×24"
    text = dumps_project(game_to_project(game))
    project = loads_project(text)
    assert not [p for p in body_problems(project.body) if p.is_error]  # no §3.4 errors
    assert project_to_game(project) == game and dumps_project(project) == text


def test_the_corpus_is_there() -> None:
    from tests.shared_data import requires_shared

    requires_shared("corpus", "tilecode")
    assert len(CORPUS_GAMES) == 11


# ---------------------------------------------------------------- hypothesis round trip

codes = st.sampled_from(KIND_CODES)
commands = st.sampled_from([
    "move left", "move up", "move right", "move down", "move stop", "destroy", "paint b1",
    "create s2", "portal b3", "block s0", "game win", "game lose", "game score",
]).map(Command.parse)


@st.composite
def records(draw, col: int, row: int) -> TileRecord:
    chosen = draw(st.lists(codes, unique=True, max_size=5))
    cut1, cut2 = sorted(draw(st.tuples(st.integers(0, len(chosen)), st.integers(0, len(chosen)))))
    record = TileRecord(col, row, frozenset(chosen[:cut1]), frozenset(chosen[cut1:cut2]),
                        frozenset(chosen[cut2:]), draw(st.sampled_from(DIR_PREDICATES)),
                        tuple(draw(st.lists(commands, max_size=4))))
    return record if not record.is_empty else TileRecord(col, row, do=(Command("game", "win"),))


@st.composite
def rules(draw, rule_id: int) -> Rule:
    kind = draw(st.sampled_from(RULE_TYPES))
    positions = draw(st.lists(st.tuples(st.integers(1, 3), st.integers(1, 3)), unique=True,
                              max_size=5))
    tiles = tuple(draw(records(col, row)) for col, row in positions)
    button = draw(st.sampled_from(BUTTONS)) if kind == "press" else None
    return Rule(rule_id, kind, tiles, button, draw(st.sampled_from(TRANSFORMS)), draw(st.booleans()))


@st.composite
def games(draw) -> Game:
    width, height = draw(st.integers(8, 20)), draw(st.integers(8, 20))
    background = tuple(tuple(draw(st.lists(st.integers(0, 3), min_size=width, max_size=width)))
                       for _ in range(height))
    spots = draw(st.lists(st.tuples(st.integers(0, height - 1), st.integers(0, width - 1),
                                    st.integers(0, 3)), max_size=12))
    # Stable sort by tile gives the spec's initial-id order (several sprites may share a tile).
    sprites = tuple(SpritePlacement(x, y, k) for y, x, k in sorted(spots, key=lambda s: s[:2]))
    ids = draw(st.lists(st.integers(0, 1000), unique=True, max_size=6))
    names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1,
                    max_size=12).filter(str.strip)
    art = st.none() | st.lists(st.text("0123456789abcdef", min_size=16, max_size=16),
                               min_size=16, max_size=16).map(tuple)
    kinds = st.builds(ArtKind, names, art, st.none() | st.sampled_from(["@", "▓", "ab", "猫"]),
                      st.none() | st.sampled_from(["#000000", "#91463d"]))
    return Game(
        "Random", tuple(draw(st.lists(kinds, min_size=4, max_size=4))),
        tuple(draw(st.lists(kinds, min_size=4, max_size=4))),
        TileMap(width, height, background, sprites),
        tuple(draw(rules(i)) for i in sorted(ids)),
        draw(st.integers(0, 3)), draw(st.booleans()), draw(st.integers(30, 2000)),
        draw(st.integers(0, 10**6)),
        draw(st.dictionaries(st.sampled_from(["source", "commit", "license", "copyright"]),
                             st.text(max_size=20))),
        draw(st.none() | st.integers(0, 2**63 - 1)), draw(st.sampled_from(["glyph", "art"])),
    )


@given(games())
def test_random_games_round_trip(game: Game) -> None:
    body = game_to_body(game)
    assert body_to_game(body, "Random") == game
    text = dumps(body)
    parsed = parse_toml(text)
    assert dumps(parsed) == text  # the writer is canonical for text it wrote
    assert body_to_game(parsed, "Random") == game


# A second generator makes games that pass §3.4, so the whole load path (with validation) runs.

SPRITE_KINDS = st.lists(st.sampled_from(["s0", "s1", "s2", "s3"]), min_size=1, max_size=2, unique=True)
TILE_COMMANDS = st.lists(st.sampled_from(["paint b1", "create s2", "portal b3", "block s0",
                                          "game score"]), max_size=3, unique=True)


@st.composite
def valid_rules(draw, rule_id: int) -> Rule:
    kind = draw(st.sampled_from(RULE_TYPES))
    direction = draw(st.sampled_from(["left", "up", "right", "down"]))
    if kind == "never":
        centre = TileRecord(2, 2, frozenset(draw(SPRITE_KINDS)), do=(Command("game", "win"),))
        return Rule(rule_id, kind, (centre,), transforms=draw(st.sampled_from(TRANSFORMS)))
    first = Command("move", "stop" if kind == "smash" else direction)
    centre = TileRecord(2, 2, frozenset(draw(SPRITE_KINDS)),
                        dir=direction if kind == "smash" else draw(st.sampled_from(DIR_PREDICATES)),
                        do=(first,) if draw(st.booleans()) else ())
    edges = {"left": (1, 2), "up": (2, 1), "right": (3, 2), "down": (2, 3)}
    # A smash rule's second record is its collide tile, the neighbour in the centre direction.
    edge = edges[direction] if kind == "smash" else draw(st.sampled_from(sorted(edges.values())))
    witness = draw(st.booleans())
    sprite_cmds = [] if not witness else draw(st.sampled_from([[], ["destroy"]]))
    other = TileRecord(*edge, frozenset(draw(SPRITE_KINDS)) if witness else frozenset({"b1"}),
                       exclude=frozenset({"b0"}),
                       do=tuple(Command.parse(c) for c in sprite_cmds + draw(TILE_COMMANDS)))
    button = draw(st.sampled_from(BUTTONS)) if kind == "press" else None
    return Rule(rule_id, kind, (centre, other), button, draw(st.sampled_from(TRANSFORMS)))


@given(games(), st.data())
def test_random_valid_games_load_validate_and_save_byte_for_byte(game: Game, data) -> None:
    rules = tuple(data.draw(valid_rules(i)) for i in range(data.draw(st.integers(0, 5))))
    game = Game(game.name, game.backgrounds, game.sprites, game.map, rules)
    assert not any(p.is_error for p in game_problems(game))
    text = dumps_project(game_to_project(game))
    project = loads_project(text)  # runs the kind's validate
    assert project_to_game(project) == game
    assert dumps_project(project) == text
