"""Paint editor (§8.6) edits, per-kind look, and the glyph/art mode reductions of §8."""

from __future__ import annotations

import pytest

from studio.engines.tilecode.art_edit import (
    BACKGROUND_FALLBACKS, SPRITE_FALLBACKS, art_blocks, blank_art, flood_fill, glyph_width,
    is_color, is_glyph, kind_at, kind_color, kind_glyph, kind_index, pixel, rename_kind,
    set_art, set_color, set_glyph, set_kind, set_pixel,
)
from studio.engines.tilecode.model import PALETTE, ArtKind
from studio.storage.errors import ProjectError
from studio.storage.tilecode.kind import body_to_game, game_to_body, new_game
from studio.storage.tilecode.body import read_art


def art_of(*rows: str) -> tuple[str, ...]:
    """16 rows from a few: each given row is repeated to fill its share (rows must divide 16)."""
    return tuple(row for row in rows for _ in range(16 // len(rows)))


# ------------------------------------------------------------------------------ pixels


def test_pixels_read_and_write_sharing_untouched_rows() -> None:
    art = blank_art()
    assert art == ("0" * 16,) * 16 and pixel(art, 15, 15) == 0 and pixel(None, 3, 3) == 0
    painted = set_pixel(art, 3, 2, 14)
    assert painted[2] == "000e" + "0" * 12 and pixel(painted, 3, 2) == 14
    assert all(painted[y] is art[y] for y in range(16) if y != 2)
    assert set_pixel(None, 0, 0, 1)[0][0] == "1"
    for bad in ((16, 0, 1), (0, -1, 1), (0, 0, 16)):
        with pytest.raises(ValueError):
            set_pixel(art, *bad)
    with pytest.raises(ValueError):
        pixel(art, 0, 16)


def test_flood_fill_is_4_connected() -> None:
    art = list(blank_art())
    art[1] = "0111" + "0" * 12
    art[2] = "0101" + "0" * 12
    art[3] = "0111" + "0" * 12
    art[4] = "1000" + "0" * 12  # touches the ring only diagonally
    art = tuple(art)
    inside = flood_fill(art, 2, 2, 5)
    assert inside[2] == "0151" + "0" * 12 and inside[0] is art[0]
    ring = flood_fill(art, 1, 1, 7)
    assert ring[1:4] == ("0777" + "0" * 12, "0707" + "0" * 12, "0777" + "0" * 12)
    assert ring[4] == art[4]
    outside = flood_fill(art, 15, 15, 9)
    assert outside[2] == "9101" + "9" * 12 and outside[4] == "1999" + "9" * 12  # (2,2) enclosed
    assert flood_fill(art, 2, 2, 0) is art


# ------------------------------------------------------------------------------- kinds


def test_kind_indexes_cover_backgrounds_then_sprites() -> None:
    game = new_game("K")
    assert [kind_index(c) for c in ("b0", "b3", "s0", "s3")] == [0, 3, 4, 7]
    assert kind_at(game, 1).name == "grass" and kind_at(game, 4).name == "player"
    with pytest.raises(ValueError):
        kind_index("s4")
    with pytest.raises(ValueError):
        kind_at(game, 8)
    swapped = set_kind(game, 6, ArtKind("apple"))
    assert swapped.sprites[2].name == "apple" and swapped.sprites[0] is game.sprites[0]
    assert swapped.backgrounds is game.backgrounds
    assert set_kind(game, 2, ArtKind("lava")).backgrounds[2].name == "lava"


def test_rename_glyph_colour_and_art_edits_round_trip_through_storage() -> None:
    game = new_game("K")
    game = rename_kind(game, 5, "  hero ")
    game = set_glyph(game, 5, "웃")
    game = set_color(game, 0, "#A0B1C2")
    game = set_art(game, 3, set_pixel(game.backgrounds[3].art, 0, 0, 15))
    assert game.sprites[1].name == "hero" and game.sprites[1].glyph == "웃"
    assert game.backgrounds[0].color == "#a0b1c2"
    assert body_to_game(game_to_body(game), "K") == game
    assert set_glyph(game, 5, None).sprites[1].glyph is None
    assert set_color(game, 0, None).backgrounds[0].color is None
    assert set_art(game, 4, None).sprites[0].art is None
    for edit in (lambda: rename_kind(game, 0, " "), lambda: set_glyph(game, 0, "abc"),
                 lambda: set_glyph(game, 0, ""), lambda: set_glyph(game, 0, "\x07"),
                 lambda: set_glyph(game, 0, "宽宽"), lambda: set_color(game, 0, "#12345"),
                 lambda: set_color(game, 0, "red"), lambda: set_art(game, 0, ("0" * 16,) * 15),
                 lambda: set_art(game, 0, ("g" * 16,) * 16)):
        with pytest.raises(ValueError):
            edit()


def test_the_width_and_colour_checks_are_the_ones_the_project_reader_uses() -> None:
    glyphs = ("a", "ab", "宽", "é", "e\u0301", "\x07")
    assert [glyph_width(g) for g in glyphs] == [1, 2, 2, 1, 1, -1]
    assert is_glyph("▓") and is_glyph("宽") and not is_glyph("宽a") and not is_glyph(3)
    assert is_color("#91463D") and not is_color("#91463") and not is_color(None)
    with pytest.raises(ProjectError):
        read_art({"name": "x", "glyph": "宽a"}, ("sprites", 0))
    with pytest.raises(ProjectError):
        read_art({"name": "x", "color": "#gg0000"}, ("sprites", 0))
    assert read_art({"name": "x", "glyph": "宽", "color": "#AA0000"}, ()).color == "#aa0000"


# ---------------------------------------------------------------------- terminal look


def test_kind_color_uses_the_set_colour_then_the_most_frequent_art_colour() -> None:
    half = art_of("0" * 16, "0" * 16, "0" * 16, "7" * 8 + "2" * 8)  # 0: 208, 7: 32, 2: 32
    assert kind_color(ArtKind("x", half, color="#123456"), False) == "#123456"
    assert kind_color(ArtKind("x", half), True) == PALETTE[0]  # backgrounds count black
    assert kind_color(ArtKind("x", half), False) == PALETTE[2]  # sprites ignore 0; tie → lower
    more7 = set_pixel(half, 15, 15, 7)
    assert kind_color(ArtKind("x", more7), False) == PALETTE[7]


def test_kind_color_without_art_is_a_fixed_colour_per_kind() -> None:
    for background, choices in ((True, BACKGROUND_FALLBACKS), (False, SPRITE_FALLBACKS)):
        colours = {kind_color(ArtKind(name), background) for name in ("a", "b", "c", "dd", "e")}
        assert colours <= set(choices) and len(colours) > 1
        assert kind_color(ArtKind("ghost"), background) == kind_color(ArtKind("ghost"), background)
    # A sprite whose art is all transparent falls back the same way.
    assert kind_color(ArtKind("ghost", blank_art()), False) == kind_color(ArtKind("ghost"), False)
    assert kind_color(ArtKind("ghost", blank_art()), True) == PALETTE[0]


def test_kind_glyph_is_the_set_glyph_or_made_from_the_name() -> None:
    assert kind_glyph(ArtKind("player", glyph="@"), False) == "@"
    assert kind_glyph(ArtKind("player"), False) == "P"
    assert kind_glyph(ArtKind("snake head"), False) == "Sh"
    assert kind_glyph(ArtKind("brick"), True) == "b"
    assert kind_glyph(ArtKind("Dark Sand"), True) == "ds"
    assert kind_glyph(ArtKind("宽 road"), True) == "宽"  # a second initial would not fit
    assert kind_glyph(ArtKind("!!"), False) == "?" and kind_glyph(ArtKind("--"), True) == "·"
    game = new_game("G")
    assert all(is_glyph(kind_glyph(k, False)) for k in game.sprites)


def from_blocks(blocks: dict[tuple[int, int], tuple[str, ...]]) -> tuple[str, ...]:
    """Art from 4×4 blocks given by (block x, block y) → 4 rows of 4 digits; the rest is 0."""
    rows = [["0"] * 16 for _ in range(16)]
    for (bx, by), pattern in blocks.items():
        for dy, line in enumerate(pattern):
            rows[by * 4 + dy][bx * 4:bx * 4 + 4] = list(line)
    return tuple("".join(row) for row in rows)


def test_art_blocks_reduce_to_the_dominant_colour_of_each_block() -> None:
    art = from_blocks({
        (0, 0): ("5550", "5550", "5550", "0000"),  # 9 of 5, 7 transparent → 5
        (1, 0): ("5500", "5500", "5500", "0000"),  # 6 of 5, 10 transparent → stays 0
        (2, 1): ("3333", "3333", "0000", "0000"),  # 8 and 8: a visible colour beats 0
        (3, 1): ("4499", "4499", "4499", "4499"),  # 8 and 8: the lower index
        (0, 2): ("1122", "1122", "0000", "0000"),  # 4, 4 and 8 transparent → 0
        (3, 3): ("eeee", "eeee", "eeee", "eeef"),  # 15 of e → e
    })
    assert art_blocks(art) == ((5, 0, 0, 0), (0, 0, 3, 4), (0, 0, 0, 0), (0, 0, 0, 14))
    assert art_blocks(None) == ((0,) * 4,) * 4
    assert art_blocks(art, 16) == tuple(tuple(int(c, 16) for c in row) for row in art)
    assert art_blocks(art_of("1" * 8 + "2" * 8), 2) == ((1, 2), (1, 2))
    assert art_blocks(art_of("1" * 8 + "2" * 8), 1) == ((1,),)
    with pytest.raises(ValueError):
        art_blocks(art, 3)
    with pytest.raises(ValueError):
        art_blocks(art, 0)
