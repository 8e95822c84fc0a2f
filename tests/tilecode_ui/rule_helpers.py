"""Moving about the rule selector and the rule editor with arrow keys, as a person would."""

from __future__ import annotations

from studio.engines.tilecode.selector import SELECTOR_CELLS, grid_position, step
from studio.screens.tilecode.rule_cells import move
from studio.screens.tilecode.rule_editor import RuleEditorScreen, cell_grid
from studio.screens.tilecode.selector import RuleSelectorScreen

ARROWS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


async def goto(pilot, screen, target: tuple[int, int]) -> None:
    """Move a screen's cursor to a grid cell with arrow keys (as a person would)."""
    if isinstance(screen, RuleSelectorScreen | RuleEditorScreen):
        for key in shortest_keys(screen, target):
            await pilot.press(key)
        assert screen.cursor == target
        return
    for _ in range(20):
        x, y = screen.cursor
        if (x, y) == target:
            return
        if y != target[1]:
            await pilot.press("down" if target[1] > y else "up")
        else:
            await pilot.press("right" if target[0] > x else "left")
    raise AssertionError(f"cursor stuck at {screen.cursor}, wanted {target}")


def shortest_keys(screen, target: tuple[int, int]) -> tuple[str, ...]:
    """The fewest arrow presses from the cursor to ``target``, by the screen's own moves (the
    selector skips blanks; the editor crosses between the When grid and the Do rows)."""
    if isinstance(screen, RuleEditorScreen):
        rule = screen.rule

        def moved(at, dx, dy):
            return move(rule, at, dx, dy)
    else:
        moved = step
    paths = {screen.cursor: ()}
    frontier = [screen.cursor]
    while target not in paths and frontier:
        at = frontier.pop(0)
        for key, (dx, dy) in ARROWS.items():
            there = moved(at, dx, dy)
            if there not in paths:
                paths[there] = (*paths[at], key)
                frontier.append(there)
    assert target in paths, f"no keys lead from {screen.cursor} to {target}"
    return paths[target]


async def open_new_rule(pilot, app, quadrant: str, key: str, kind: str = "1"):
    await pilot.press("c", kind)
    cell = next(c for c in SELECTOR_CELLS if c.quadrant == quadrant and c.key == key)
    await goto(pilot, app.screen, grid_position(cell))
    await pilot.press("enter")
    editor = app.screen
    assert isinstance(editor, RuleEditorScreen)
    return editor


def position_of(editor, key) -> tuple[int, int]:
    return next(p for p, k in cell_grid(editor.rule).items() if k == key)
