"""Map editor (§8.5) and settings (§8.4) edits: brushes, stacks, sprite order, flood, resize."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.engines.tilecode.map_edit import (
    clear_sprites, flood_tiles, paint_tile, resize, resize_loss, set_map, set_settings,
    sprites_on, stamp_sprite,
)
from studio.engines.tilecode.model import SpritePlacement, TileMap
from studio.storage.tilecode.kind import body_to_game, bordered_map, game_to_body, new_game


def stacked_map() -> TileMap:
    """14×12: a stack of three sprites (kinds 2, 1, 2) at (4, 3); single sprites at (9, 2),
    (2, 3), (1, 5) and (5, 10)."""
    body = game_to_body(set_map(new_game("M"), bordered_map(14, 12)))
    rows = [["."] * 14 for _ in range(12)]
    rows[3][4], rows[3][2], rows[5][1], rows[2][9], rows[10][5] = "2", "0", "3", "1", "0"
    body["map"]["sprites"] = "".join("".join(r) + "\n" for r in rows)
    body["map"]["extra_sprites"] = [[4, 3, "s1"], [4, 3, "s2"]]
    return body_to_game(body, "M").map


def round_trip(tile_map: TileMap) -> TileMap:
    """What the project writer stores and the reader rebuilds."""
    game = set_map(new_game("M"), tile_map)
    return body_to_game(game_to_body(game), game.name).map


def in_order(tile_map: TileMap) -> bool:
    keys = [(s.y, s.x) for s in tile_map.sprites]
    return keys == sorted(keys)


# ------------------------------------------------------------------------- background


def test_paint_tile_changes_one_tile_and_shares_the_other_rows() -> None:
    big = bordered_map(128, 128)
    painted = paint_tile(big, 5, 7, 3)
    assert painted.background[7][5] == 3 and big.background[7][5] == 1
    assert painted.background[7][:5] == big.background[7][:5]
    assert all(painted.background[y] is big.background[y] for y in range(128) if y != 7)
    assert paint_tile(painted, 5, 7, 3) is painted
    with pytest.raises(ValueError):
        paint_tile(big, 128, 0, 1)
    with pytest.raises(ValueError):
        paint_tile(big, 0, 0, 4)


def test_flood_tiles_fills_the_4_connected_region_only() -> None:
    rows = ("11111111", "10001111", "10111111", "11011111", "11111111", "00000000",
            "11111111", "11111111")
    tile_map = TileMap(8, 8, tuple(tuple(int(c) for c in r) for r in rows))
    filled = flood_tiles(tile_map, 1, 1, 2)
    assert ["".join(map(str, r)) for r in filled.background] == [
        "11111111", "12221111", "12111111", "11011111", "11111111", "00000000",
        "11111111", "11111111"]  # (2,3) touches the region only diagonally
    assert all(filled.background[y] is tile_map.background[y] for y in (0, 3, 4, 5, 6, 7))
    assert flood_tiles(tile_map, 1, 1, 0) is tile_map
    whole = flood_tiles(tile_map, 0, 0, 3)
    assert ["".join(map(str, r)) for r in whole.background] == [
        "33333333", "30003333", "30333333", "33033333", "33333333", "00000000",
        "11111111", "11111111"]  # the row of 0 walls the bottom rows off


# ----------------------------------------------------------------------------- sprites


def test_stamping_toggles_and_replaces_and_never_stacks() -> None:
    tile_map = bordered_map(8, 8)
    one = stamp_sprite(tile_map, 3, 3, 1)
    assert sprites_on(one, 3, 3) == [1] and one.sprites == (SpritePlacement(3, 3, 1),)
    assert stamp_sprite(one, 3, 3, 1).sprites == ()  # exactly that sprite: removed
    other = stamp_sprite(one, 3, 3, 2)
    assert sprites_on(other, 3, 3) == [2] and len(other.sprites) == 1
    assert other.background is tile_map.background
    stacked = stacked_map()
    assert sprites_on(stacked, 4, 3) == [2, 1, 2]
    for kind in (1, 2, 0):  # a stack is replaced by one sprite, even of a kind it holds
        assert sprites_on(stamp_sprite(stacked, 4, 3, kind), 4, 3) == [kind]
    with pytest.raises(ValueError):
        stamp_sprite(tile_map, -1, 0, 0)
    with pytest.raises(ValueError):
        stamp_sprite(tile_map, 0, 0, 4)


def test_clear_sprites_removes_a_stack() -> None:
    stacked = stacked_map()
    cleared = clear_sprites(stacked, 4, 3)
    assert sprites_on(cleared, 4, 3) == [] and len(cleared.sprites) == 4
    assert sprites_on(cleared, 2, 3) == [0] and sprites_on(cleared, 1, 5) == [3]
    assert clear_sprites(cleared, 4, 3) is cleared


def test_sprite_order_after_edits_is_what_storage_writes_and_reads() -> None:
    tile_map = stacked_map()
    for x, y, kind in ((7, 1, 0), (0, 8, 1), (5, 3, 2), (3, 3, 1), (4, 4, 0), (9, 0, 3)):
        tile_map = stamp_sprite(tile_map, x, y, kind)
    assert in_order(tile_map)
    assert sprites_on(tile_map, 4, 3) == [2, 1, 2]  # the stack kept its file order
    assert round_trip(tile_map) == tile_map


@settings(max_examples=150)
@given(st.lists(st.tuples(st.sampled_from(["stamp", "clear"]), st.integers(0, 13),
                          st.integers(0, 11), st.integers(0, 3)), max_size=40))
def test_any_edit_sequence_keeps_the_stored_sprite_order(edits) -> None:
    tile_map = stacked_map()
    for action, x, y, kind in edits:
        before = sprites_on(tile_map, x, y)
        if action == "stamp":
            tile_map = stamp_sprite(tile_map, x, y, kind)
            assert sprites_on(tile_map, x, y) == ([] if before == [kind] else [kind])
        else:
            tile_map = clear_sprites(tile_map, x, y)
            assert sprites_on(tile_map, x, y) == []
        assert in_order(tile_map)
    assert round_trip(tile_map) == tile_map


# ------------------------------------------------------------------------------ resize


def test_shrinking_crops_right_and_bottom_and_drops_those_sprites() -> None:
    stacked = stacked_map()
    assert resize_loss(stacked, 12, 11) == (14 * 12 - 12 * 11, 0)
    assert resize_loss(stacked, 9, 10) == (14 * 12 - 90, 2)  # (9, 2) and (5, 10)
    assert resize_loss(stacked, 8, 8) == (14 * 12 - 64, 2)
    assert resize_loss(stacked, 8, 14) == (14 * 12 - 96, 1)  # taller, but narrower
    cropped = resize(stacked, 9, 10)
    assert (cropped.width, cropped.height) == (9, 10)
    assert cropped.background == tuple(row[:9] for row in stacked.background[:10])
    assert [(s.x, s.y, s.kind) for s in cropped.sprites] == [
        (2, 3, 0), (4, 3, 2), (4, 3, 1), (4, 3, 2), (1, 5, 3)]
    assert round_trip(cropped) == cropped
    same_width = resize(stacked, 14, 8)
    assert all(same_width.background[y] is stacked.background[y] for y in range(8))


def test_growing_fills_with_background_0_and_keeps_everything() -> None:
    stacked = stacked_map()
    grown = resize(stacked, 16, 13)
    assert resize_loss(stacked, 16, 13) == (0, 0)
    assert grown.sprites == stacked.sprites
    assert all(row[:14] == old and row[14:] == (0, 0)
               for row, old in zip(grown.background, stacked.background))
    assert grown.background[12] == (0,) * 16
    taller = resize(stacked, 14, 20)
    assert all(taller.background[y] is stacked.background[y] for y in range(12))
    assert taller.background[12:] == ((0,) * 14,) * 8
    assert resize(stacked, 14, 12) is stacked
    assert round_trip(grown) == grown


@pytest.mark.parametrize("size", [(7, 8), (8, 129), (0, 0)])
def test_sizes_outside_8_to_128_are_refused(size) -> None:
    with pytest.raises(ValueError):
        resize(bordered_map(8, 8), *size)
    with pytest.raises(ValueError):
        resize_loss(bordered_map(8, 8), *size)
    assert resize(bordered_map(8, 8), 128, 128).width == 128


# ---------------------------------------------------------------------------- settings


def test_set_map_and_settings() -> None:
    game = new_game("S")
    smaller = set_map(game, resize(game.map, 8, 8))
    assert smaller.map.width == 8 and smaller.backgrounds is game.backgrounds
    edited = set_settings(game, round_ms=40, help=False, seed=7, render="art", name="T")
    assert (edited.round_ms, edited.help, edited.seed, edited.render, edited.name) == (
        40, False, 7, "art", "T")
    assert set_settings(edited, seed=None).seed is None
    assert body_to_game(game_to_body(edited), "T") == edited
    for bad in ({"round_ms": 29}, {"round_ms": 2001}, {"round_ms": True}, {"help": 1},
                {"seed": -1}, {"seed": 2**63}, {"render": "ascii"}, {"name": " "},
                {"high_score": -1}, {"player_kind": 1}, {"width": 9}):
        with pytest.raises(ValueError):
            set_settings(game, **bad)
    assert replace(game, round_ms=2000) == set_settings(game, round_ms=2000)
