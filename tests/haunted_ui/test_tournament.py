"""The tournament screen (haunted.md §13.7), driven with keys: the project file, the runs, the
bracket and standings agree with the session run headless (``studio tournament``)."""

from __future__ import annotations

import csv
import threading
from pathlib import Path

from studio.engines.haunted import tournament as engine
from studio.screens.dialogs import ConfirmDialog
from studio.screens.haunted.tournament_dialogs import PickDialog, ValueDialog
from studio.sessions.haunted.tournament import read_index, replay_file, tournament_folder
from studio.storage import load_project
from tests.haunted_ui.tournament_helpers import (
    CUP,
    FOUR,
    THREE,
    comparable,
    finish,
    headless,
    open_screen,
    run_with_cli,
    set_up,
)
from tests.ui_helpers import studio_app, wait_until


def hold_match(monkeypatch, number: int) -> tuple[threading.Event, list[int]]:
    """Match ``number`` of any run waits for the returned gate; the list counts matches begun."""
    gate, real, calls = threading.Event(), engine.run_match, []

    def held(*args, **kwargs):
        calls.append(1)
        if len(calls) == number:
            gate.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "run_match", held)
    return gate, calls


def cup_table(path: Path) -> dict:
    return load_project(path).body["tournament"][0]


async def test_entrants_mode_and_seed_are_edited_undone_and_saved(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.press("tab", "down", "j")  # entrants: Greedy Ghosts one down
        await pilot.press("k", "k", "home")  # ... and back up, to the top
        await pilot.press("end", "d")  # remove Idle Imps, the last (end did nothing: the first)
        await pilot.press("a")
        assert isinstance(app.screen, PickDialog)
        await pilot.press("enter")  # the only team not entered: Idle Imps, last now
        await pilot.press("up", "d")  # remove Wandering Wisps
        await pilot.press("tab", "space")  # settings: mode → round robin
        await pilot.press("down", "down", "down", "e")
        assert isinstance(app.screen, ValueDialog)
        app.screen.query_one("Input").value = "42"
        await pilot.press("enter", "down", "down", "right")  # seed 42; past pace: best of 7
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not screen.document.dirty
    table = cup_table(ht_project)
    assert table["entrants"] == ["Greedy Ghosts", "Lookahead Ghouls", "Cautious Creepers",
                                 "Idle Imps"]
    assert table["mode"] == "round-robin" and table["seed"] == 42
    assert load_project(ht_project).body["match"]["rounds"] == 7


async def test_undo_takes_an_edit_back_and_two_entrants_stay(ht_project: Path) -> None:
    set_up(ht_project, entrants=FOUR[:2])
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.press("tab", "d")  # refused: a tournament needs two
        await pilot.press("tab", "space", "space")  # mode: round robin, double round robin
        assert screen.model.tournament_tables[0]["mode"] == "double-round-robin"
        await pilot.press("ctrl+z")  # the two changes of one setting are one edit
        assert screen.model.tournament_tables[0]["mode"] == "single-elimination"
        assert screen.model.tournament_tables[0]["entrants"] == FOUR[:2]


async def test_new_rename_and_delete_tournaments(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.press("n")
        assert app.screen.query_one("Input").value == "Tournament 2"
        await pilot.press("enter")
        assert screen.tournament_name == "Tournament 2" and screen.selected == 1
        await pilot.press("r")
        app.screen.query_one("Input").value = CUP
        await pilot.press("enter")  # taken: the dialog stays with the problem
        assert isinstance(app.screen, ValueDialog)
        # Another case of a name taken: its results would go to the same folder, and a run
        # replaced the other tournament's replays.
        app.screen.query_one("Input").value = CUP.upper()
        await pilot.press("enter")
        assert isinstance(app.screen, ValueDialog)
        assert "replays/built-in-cup/" in str(app.screen.query_one("#problem").render())
        app.screen.query_one("Input").value = "Finale"
        await pilot.press("enter", "up")
        assert screen.tournament_name == CUP
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y", "ctrl+s")
        await pilot.pause()
    tables = load_project(ht_project).body["tournament"]
    assert [t["name"] for t in tables] == ["Finale"]
    assert tables[0]["entrants"][0] == "Lookahead Ghouls"


async def test_a_four_entrant_bracket_runs_to_the_end(ht_project: Path) -> None:
    set_up(ht_project, rounds=3, entrants=FOUR, third_place=True, seed=5)
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.press("enter")
        await finish(pilot, screen)
        results = screen.results
        assert results is not None and results.complete
        assert comparable(results.document) == headless(ht_project)
        columns = results.columns()
        assert [c[0].stage for c in columns] == ["semi-final", "final", "third place"]
        semis, final = columns[0], columns[1][0]
        assert {final.home, final.away} == {semis[0].winner, semis[1].winner}
        champion = results.document["standings"][0]
        assert final.winner == FOUR.index(champion)
        assert [s.rank for s in results.standings()] == [1, 2, 3, 4]
        assert f"finished: {champion} wins" in str(screen.query_one("#status").render())
        assert len(screen.spots) == 4 and all(s.match for s in screen.spots)
        bracket = screen.query_one("#results").text
        assert bracket.splitlines()[0].split() == ["semi-final", "final", "third", "place"]
    assert read_index(tournament_folder(ht_project.parent, CUP))["complete"]


async def test_a_three_entrant_round_robin_shows_standings_with_elo(ht_project: Path) -> None:
    set_up(ht_project, rounds=3, entrants=THREE, mode="round-robin", seed=9)
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.press("enter")
        await finish(pilot, screen)
        document = screen.results.document
        assert comparable(document) == headless(ht_project)
        standings = screen.results.standings()
        assert [s.name for s in standings] == document["standings"]
        assert [round(s.record.elo, 1) for s in standings] == [
            document["ratings"][name] for name in document["standings"]]
        text = screen.query_one("#results").text.splitlines()
        leader = standings[0]
        assert text[1].split()[:2] == ["1", leader.name.split()[0]]
        assert text[1].split()[-1] == f"{leader.record.elo:.0f}"
        assert sum(1 for line in text if " round robin " in line) == 3


async def test_enter_on_a_match_opens_its_replay(ht_project: Path, monkeypatch) -> None:
    set_up(ht_project, rounds=1, entrants=FOUR)
    opened = []

    def fake_make(what, document, **options):
        from textual.screen import Screen

        opened.append((what, options))
        return Screen()

    monkeypatch.setattr("studio.screens.haunted.tournament_run.make", fake_make)
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.press("enter")
        await finish(pilot, screen)
        await pilot.press("shift+tab", "right", "enter")  # results pane: the final
        folder = tournament_folder(ht_project.resolve().parent, CUP)
        final = next(m for m in screen.results.matches if m["stage"] == "final")
        assert opened == [("replay", {"path": folder / final["replay"]})]
        assert final["replay"] == replay_file(folder, 3).name


async def test_cancel_keeps_finished_matches_and_enter_resumes(ht_project: Path,
                                                               monkeypatch) -> None:
    set_up(ht_project, rounds=3)
    gate, calls = hold_match(monkeypatch, 3)  # escape lands while match 3 is being played
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.active_run.progress().done == 2,
                         "the run did not finish matches 1 and 2", timeout=20)
        run = screen.active_run
        await pilot.press("escape")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        # The answer reaches the dialog's worker a moment later: match 3 goes on once cancelled.
        await wait_until(pilot, lambda: run.cancelled, "the run was not cancelled")
        gate.set()
        await finish(pilot, screen)
        assert "cancelled" in str(screen.query_one("#status").render())
        folder = tournament_folder(ht_project.parent, CUP)
        assert [m["number"] for m in read_index(folder)["matches"]] == [1, 2]
        stamp = replay_file(folder, 1).stat().st_mtime_ns
        await pilot.press("enter")  # resumes at once: the same setup, not finished
        await finish(pilot, screen)
        assert comparable(screen.results.document) == headless(ht_project)
        assert replay_file(folder, 1).stat().st_mtime_ns == stamp
        assert len(calls) == 3 + 2 + 4  # match 3 again, then match 4; headless: all four


async def test_x_writes_the_csv_beside_the_project(ht_project: Path) -> None:
    set_up(ht_project, rounds=1)
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.press("enter")
        await finish(pilot, screen)
        await pilot.press("x")
        await pilot.pause()
    folder = ht_project.parent
    with (folder / "haunted-tiles-built-in-cup.csv").open(newline="") as handle:
        table = list(csv.DictReader(handle))
    assert [row["rank"] for row in table] == ["1", "2", "3", "3", "5"]
    assert table[0]["team"] == screen.results.document["standings"][0]
    assert (folder / "haunted-tiles-built-in-cup-matches.csv").read_text().count("\n") == 5


async def test_saved_results_show_when_the_screen_opens(ht_project: Path) -> None:
    run_with_cli(ht_project)
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        assert screen.results is not None and screen.results.complete
        assert "finished" in str(screen.query_one("#status").render())
        await pilot.press("tab", "tab", "down", "down", "down", "right")  # seed 1 → 2
        assert "earlier setup" in str(screen.query_one("#status").render())
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmDialog)  # running replaces the saved results


async def test_worker_processes_run_from_the_hub_while_keys_work(ht_project: Path) -> None:
    """Real sandboxed workers (not in process), opened with t from the hub."""
    set_up(ht_project, rounds=1, entrants=THREE, mode="round-robin", seed=3)
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot, in_process=False)
        assert not screen.in_process
        await pilot.press("enter", "tab")  # a key while the run plays
        assert screen.pane == "entrants"
        await finish(pilot, screen, seconds=60)
        assert screen.results.complete and screen.results.document["standings"]
        assert comparable(screen.results.document) == headless(ht_project)


async def test_the_palette_offers_what_applies_now(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        titles = [title for title, _, _ in screen.palette_commands()]
        assert "Run or resume the tournament" in titles and "New tournament" in titles
        assert "Cancel the run" not in titles and "Export results as CSV" not in titles
        await pilot.press("tab")
        titles = [title for title, _, _ in screen.palette_commands()]
        assert "Add an entrant" in titles and "New tournament" not in titles


async def test_shift_r_runs_afresh_after_asking(ht_project: Path) -> None:
    set_up(ht_project, rounds=1, entrants=FOUR[:2])
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.press("enter")
        await finish(pilot, screen)
        folder = tournament_folder(ht_project.parent, CUP)
        replay_file(folder, 1).unlink()  # as if a file were lost: afresh plays it again
        await pilot.press("R")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        assert not screen.running and not replay_file(folder, 1).exists()
        await pilot.press("R", "y")
        await finish(pilot, screen)
        assert replay_file(folder, 1).exists() and screen.results.complete


async def test_quitting_while_a_tournament_runs_cancels_it(ht_project: Path, monkeypatch) -> None:
    """The run thread must not keep the app alive (or play on) once its screen is gone."""
    gate, calls = hold_match(monkeypatch, 2)
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(calls) == 2, "match 2 did not begin", timeout=20)
        run = screen.active_run
        await pilot.press("q")
        await pilot.pause()
    gate.set()
    assert run is not None and run.cancelled


async def test_the_bracket_keeps_its_round_names_in_view_as_it_scrolls(ht_project: Path) -> None:
    run_with_cli(ht_project)
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        view = screen.query_one("#results")
        stages = view.text.splitlines()[0].split()
        await pilot.press("tab", "tab", "tab", *["down"] * 4)
        await pilot.pause()
        assert view.scroll_y > 0  # the bracket is taller than its pane at 80×24
        assert view.render_line(0).text.split() == stages
        assert set(view.render_line(1).text.strip()) <= {"─", " "}
