#!/usr/bin/env python3
"""Behaviour-tree screens: choice-to-next-frame time, opening the editor, an edit's recompile.

    .venv/bin/python bench/ui_btree.py [--choices N]

Headless at 120x40. Games: Block Dude 8 and trogue from ../shared/corpus/btree when it is there,
else the bundled Sokoban and Connect Four. The largest corpus tree (by authored nodes) is opened
in the editor, else the largest bundled one.

- choice to frame: from the key that applies a choice to the frame that shows the next wait
  (the engine's run between them included), p50/p95; baseline in the same run: the engine alone
  (``choose`` + ``run_to_choice``) for the same moves. Target p95 <= 30 ms.
- opening the editor (screen pushed, tree drawn, first compile back): target <= 300 ms;
- one edit with its recompile (a field set, until the diagnostics show the new compile):
  target <= 100 ms; baseline: the compile alone.

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing
sys.path.insert(0, str(ROOT / "bench"))

from ui_tilecode import Meter, p95  # noqa: E402

from studio.app import StudioApp  # noqa: E402
from studio.engines.btree.play.session import ChoiceWait, DisplayWait, GameOver  # noqa: E402
from studio.engines.btree.editing.tree_edit import walk  # noqa: E402
from studio.screens.btree.base import open_document  # noqa: E402
from studio.screens.btree.editor import TreeEditorScreen  # noqa: E402
from studio.screens.btree.play import BtreePlayScreen  # noqa: E402
from studio.storage import load_project, save_project  # noqa: E402
from studio.storage.btree.project import compile_model, project_model  # noqa: E402

SIZE = (120, 40)
CORPUS = ROOT.parent / "shared" / "corpus" / "btree" / "games"


def projects(tmp: Path) -> tuple[list[Path], Path]:
    """(games to play, the tree to edit) as btree project files."""
    if CORPUS.exists():
        from studio.storage.btree.trrbt import import_game

        def imported(relative: str, missing: str = "error") -> Path:
            project, _compiled = import_game(CORPUS / relative, missing)
            return save_project(project, tmp / (Path(relative).stem + ".toml"))

        play = [imported("games_yaml/blockdude_levels/blockdude_8.yaml"),
                imported("games_json/trogue.json")]
        sizes = []
        for path in sorted(CORPUS.rglob("*.yaml")) + sorted(CORPUS.rglob("*.json")):
            try:
                project = imported(str(path.relative_to(CORPUS)), "empty")
            except Exception:  # some corpus files are include-only fragments
                continue
            count = sum(1 for _ in walk(project_model(load_project(project)).tree))
            sizes.append((count, project))
        return play, max(sizes)[1]
    bundled = [ROOT / "games" / "sokoban.toml", ROOT / "games" / "connect-four.toml"]
    largest = max((p for p in (ROOT / "games").glob("*.toml")
                   if load_project(p).kind == "btree"),
                  key=lambda p: sum(1 for _ in walk(project_model(load_project(p)).tree)))
    return bundled, largest


async def choice_frames(path: Path, count: int) -> tuple[list[float], list[float]]:
    app = StudioApp(path.parent, freeze_startup=True)  # as `studio` runs it
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        meter = Meter(app)
        play = BtreePlayScreen(open_document(load_project(path)), seed=1)
        await app.push_screen(play)
        while play.busy or play.wait is None:
            await pilot.pause(0.005)
        ui, engine_only = [], []

        async def to_choice() -> None:
            # Display pauses are skipped: the figure is about choosing, not about waiting.
            while not isinstance(play.wait, ChoiceWait) and not isinstance(play.wait, GameOver):
                if isinstance(play.wait, DisplayWait):
                    play.action_skip_display()
                await pilot.pause(0.002)

        for t in range(count):
            await to_choice()
            choices = play.choices
            if not choices:
                break
            index = (7 * t + 3) % len(choices)
            # Baseline: the same move with the engine alone, from the same state.
            snapshot = play.session.engine.snapshot()
            start = time.perf_counter()
            play.session.engine.choose(index)
            play.session.engine.run_to_choice()
            engine_only.append(time.perf_counter() - start)
            play.session.engine.restore(snapshot)
            key = str(index + 1) if index < 9 else None
            if key is None or len(choices) > 10:
                play.selected = index
                key = "enter"
            elapsed, _bytes = await meter.frame(
                pilot, (key,), lambda: not play.busy and play.wait is not None)
            if not isinstance(play.wait, ChoiceWait):
                continue  # a pause or the end came next: not a choice-to-choice frame

            ui.append(elapsed)
        return ui, engine_only


async def editor_figures(path: Path) -> tuple[float, float, float, float]:
    app = StudioApp(path.parent, freeze_startup=True)  # as `studio` runs it
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        times = []
        for _ in range(2):  # the first open also loads Textual's styles for its widgets
            document = open_document(load_project(path))
            start = time.perf_counter()
            editor = TreeEditorScreen(document)
            await app.push_screen(editor)
            while editor.compiled is None:
                await pilot.pause(0.002)
            times.append(time.perf_counter() - start)
            if len(times) == 1:
                app.pop_screen()
                await pilot.pause()
        first, opened = times
        edits = []
        for i in range(5):
            before = editor.compiled
            start = time.perf_counter()
            editor.select(())
            from studio.engines.btree.editing.node_fields import set_field

            editor.change_tree("bench", set_field(editor.model.tree, (), "comment", f"c{i}"))
            while editor.compiled is before:
                await pilot.pause(0.002)
            edits.append(time.perf_counter() - start)
        start = time.perf_counter()
        compile_model(editor.model)
        compile_only = time.perf_counter() - start
        return first, opened, statistics.median(edits), compile_only


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--choices", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        games, largest = projects(Path(tmp))
        source = "corpus" if CORPUS.exists() else "bundled (../shared absent)"
        print(f"Behaviour-tree screens at {SIZE[0]}x{SIZE[1]}, headless; games: {source}")
        for path in games:
            ui, engine = asyncio.run(choice_frames(path, args.choices))
            if not ui:
                print(f"\n{path.stem}: no choice reached")
                continue
            verdict = "meets" if ui and p95(ui) <= 0.030 else "MISSES"
            print(f"\n{path.stem}: {len(ui)} choices")
            print(f"  choice to next frame: p50 {statistics.median(ui) * 1000:.1f} ms, "
                  f"p95 {p95(ui) * 1000:.1f} ms ({verdict} 30 ms)")
            print(f"  engine alone (choose + run to the next choice): p50 "
                  f"{statistics.median(engine) * 1000:.2f} ms")
        first, opened, edit, compile_only = asyncio.run(editor_figures(largest))
        nodes = sum(1 for _ in walk(project_model(load_project(largest)).tree))
        print(f"\neditor on {largest.stem} ({nodes} authored nodes)")
        print(f"  open to first compile: {opened * 1000:.0f} ms "
              f"({'meets' if opened <= 0.3 else 'MISSES'} 300 ms); the first open in a session "
              f"{first * 1000:.0f} ms (Textual loads its widgets' styles once)")
        print(f"  one edit to its recompile shown: {edit * 1000:.0f} ms "
              f"({'meets' if edit <= 0.1 else 'MISSES'} 100 ms); compile alone "
              f"{compile_only * 1000:.0f} ms")


if __name__ == "__main__":
    main()
