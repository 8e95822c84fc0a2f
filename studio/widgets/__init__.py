"""Widgets and editing machinery shared by the screens of every kind of game.

- :class:`Board` (``board.py``): a tile map on the Line API with camera, cursor and a per-kind
  cell renderer.
- :class:`LinesView` (``lines.py``): a prepared picture that repaints only changed lines.
- :class:`History` and :class:`Document` (``history.py``, ``document.py``): undo/redo of a
  project model and the save path with the stale-file check (no Textual in either).
- :class:`SavePath` (``save.py``) and the dialogs (``dialogs.py``): the questions saving asks.
"""
