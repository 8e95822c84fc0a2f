"""Where the board's camera goes along one axis: arithmetic on cells, apart from the widget
(:mod:`studio.widgets.board`) that moves the camera and repaints."""

from __future__ import annotations


def follow_axis(target: int, view: int, size: int) -> int:
    """The camera position that centres ``target``, clamped to the board; a board smaller than
    the view is centred in it."""
    if size <= view:
        return -((view - size) // 2)
    return min(max(target - view // 2, 0), size - view)


def inside(target: int, camera: int, view: int, size: int) -> bool:
    """Whether ``target`` sits in the middle half of the view (or the board fits the view and
    the camera already shows it as :func:`follow_axis` would)."""
    if size <= view:
        return camera == follow_axis(target, view, size)
    quarter = view // 4
    return camera + quarter <= target < camera + view - quarter and 0 <= camera <= size - view


def scroll_axis(camera: int, cursor: int, view: int, margin: int, size: int) -> int:
    """The camera position along one axis that keeps ``margin`` cells around the cursor.

    Keeping the margin never moves the camera further off the board than it already is.
    """
    target = camera
    if cursor < camera + margin:
        target = cursor - margin
    elif cursor > camera + view - 1 - margin:
        target = cursor - view + 1 + margin
    return min(max(target, min(camera, 0)), max(camera, size - view))


def fit_axis(camera: int, view: int, size: int) -> int:
    """``camera`` moved as little as it takes for the board to fill the view (a board smaller
    than the view is centred in it)."""
    if size <= view:
        return follow_axis(0, view, size)
    return min(max(camera, 0), size - view)


def centring_pad(camera: int, cell: int, size: int, view: int) -> int:
    """Columns (or lines) to add before a board smaller than its view, beyond the whole cells
    :func:`follow_axis` leaves (``-camera`` of them), so that it sits in the middle of the view
    to the column rather than to the cell; 0 when the board does not fit the view."""
    if camera > 0 or size * cell > view:
        return 0
    return max((view - size * cell) // 2 + camera * cell, 0)


def board_pad(renderer, camera: tuple[int, int], view: tuple[int, int]) -> tuple[int, int]:
    """Columns and lines before a board smaller than its view, past its whole-cell centring:
    only for a renderer that asks (``centre_exactly``). Image cells are up to 16 columns and
    8 lines, and centred by whole cells an image board sat top-left of its pane."""
    if not getattr(renderer, "centre_exactly", False):
        return 0, 0
    x, y = (centring_pad(c, cell, size, room) for c, cell, size, room in
            zip(camera, renderer.cell_size, (renderer.width, renderer.height), view))
    return x, y
