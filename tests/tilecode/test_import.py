"""Original TileCode settings → studio Game (spec §4.2, §10.2): fix-ups, errors, corpus fidelity."""

from __future__ import annotations

import re
from typing import Any

import pytest

from studio.engines.tilecode.codec import Image, TilecodeImportError, encode_image
from studio.engines.tilecode.exporter import TilecodeExportError, export_settings
from studio.engines.tilecode.importer import COMMIT, decoded_form, import_settings
from studio.engines.tilecode.model import Command, SpritePlacement, TileRecord
from studio.engines.tilecode.rules_codec import RawCommand, RawRecord, RawRule, encode_rule
from tests.tilecode.test_codec import COUNTS, GAMES, corpus

NO = (0, 0, 0, 0)
S0 = (1, 0, 0, 0)
"""Sprite attributes: include s0."""


def record(col: int, row: int, sprite: tuple = NO, background: tuple = NO, dir: int = 6,
           commands: tuple[tuple[int, int], ...] = ()) -> RawRecord:
    return RawRecord(col, row, background, sprite, dir, tuple(RawCommand(*c) for c in commands))


def rule_hex(rule_type: int, arg: int, *records: RawRecord, transforms: int = 0) -> str:
    return encode_rule(RawRule(rule_type, arg, transforms, records)).hex()


def image_hex(rows: list[str]) -> str:
    return encode_image(Image.from_hex_rows(rows)).hex()


def document(rules: dict[str, str] | None = None, **keys: Any) -> dict[str, Any]:
    """A small valid settings document: 8×8 map, one player at (2, 1), 16×16 art."""
    sprites = ["f" * 8 for _ in range(8)]
    sprites[1] = "ff0fffff"
    art = image_hex(["0123456789abcdef"] * 16)
    values: dict[str, Any] = {
        "VersionS": "4.0.0", "WBackM": image_hex(["01230123"] * 8), "WSpriteM": image_hex(sprites),
        "BackN": 4, **{f"BackI{k}": art for k in range(4)},
        "SpriteN": 4, **{f"SpriteI{k}": art for k in range(4)},
        "HelpN": 1, "HighN": 30, "PlayerN": 0,
    }
    values.update(rules or {"RuleB0": rule_hex(0, 2, record(2, 2, S0, commands=((0, 2),)), transforms=6)})
    values.update(keys)
    return {"name": "Tiny", "keys": {k: v for k, v in values.items() if v is not None}}


def imported(rules: dict[str, str]) -> tuple[Any, tuple[str, ...]]:
    result = import_settings(document(rules))
    return result.game, result.warnings


# ------------------------------------------------------------------- hand-made documents


def test_a_small_document_becomes_a_game() -> None:
    result = import_settings(document())
    game = result.game
    assert result.warnings == ()
    assert game.name == "Tiny" and game.help and game.high_score == 30 and game.player_kind == 0
    assert (game.map.width, game.map.height) == (8, 8) and game.map.background[0] == (0, 1, 2, 3, 0, 1, 2, 3)
    assert game.map.sprites == (SpritePlacement(2, 1, 0),)
    assert game.backgrounds[0].art == ("0123456789abcdef",) * 16
    assert [k.name for k in game.sprites] == ["sprite 0", "sprite 1", "sprite 2", "sprite 3"]
    (rule,) = game.rules
    assert (rule.id, rule.type, rule.button, rule.transforms, rule.enabled) == (0, "press", "right", "rotate-3-way", True)
    assert rule.tiles == (TileRecord(2, 2, include=frozenset({"s0"}), do=(Command("move", "right"),)),)
    assert game.provenance == {
        "source": "microsoft/tilecode games.ts createTiny", "commit": COMMIT, "license": "MIT",
        "copyright": "Copyright (c) Microsoft Corporation.",
    }


def test_sprites_get_row_major_initial_order() -> None:
    rows = ["f" * 8 for _ in range(8)]
    rows[0], rows[3] = "fffffff2", "1fff3fff"
    game = import_settings(document(WSpriteM=image_hex(rows))).game
    assert game.map.sprites == (SpritePlacement(7, 0, 2), SpritePlacement(0, 3, 1), SpritePlacement(4, 3, 3))


def test_rules_come_in_ascending_id_whatever_the_key_order() -> None:
    press = rule_hex(0, 4, record(2, 2, S0))
    game, _ = imported({"RuleB10": press, "RuleB2": press, "RuleB7": press})
    assert [rule.id for rule in game.rules] == [2, 7, 10]


def test_slot_prefix_and_non_numeric_high_score() -> None:
    doc = document(HighN=None)
    doc["keys"] = {f"TW5-{key}": value for key, value in doc["keys"].items()}
    doc["keys"]["TW5-HighN"] = None  # SortingDiamonds writes `undefined`
    assert import_settings(doc).game.high_score == 0
    assert import_settings(document(HighN="NaN")).game.high_score == 0
    assert import_settings(document(HelpN=0)).game.help is False


@pytest.mark.parametrize(("key", "value", "words"), [
    ("BackN", 5, "kind count is 5"),
    ("SpriteN", 8, "kind count is 8"),
    ("BackN", "four", "expected an integer"),
    ("SpriteI3", None, "the key is missing"),
    ("VersionS", None, "the key is missing"),
    ("PlayerN", 4, "player kind 4"),
    ("BackI1", image_hex(["00"] * 2), "art is 2×2, it must be 16×16"),
    ("WBackM", image_hex(["0000000"] * 7), "map is 7×7"),
    ("WSpriteM", image_hex(["f" * 9] * 8), "sprite map is 9×8"),
    ("WSpriteM", image_hex(["4" * 8] * 8), "sprite kind 4"),
    ("WBackM", image_hex(["01234567"] * 8), "background kind 4"),
    ("RuleB3", "20262200011623030c0600", "need exactly 12 (missing bytes)"),
])
def test_import_errors_name_the_key(key: str, value: Any, words: str) -> None:
    doc = document()
    if value is None:
        del doc["keys"][key]
    else:
        doc["keys"][key] = value
    with pytest.raises(TilecodeImportError, match=re.escape(words)) as caught:
        import_settings(doc)
    assert caught.value.key == key and str(caught.value).startswith(key)


def test_undefined_command_arguments_are_errors_at_their_byte() -> None:
    bad = rule_hex(0, 2, record(2, 2, S0, commands=((0, 2),)), record(2, 3, S0, commands=((1, 4),)))
    with pytest.raises(TilecodeImportError, match=r"^RuleB1: byte 13: paint argument 4 is outside 0..3"):
        import_settings(document({"RuleB1": bad}))
    twice = rule_hex(0, 2, record(2, 2, S0), record(2, 2, S0))
    with pytest.raises(TilecodeImportError, match="a second record for tile"):
        import_settings(document({"RuleB1": twice}))
    with pytest.raises(TilecodeImportError, match="press button 6"):
        import_settings(document({"RuleB1": rule_hex(0, 6, record(2, 2, S0))}))


def test_unknown_keys_and_versions_warn() -> None:
    result = import_settings(document(VersionS="3.0.0", ExtraX=1, BackI4="1010"))
    assert any("ExtraX: unknown settings key" in w for w in result.warnings)
    assert any("BackI4: art of a kind beyond" in w for w in result.warnings)
    assert any("VersionS: version '3.0.0'" in w for w in result.warnings)
    assert all(w.startswith("Tiny: ") for w in result.warnings)


def test_unsupported_commands_are_dropped_with_a_warning() -> None:
    game, warnings = imported({
        "RuleB1": rule_hex(1, 6, record(2, 2, S0, commands=((0, 5),))),       # u-turn
        "RuleB2": rule_hex(3, 6, record(2, 2, S0, commands=((4, 3), (4, 0)))),  # next-level, then win
        "RuleB3": rule_hex(0, 5, record(2, 2, S0, commands=((0, 1),))),       # button B
    })
    assert [r.id for r in game.rules] == [1, 2]
    assert game.rule(1).centre.do == () and game.rule(2).centre.do == (Command("game", "win"),)
    assert warnings == (
        "Tiny: rule 1 record (2, 2): 'move u-turn' is not supported, dropped",
        "Tiny: rule 2 record (2, 2): 'game next-level' is not supported, dropped",
        "Tiny: rule 3: button B is not supported, rule dropped",
    )


def test_row_rules_of_section_3_4_drop_offending_commands() -> None:
    game, warnings = imported({
        # corner tile with a command
        "RuleB1": rule_hex(0, 2, record(2, 2, S0), record(3, 3, S0, commands=((1, 1),))),
        # move on a tile without witness; destroy not first; create then move is fine
        "RuleB2": rule_hex(1, 6, record(2, 2, S0, commands=((2, 1), (0, 2), (3, 0))),
                           record(3, 2, background=(1, 0, 0, 0), commands=((0, 2),))),
        # stop outside smash; smash moves only stop; never only game/block; paint twice
        "RuleB3": rule_hex(0, 2, record(2, 2, S0, commands=((0, 4),))),
        "RuleB4": rule_hex(2, 2, record(2, 2, S0, dir=2, commands=((0, 1),)),
                           record(3, 2, (0, 1, 0, 0), commands=((0, 4),))),
        "RuleB5": rule_hex(3, 6, record(2, 2, S0, commands=((1, 1), (6, 0), (4, 1)))),
        "RuleB6": rule_hex(0, 2, record(2, 3, background=(1, 0, 0, 0), commands=((1, 1), (1, 2)))),
    })
    assert game.rule(1).tile(3, 3).do == ()
    assert game.rule(2).centre.do == (Command("create", "s1"), Command("move", "right"))
    assert game.rule(2).tile(3, 2).do == ()
    assert game.rule(3).centre.do == ()
    assert game.rule(4).centre.do == () and game.rule(4).tile(3, 2).do == (Command("move", "stop"),)
    assert game.rule(5).centre.do == (Command("block", "s0"), Command("game", "lose"))
    assert game.rule(6).tile(2, 3).do == (Command("paint", "b1"),)
    text = "\n".join(warnings)
    for words in ("commands on a corner tile", "'destroy' must be the first", "needs a tile that declares a witness",
                  "'move stop' is only for smash rules", "smash rules may only move 'stop'",
                  "never rules may only use game and block", "'paint' is used twice"):
        assert words in text
    assert len(warnings) == 7


def test_dir_is_reset_where_no_witness_binds_and_bad_rules_are_disabled_or_dropped() -> None:
    game, warnings = imported({
        "RuleB1": rule_hex(1, 6, record(2, 2, S0, dir=2), record(1, 1, (0, 1, 0, 0), dir=4),
                           record(3, 2, (0, 1, 0, 0), dir=3)),
        "RuleB2": rule_hex(3, 6, record(2, 2, S0, background=(1, 0, 0, 0), commands=((4, 0),))),
        "RuleB3": rule_hex(3, 6, record(2, 3, S0, commands=((4, 0),))),
        "RuleB4": rule_hex(2, 2, record(2, 2, S0, dir=5)),
    })
    assert game.rule(1).centre.dir == "right"        # the centre's dir is the rule direction
    assert game.rule(1).tile(1, 1).dir == "any"      # corners never bind a witness
    assert game.rule(1).tile(3, 2).dir == "down"     # an edge witness keeps its filter
    assert not game.rule(2).enabled and not game.rule(3).enabled
    assert game.rule(4) is None
    assert len(warnings) == 4 and "cannot run, imported disabled" in warnings[1]


def test_the_original_rule_order_and_record_order_survive() -> None:
    rule = rule_hex(0, 2, record(3, 2, (0, 1, 0, 0)), record(2, 2, S0, commands=((0, 2),)), record(1, 2))
    game, _ = imported({"RuleB0": rule})
    assert [t.position for t in game.rule(0).tiles] == [(3, 2), (2, 2), (1, 2)]


# ------------------------------------------------------------------------------- export


def test_export_is_the_importers_inverse_on_a_small_game() -> None:
    game = import_settings(document()).game
    doc = export_settings(game)
    assert doc["keys"]["WBackM"] == document()["keys"]["WBackM"]
    assert import_settings(doc).game == game


def test_export_refuses_what_the_original_cannot_hold() -> None:
    game, _ = imported({"RuleB2": rule_hex(3, 6, record(2, 3, S0, commands=((4, 0),)))})
    with pytest.raises(TilecodeExportError, match="rule 2 is disabled"):
        export_settings(game)


# ------------------------------------------------------------------------------- corpus


def expected_record(data: dict) -> TileRecord:
    """The model record an expected-file record stands for (spec §3.1 codes)."""
    sets = {name: frozenset({f"b{k}" for k in data["background"][name]} | {f"s{k}" for k in data["sprite"][name]})
            for name in ("include", "include2", "exclude")}
    commands = []
    for c in data["commands"]:
        verb = {"spawn": "create"}.get(c["name"], c["name"])
        arg = {"move": c["arg_name"], "game": {"score10": "score"}.get(c["arg_name"], c["arg_name"]),
               "destroy": None}.get(verb, ("b" if verb in ("paint", "portal") else "s") + str(c["arg"]))
        commands.append(Command(verb, arg))
    return TileRecord(data["col"], data["row"], **sets, dir=data["dir_name"], do=tuple(commands))


@pytest.mark.parametrize("name", GAMES)
def test_every_corpus_game_imports_without_warnings_and_matches_the_expected_file(name: str) -> None:
    source, expected = corpus(name)
    result = import_settings(source)
    game = result.game
    assert result.warnings == ()
    assert game.name == name and game.player_kind == expected["player_kind"] == 0
    assert game.help == (source["keys"]["HelpN"] == 1)
    tile_map = game.map
    assert [("".join(f"{k:x}" for k in row)) for row in tile_map.background] == expected["map"]["background"]
    sprites = [["."] * tile_map.width for _ in range(tile_map.height)]
    for sprite in tile_map.sprites:
        sprites[sprite.y][sprite.x] = str(sprite.kind)
    assert ["".join(row) for row in sprites] == expected["map"]["sprites"]
    assert [(s.y, s.x) for s in tile_map.sprites] == sorted((s.y, s.x) for s in tile_map.sprites)
    assert [list(k.art) for k in game.backgrounds] == expected["art"]["backgrounds"]
    assert [list(k.art) for k in game.sprites] == expected["art"]["sprites"]
    assert [str(rule.id) for rule in game.rules] == list(expected["rules"])
    for rule in game.rules:
        data = expected["rules"][str(rule.id)]
        assert rule.type == data["type"] and rule.transforms == data["transforms_name"] and rule.enabled
        assert rule.button == (data["arg_name"] if rule.type == "press" else None)
        assert rule.tiles == tuple(expected_record(r) for r in data["tiles"]), f"rule {rule.id}"
    assert game.provenance == {
        "source": f"microsoft/tilecode games.ts create{name}", "commit": COMMIT, "license": "MIT",
        "copyright": "Copyright (c) Microsoft Corporation.",
    }


@pytest.mark.parametrize("name", GAMES)
def test_corpus_games_export_and_re_import_identically(name: str) -> None:
    source, _ = corpus(name)
    game = import_settings(source).game
    doc = export_settings(game)
    assert import_settings(doc).game == game
    for key, value in source["keys"].items():
        if key[-1] in "MI":  # images re-encode exactly; rules differ only in the unused ruleArg
            assert doc["keys"][key] == value, key


VIEWS = {"none": 0, "flip-horizontal": 1, "flip-vertical": 1, "rotate-left": 1, "rotate-right": 1,
         "rotate-3-way": 3}


@pytest.mark.parametrize("name", GAMES)
def test_imported_games_keep_the_counts_of_the_spec_table(name: str) -> None:
    game = import_settings(corpus(name)[0]).game
    records = [record for rule in game.rules for record in rule.tiles]
    mix = {kind: n for kind in ("press", "change", "smash", "never")
           if (n := sum(rule.type == kind for rule in game.rules))}
    counts = (len(game.rules), sum(VIEWS[rule.transforms] for rule in game.rules), len(records),
              sum(len(r.do) for r in records), sum(len(r.include) + len(r.include2) + len(r.exclude) for r in records),
              mix)
    assert counts == COUNTS[name]


@pytest.mark.parametrize("name", GAMES)
def test_decoded_form_is_the_expected_file(name: str) -> None:
    source, expected = corpus(name)
    assert decoded_form(source) == expected


def test_known_samples_get_the_kind_names_of_the_spec() -> None:
    source, _ = corpus("MineRocks")
    game = import_settings(source).game
    assert [k.name for k in game.backgrounds] == ["wall", "dirt", "space", "dirt2"]
    assert [k.name for k in game.sprites] == ["player", "boulder", "diamond", "enemy"]


# ----------------------------------------------------------------------------- games.ts


def games_ts(games: list[tuple[str, dict[str, Any]]], calls: str) -> str:
    """A games.ts text written the way the original's export writes it."""
    out = ["// add games in if the slots are empty", "", calls, ""]
    for name, keys in games:
        out += [f"function create{name}(prefix: string) {{",
                'if (settings.exists(prefix+"VersionS")) return;']
        for key, value in keys.items():
            if key.endswith("S"):
                out.append(f'settings.writeString(prefix+"{key}","{value}");')
            elif key.endswith("N"):
                out.append(f'settings.writeNumber(prefix+"{key}",{"undefined" if value is None else value});')
            else:
                wrapped = "\n".join(value[i:i + 80] for i in range(0, len(value), 80))
                out += [f"// buffer length = {len(value) // 2}", f'settings.writeBuffer(prefix+"{key}", hex`', f"{wrapped}`);"]
        out += ["}", "", ""]
    return "\n".join(out)


def test_games_ts_yields_the_same_keys_as_the_settings_json() -> None:
    from studio.engines.tilecode.games_ts import parse_games_ts

    sources = {name: corpus(name)[0] for name in ("MineRocks", "SortingDiamonds", "Paint")}
    text = games_ts([(name, doc["keys"]) for name, doc in sources.items()],
                    'createMineRocks("TW5-");\n// createSortingDiamonds("TW8-");\n')
    found = parse_games_ts(text)
    assert [g.name for g in found] == ["MineRocks", "SortingDiamonds", "Paint"]
    assert [(g.slot, g.loaded) for g in found] == [("TW5", True), ("TW8", False), (None, False)]
    for game in found:
        assert game.document["keys"] == sources[game.name]["keys"]
        assert list(game.document["keys"]) == list(sources[game.name]["keys"])  # write order kept
        assert import_settings(game.document).game == import_settings(sources[game.name]).game
    assert found[1].document["non_numeric_literals"] == {"HighN": "undefined"}


def test_games_ts_function_without_a_closing_brace_is_an_error() -> None:
    from studio.engines.tilecode.games_ts import parse_games_ts

    text = 'function createBroken(prefix: string) {\nsettings.writeString(prefix+"VersionS","4.0.0");\n  }\n'
    with pytest.raises(TilecodeImportError, match="createBroken has no closing"):
        parse_games_ts(text)
    assert parse_games_ts("// nothing here\n") == []
