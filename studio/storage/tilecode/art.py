"""The studio's own 16×16 art for TileCode kinds (new projects and the bundled samples).

Every image is ours: backgrounds are generated from small repeating patterns, sprites are drawn
at 8×8 and doubled, so each stays readable here and in glyph mode. Pixels are palette indices
(``model.PALETTE``) written as hex digits; ``.`` in a drawing means 0 (transparent).
"""

from __future__ import annotations

from studio.engines.tilecode.model import ART_SIZE, ArtKind


def _pattern(rows: list[str]) -> tuple[str, ...]:
    """Tile a small pattern over 16×16 (rows and columns repeat)."""
    return tuple(
        "".join(rows[y % len(rows)][x % len(rows[y % len(rows)])] for x in range(ART_SIZE))
        for y in range(ART_SIZE)
    )


def doubled(rows: list[str]) -> tuple[str, ...]:
    """An 8×8 drawing scaled to 16×16; ``.`` becomes 0 (transparent)."""
    out: list[str] = []
    for row in rows:
        wide = "".join(2 * c for c in row.replace(".", "0"))
        out += [wide, wide]
    return tuple(out)


def _framed(inside: str, edge: str) -> tuple[str, ...]:
    """A flat square with a one-pixel border."""
    rows = [edge * ART_SIZE]
    rows += [edge + inside * (ART_SIZE - 2) + edge for _ in range(ART_SIZE - 2)]
    return tuple(rows + [edge * ART_SIZE])


BACKGROUNDS: dict[str, ArtKind] = {
    "brick": ArtKind("brick", _pattern(["eeeeeee2eeeeeee2", "eeeeeee2eeeeeee2", "eeeeeee2eeeeeee2",
                                        "dddddddddddddddd", "eee2eeeeeee2eeee", "eee2eeeeeee2eeee",
                                        "eee2eeeeeee2eeee", "dddddddddddddddd"]), "▓"),
    "grass": ArtKind("grass", _pattern(["77777777", "77767777", "77777777", "77777767"]), "░"),
    "water": ArtKind("water", _pattern(["88888888", "89988888", "88899888", "88888888"]), "≈"),
    "dirt": ArtKind("dirt", _pattern(["eeeeeeee", "eeeceeee", "eeeeeeee", "eeeeeeec"]), "▒"),
    "floor": ArtKind("floor", _pattern(["dddddddb", "dddddddb", "dddddddb", "bbbbbbbb"]), "·"),
    "goal": ArtKind("goal", tuple(
        row if 4 <= y < 12 else "d" * ART_SIZE
        for y, row in enumerate(["dddd55555555dddd"] * ART_SIZE)), "○"),
    "space": ArtKind("space", ("f" * ART_SIZE,) * ART_SIZE, " "),
    "wall": ArtKind("wall", _framed("c", "b"), "█"),
    "path": ArtKind("path", ("f" * ART_SIZE,) * ART_SIZE, " "),
    "selected": ArtKind("selected", _framed("f", "5"), "□"),
}
"""Background art by name."""

SPRITES: dict[str, ArtKind] = {
    "player": ArtKind("player", doubled(["..1111..", "..1f1f..", "..1111..", ".888888.",
                                          "8.8888.8", "..8888..", "..8..8..", ".88..88."]), "@"),
    "player2": ArtKind("player2", doubled(["..4444..", "..4f4f..", "..4444..", ".222222.",
                                            "2.2222.2", "..2222..", "..2..2..", ".22..22."]), "&"),
    "cat": ArtKind("cat", doubled(["1.....1.", "11...11.", "1f111f1.", "1111111.", ".11111..",
                                    ".11111.1", ".1.1.11.", ".1.1...."]), "c"),
    "snake head": ArtKind("snake head", doubled(["..7777..", ".777777.", "77f77f77", "77777777",
                                                  "77777777", ".777777.", "..7227..", "...22..."]), "S"),
    "snake body": ArtKind("snake body", doubled(["..7777..", ".767767.", "77677677", "76777767",
                                                  "76777767", "77677677", ".767767.", "..7777.."]), "s"),
    "snake tail": ArtKind("snake tail", doubled(["........", "...77...", "..7667..", ".776677.",
                                                  ".776677.", "..7667..", "...77...", "........"]), "~"),
    "boulder": ArtKind("boulder", doubled(["..bbbb..", ".bbbbcb.", "bbbbbbcb", "bbcbbbbb",
                                            "bbbbbbbb", "bbbbbcbb", ".bcbbbb.", "..bbbb.."]), "O"),
    "diamond": ArtKind("diamond", doubled(["...99...", "..9119..", ".991199.", "99999999",
                                            ".999999.", "..9999..", "...99...", "........"]), "◆"),
    "box": ArtKind("box", doubled(["eeeeeeee", "e4eeee4e", "ee4ee4ee", "eee44eee", "eee44eee",
                                    "ee4ee4ee", "e4eeee4e", "eeeeeeee"]), "#"),
    "box on goal": ArtKind("box on goal", doubled(["55555555", "5e5555e5", "55e55e55",
                                                    "555ee555", "555ee555", "55e55e55",
                                                    "5e5555e5", "55555555"]), "*"),
    "apple": ArtKind("apple", doubled(["....7...", "...7....", ".22.22..", "2222222.", "2222222.",
                                        "2222222.", ".22222..", "..2.2..."]), "ó"),
    "ghost": ArtKind("ghost", doubled(["..aaaa..", ".aaaaaa.", "a1fa1fa.", "aaaaaaaa",
                                        "aaaaaaaa", "aaaaaaaa", "aaaaaaaa", "a.aa.aa."]), "G"),
    "dot": ArtKind("dot", doubled(["........", "........", "........", "...55...", "...55...",
                                    "........", "........", "........"]), "•"),
    "cursor": ArtKind("cursor", doubled(["11....11", "1......1", "........", "........",
                                          "........", "........", "1......1", "11....11"]), "+"),
    "ruby": ArtKind("ruby", doubled(["........", ".222222.", "22322222", "22222222",
                                      ".222222.", "..2222..", "...22...", "........"]), "♦"),
    "emerald": ArtKind("emerald", doubled(["........", "..7777..", ".776777.", "77777777",
                                            "77777777", ".777777.", "..7777..", "........"]), "●"),
}
"""Sprite art by name."""


def background(name: str) -> ArtKind:
    return BACKGROUNDS[name]


def sprite(name: str) -> ArtKind:
    return SPRITES[name]
