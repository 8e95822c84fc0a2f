"""The ``studio`` commands of TileCode games: importing the original's games
(``games_import``) and headless runs (``run``)."""
