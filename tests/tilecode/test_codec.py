"""The RLE image codec and the packed rule codec of original TileCode buffers (spec §4.2, §10.1)."""

from __future__ import annotations

import json

import pytest

from studio.engines.tilecode.codec import Image, TilecodeImportError, decode_image, encode_image, parse_hex
from studio.engines.tilecode.expected_form import expected_form, summary
from studio.engines.tilecode.rules_codec import (
    RawCommand, RawRecord, RawRule, decode_rule, encode_rule, pack_attributes, unpack_attributes,
)
from studio.engines.tilecode.settings import decode_settings
from tests.shared_data import requires_shared

GAMES = ["ApplesGrow", "ChangeBug", "EatDots", "HelloWorld", "MineRocks", "Paint", "PushBoxes",
         "SideScroller", "Sokoban2", "SortingDiamonds", "SwapSprites"]
IMAGE_KEYS = ["WBackM", "WSpriteM", *(f"BackI{k}" for k in range(4)), *(f"SpriteI{k}" for k in range(4))]

# The worked examples of the corpus README, copied as bytes so these tests need no corpus.
MINEROCKS_BACK3 = bytes.fromhex(
    "1010bd21ed217d1bcd21ed21fd6d1bfd5d11fdfd8d2bed2bfdfd8d1b4d1bfded1bfd1d")
MINEROCKS_RULE0 = bytes.fromhex("20262200011623030c060002")
MINEROCKS_RULE1 = bytes.fromhex("203122000116230004163310" "3c06" "00020003")


def corpus(name: str) -> tuple[dict, dict]:
    folder = requires_shared("corpus", "tilecode")
    source = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    expected = json.loads((folder / f"{name}.expected.json").read_text(encoding="utf-8"))
    return source, expected


# ------------------------------------------------------------------------------ images


def test_pixels_are_visited_column_major() -> None:
    # 3×2 image with rows "012" / "345": column x=0 is 0,3, then 1,4, then 2,5.
    data = bytes([3, 2, 0x10, 0x13, 0x11, 0x14, 0x12, 0x15])
    image = decode_image(data)
    assert (image.width, image.height) == (3, 2)
    assert image.hex_rows() == ("012", "345")
    assert encode_image(image) == data


def test_runs_continue_across_columns_and_split_at_15_with_the_remainder_last() -> None:
    image = Image.from_hex_rows(["7"] * 40)  # 1 wide, 40 high: one run of 40
    assert encode_image(image) == bytes([1, 40, 0xF7, 0xF7, 0xA7])
    assert decode_image(bytes([1, 40, 0xF7, 0xF7, 0xA7])) == image
    two_columns = decode_image(bytes([2, 3, 0x45, 0x29]))  # 4 × 5 crosses into column 1
    assert two_columns.hex_rows() == ("55", "59", "59")


def test_zero_length_runs_write_nothing() -> None:
    assert decode_image(bytes([1, 2, 0x07, 0x23, 0x05])).hex_rows() == ("3", "3")


def test_readme_worked_example_background_art() -> None:
    image = decode_image(MINEROCKS_BACK3, "BackI3")
    rows = image.hex_rows()
    assert (image.width, image.height) == (16, 16)
    assert rows[0] == "dddddddddddddddd"
    assert rows[1] == "ddd11ddddddddbdd"
    assert rows[4] == "ddbddddddbbddddd"
    assert rows[11] == "11dddddddddddddd"
    assert rows[12] == "11ddddddddddbddd"
    assert encode_image(image) == MINEROCKS_BACK3


@pytest.mark.parametrize(
    ("data", "offset", "words"),
    [
        (bytes([4]), 0, "header"),
        (bytes([0, 4, 0x40]), 0, "width 0"),
        (bytes([0x80, 1, 0x10]), 0, "width 128"),  # a negative signed byte in the original
        (bytes([1, 0xFF]), 1, "height 255"),
        (bytes([1, 1, 0x17, 0x17]), 3, "trailing bytes: 1"),
        (bytes([2, 2, 0x57]), 2, "goes past"),
        (bytes([2, 2, 0x37]), 3, "covers 3 of the 4 pixels"),
        (bytes([2, 2]), 2, "missing bytes"),
    ],
)
def test_malformed_images_name_the_key_and_byte_offset(data: bytes, offset: int, words: str) -> None:
    with pytest.raises(TilecodeImportError) as caught:
        decode_image(data, "WBackM")
    assert caught.value.key == "WBackM" and caught.value.offset == offset
    assert words in str(caught.value) and str(caught.value).startswith(f"WBackM: byte {offset}: ")


def test_encoder_refuses_images_the_format_cannot_hold() -> None:
    with pytest.raises(ValueError, match="cannot be stored"):
        encode_image(Image.from_hex_rows(["0" * 128]))
    with pytest.raises(ValueError, match="do not match"):
        encode_image(Image(2, 1, ((0,),)))


def test_hex_values() -> None:
    assert parse_hex("0a FF\n10", "BackI0") == bytes([10, 255, 16])
    with pytest.raises(TilecodeImportError, match=r"^BackI0: odd number of hex digits \(3\)"):
        parse_hex("abc", "BackI0")
    with pytest.raises(TilecodeImportError, match=r"^RuleB2: 'g' is not a hex digit \(character 1\)"):
        parse_hex("0g", "RuleB2")
    with pytest.raises(TilecodeImportError, match="expected a hex string, got int"):
        parse_hex(12, "RuleB2")


# ------------------------------------------------------------------------------- rules


def test_attribute_vectors_are_two_bits_per_kind_from_the_low_bits() -> None:
    assert unpack_attributes(0x3C) == (0, 3, 3, 0)
    assert unpack_attributes(0b10_01_11_00) == (0, 3, 1, 2)
    assert pack_attributes((0, 3, 1, 2)) == 0b10_01_11_00
    with pytest.raises(ValueError):
        pack_attributes((0, 4, 0, 0))


def test_readme_rule_examples_decode_field_by_field_and_re_encode() -> None:
    rule0 = decode_rule(MINEROCKS_RULE0, "RuleB0")
    assert rule0 == RawRule(0, 2, 6, (
        RawRecord(2, 2, (0, 0, 0, 0), (1, 0, 0, 0), 6, (RawCommand(0, 2),)),
        RawRecord(3, 2, (3, 0, 0, 0), (0, 3, 0, 0), 6, ()),
    ))
    rule1 = decode_rule(MINEROCKS_RULE1, "RuleB1")
    assert (rule1.type, rule1.arg, rule1.transforms) == (0, 2, 1)
    assert [(r.col, r.row) for r in rule1.records] == [(2, 2), (3, 2), (3, 3)]
    assert rule1.records[1].commands == (RawCommand(0, 3),)  # the boulder drops
    assert rule1.records[2].background == (0, 0, 1, 0) and rule1.records[2].sprite == (0, 3, 3, 0)
    assert encode_rule(rule0) == MINEROCKS_RULE0 and encode_rule(rule1) == MINEROCKS_RULE1


@pytest.mark.parametrize(
    ("data", "offset", "words"),
    [
        (MINEROCKS_RULE0[:-1], 11, "need exactly 12 (missing bytes)"),
        (MINEROCKS_RULE0 + b"\x00", 12, "need exactly 12 (trailing bytes)"),
        (MINEROCKS_RULE0[:5], 5, "2 tile records need 10 bytes"),
        (b"\x20", 0, "shorter than its 2-byte header"),
        (bytes([0x24, 0x00]), 0, "rule type 4 is outside 0..3"),
        (bytes([0x20, 0x07]), 1, "transforms 7"),
        (bytes([0x20, 0x10, 0x20, 0, 1, 0x06]), 2, "record column 0 is outside 1..3"),
        (bytes([0x20, 0x10, 0x42, 0, 1, 0x06]), 2, "record row 4"),
        (bytes([0x20, 0x10, 0x22, 0, 1, 0x07]), 5, "direction predicate 7"),
        (bytes([0x20, 0x10, 0x22, 0, 1, 0x56]) + bytes(10), 5, "command count 5"),
        (bytes([0x20, 0x10, 0x22, 0, 1, 0x16, 7, 0]), 6, "instruction 7"),
    ],
)
def test_malformed_rules_name_the_key_and_byte_offset(data: bytes, offset: int, words: str) -> None:
    with pytest.raises(TilecodeImportError) as caught:
        decode_rule(data, "RuleB9")
    assert caught.value.key == "RuleB9" and caught.value.offset == offset
    assert words in str(caught.value)


def test_rule_encoder_refuses_fields_wider_than_their_nibble() -> None:
    with pytest.raises(ValueError, match="4 bits"):
        encode_rule(RawRule(0, 16, 0))
    with pytest.raises(ValueError, match="4 bits"):
        encode_rule(RawRule(0, 0, 0, (RawRecord(2, 2, (0,) * 4, (1, 0, 0, 0), 6, (RawCommand(0, 0),) * 16),)))


# ------------------------------------------------------------------------------ corpus


@pytest.mark.parametrize("name", GAMES)
def test_every_corpus_buffer_decodes_like_the_expected_file(name: str) -> None:
    source, expected = corpus(name)
    got = expected_form(decode_settings(source))
    assert set(got) == set(expected)
    for field in ("name", "format", "background_kinds", "sprite_kinds", "player_kind", "summary"):
        assert got[field] == expected[field], field
    for field in expected["map"]:
        assert got["map"][field] == expected["map"][field], f"map.{field}"
    for group in ("backgrounds", "sprites"):
        for kind, rows in enumerate(expected["art"][group]):
            assert got["art"][group][kind] == rows, f"art.{group}[{kind}]"
    assert list(got["rules"]) == list(expected["rules"])  # ascending numeric id
    for rule_id, rule in expected["rules"].items():
        mine = got["rules"][rule_id]
        for field in rule:
            if field != "tiles":
                assert mine[field] == rule[field], f"rule {rule_id}.{field}"
        assert len(mine["tiles"]) == len(rule["tiles"]), f"rule {rule_id} records"
        for index, record in enumerate(rule["tiles"]):
            assert mine["tiles"][index] == record, f"rule {rule_id} record {index}"
    assert got == expected


@pytest.mark.parametrize("name", GAMES)
def test_every_corpus_buffer_re_encodes_byte_for_byte(name: str) -> None:
    source, _ = corpus(name)
    keys = source["keys"]
    rules = [key for key in keys if key.startswith("RuleB")]
    assert rules and all(key in keys for key in IMAGE_KEYS)
    for key in IMAGE_KEYS:
        assert encode_image(decode_image(bytes.fromhex(keys[key]), key)).hex() == keys[key], key
    for key in rules:
        assert encode_rule(decode_rule(bytes.fromhex(keys[key]), key)).hex() == keys[key], key


# The spec's table (§4.2 and the corpus README), written out so the counts have an anchor
# independent of the expected files.
COUNTS = {
    "HelloWorld": (7, 9, 10, 4, 10, {"press": 5, "smash": 2}),
    "ApplesGrow": (9, 24, 15, 15, 22, {"press": 1, "change": 6, "smash": 2}),
    "MineRocks": (14, 15, 29, 16, 62, {"press": 4, "change": 5, "smash": 4, "never": 1}),
    "PushBoxes": (7, 12, 11, 10, 21, {"press": 2, "change": 2, "smash": 2, "never": 1}),
    "EatDots": (11, 27, 30, 16, 33, {"press": 3, "change": 6, "smash": 2}),
    "SwapSprites": (11, 14, 33, 38, 52, {"press": 4, "change": 7}),
    "SideScroller": (8, 3, 15, 13, 16, {"press": 1, "change": 5, "smash": 2}),
    "SortingDiamonds": (4, 0, 14, 5, 14, {"change": 4}),
    "Sokoban2": (5, 12, 9, 6, 16, {"press": 2, "smash": 2, "never": 1}),
    "Paint": (2, 3, 2, 2, 2, {"press": 2}),
    "ChangeBug": (6, 0, 10, 6, 10, {"press": 1, "change": 3, "smash": 2}),
}


@pytest.mark.parametrize("name", GAMES)
def test_summary_counts_match_the_spec_table(name: str) -> None:
    source, _ = corpus(name)
    counts = summary(decode_settings(source).rules)
    base, derived, records, commands, attributes, mix = COUNTS[name]
    assert (counts["base_rules"], counts["derived_views"], counts["tile_records"], counts["commands"],
            counts["attributes"]) == (base, derived, records, commands, attributes)
    assert {k: v for k, v in counts["rule_mix"].items() if v} == mix
