"""studio: a terminal game studio for TileCode, behaviour-tree and Haunted Tiles games."""

__version__ = "0.1.0"
