"""TileCode-style rule games: tile maps, sprites and When/Do rules (spec tilecode.md).

Pure: no Textual, no Rich, no terminal or file I/O.
"""
