"""trrbt sprite images unpacked and scaled to pixels (no terminal here): bounded, as they come
from files anyone may write."""

from __future__ import annotations

import base64
import json
import zlib

import pytest

from studio.engines.btree.model.sprites import (
    SpriteError, SpriteSet, decode_image, over, scale,
)
from studio.engines.common.limits import MAX_SPRITE_SIDE
from studio.screens.btree.sprite_render import image_lines
from tests.btree.sprite_data import SPRITES, packed, square
from tests.btree.corpus import corpus_dir

RED, BLUE, CLEAR = (255, 0, 0, 255), (0, 0, 255, 255), (0, 0, 0, 0)


def test_an_image_unpacks_to_its_pixels() -> None:
    image = decode_image(packed([[RED, BLUE], [CLEAR, RED]]))
    assert (image.width, image.height) == (2, 2)
    assert image.rgba == bytes([*RED, *BLUE, *CLEAR, *RED])


def test_scaling_takes_the_mean_of_the_opaque_pixels_and_keeps_holes() -> None:
    image = decode_image(packed([[RED, BLUE, CLEAR, CLEAR], [RED, BLUE, CLEAR, RED]]))
    assert scale(image, 2, 1) == (((127, 0, 127), None),)  # 1 of 4 opaque: a hole
    assert scale(image, 4, 2) == (((255, 0, 0), (0, 0, 255), None, None),
                                  ((255, 0, 0), (0, 0, 255), None, (255, 0, 0)))
    assert scale(image, 1, 1) == (((153, 0, 102),),)  # 5 of 8 opaque: 3 red, 2 blue


def test_a_half_covered_pixel_counts_its_cover() -> None:
    half = (0, 255, 0, 128)
    assert scale(decode_image(packed([[half]])), 1, 1) == (((0, 255, 0),),)
    assert scale(decode_image(packed([[(0, 255, 0, 127)]])), 1, 1) == ((None,),)


def test_over_shows_what_is_under_the_holes() -> None:
    top = (((1, 1, 1), None),)
    under = (((2, 2, 2), (3, 3, 3)),)
    assert over(top, under) == (((1, 1, 1), (3, 3, 3)),)
    assert over(None, under) == under and over(top, None) == top


@pytest.mark.parametrize(("entry", "reason"), [
    ({"size": [0, 4], "data": ""}, "1 to"),
    ({"size": [MAX_SPRITE_SIDE + 1, 1], "data": ""}, "1 to"),
    ({"size": [4, 4]}, "data must be text"),
    ({"size": ["4", 4], "data": ""}, "size must be"),
    ({"size": [True, 4], "data": ""}, "size must be"),
    ({"size": [2, 2], "data": "%%%"}, "base64"),
    ({"size": [2, 2], "data": base64.b64encode(b"not zlib").decode()}, "base64 of zlib"),
    ({"size": [2, 2], "data": base64.b64encode(zlib.compress(b"x" * 15)).decode()}, "15 bytes"),
    ([1, 2], "a table"),
])
def test_an_image_that_does_not_read_says_why(entry, reason) -> None:
    with pytest.raises(SpriteError, match=reason):
        decode_image(entry)


def test_a_zlib_bomb_is_stopped_at_the_size_it_claims() -> None:
    # 1 GiB of zeros packs into about 1 MB; the image says 2×2: unpacking stops at 17 bytes.
    bomb = zlib.compressobj(9)
    data = b"".join(bomb.compress(b"\0" * (1 << 20)) for _ in range(64)) + bomb.flush()
    entry = {"size": [2, 2], "data": base64.b64encode(data).decode()}
    with pytest.raises(SpriteError, match="larger than an image of its size"):
        decode_image(entry)
    # within the text bound, a stream that goes on past the size is refused without reading on
    small = zlib.compress(b"\0" * 4096)
    with pytest.raises(SpriteError, match="more"):
        decode_image({"size": [16, 16], "data": base64.b64encode(small).decode()})


def test_a_sprite_set_draws_images_nothing_or_glyphs() -> None:
    sprites = SpriteSet(SPRITES)
    assert sprites.has_images
    assert sprites.drawn("#") and sprites.drawn("_") and not sprites.drawn("G")
    assert sprites.pixels("_", 4, 4) is None  # null: nothing, the back shows
    wall = sprites.pixels("#", 4, 4)
    assert wall == tuple(tuple((160, 60, 40) for _ in range(4)) for _ in range(4))
    keeper = sprites.pixels("P", 4, 4)
    assert keeper[0] == (None,) * 4 and keeper[1][1] == (40, 200, 90)
    assert sprites.pixels("P", 4, 4) is keeper  # scaled once
    assert sprites.back_tile(5, 9) == "B0"


def test_a_broken_image_leaves_its_tiles_to_glyphs_and_says_why() -> None:
    data = {"images": {"bad": {"size": [2, 2], "data": "%"}, "ok": square((1, 2, 3), 2)},
            "tiles": {"X": "bad", "O": "ok", "Z": "missing"}}
    sprites = SpriteSet(data)
    assert not sprites.drawn("X") and sprites.drawn("O") and not sprites.drawn("Z")
    assert "base64" in sprites.problems["bad"] and "missing" in sprites.problems
    assert SpriteSet(None).has_images is False
    assert SpriteSet({"images": "junk", "tiles": [1], "back": 3}).has_images is False


def test_blocks_are_the_largest_that_fit_else_none() -> None:
    assert image_lines(9, 9, 60, 35) == 3  # 54 × 27
    assert image_lines(9, 9, 80, 40) == 4
    assert image_lines(9, 9, 39, 19) == 2
    assert image_lines(9, 9, 35, 40) is None  # 9 cells of 4 columns do not fit in 35


def test_the_corpus_game_with_sprites_unpacks() -> None:
    game = corpus_dir() / "games" / "games_json" / "soko2.json"
    sprites = SpriteSet(json.loads(game.read_text())["sprites"])
    assert sprites.has_images and not sprites.problems
    assert sprites.pixels("P", 8, 8)[0][0] is None  # the player's corner is clear
    assert all(pixel is not None for row in sprites.pixels("X", 8, 8) for pixel in row)
