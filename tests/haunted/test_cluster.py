"""Tournaments on Dask (issue 31): a real LocalCluster of worker processes on 127.0.0.1.

Replays are compared byte for byte except what is measured while playing (``created`` and each
answer's ``ms``), which two sequential runs do not share either.
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import sys
import threading
import time
from dataclasses import replace
from importlib.util import find_spec
from pathlib import Path

import pytest

from studio import __version__
from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.replay import without_timings
from studio.engines.haunted.match import MatchConfig
from studio.engines.haunted.tournament import ROUND_ROBIN, SINGLE
from studio.sessions.haunted import cluster, cluster_dispatch, cluster_pool
from studio.sessions.haunted.entrants import resolve_entrant
from studio.sessions.haunted.match_task import WorkerRefused, play_task, task_for
from studio.sessions.haunted.tournament import (TournamentPlan, TournamentRun, feed_file,
                                                read_index, replay_file)
from studio.sessions.haunted.watch import replay_bodies
from studio.storage.errors import ProjectError

needs_dask = pytest.mark.skipif(find_spec("distributed") is None,
                                reason="Dask distributed is not installed (the cluster extra)")
SIX = ("builtin:greedy", "builtin:cautious", "builtin:wander", "builtin:idle",
       "builtin:lookahead", "builtin:hunter")
CONFIG = MatchConfig(rounds=3, max_rounds=6, maps=("Default", "WaffleTown"))
SLOW_AI = '''import time


def main(game_state, side):
    time.sleep(0.4)  # long enough to be killed in the middle of a match
    return ["north" if side == "home" else "south"] * 3
'''


def plan(folder: Path, mode: str = ROUND_ROBIN, entrants=SIX, **more) -> TournamentPlan:
    return TournamentPlan(mode, tuple(entrants), CONFIG, builtin_maps(), 5, name="Cup",
                          replays=folder, in_process_builtins=True, **more)


def replay_text(path: Path) -> str:
    return json.dumps(without_timings(json.loads(gzip.decompress(path.read_bytes()))), indent=1)


def same_run(first: Path, second: Path, scheduled: int) -> None:
    one, two = read_index(first), read_index(second)
    assert one["complete"] and two["complete"]
    for key in ("matches", "byes", "ratings", "standings", "plan"):
        assert one[key] == two[key], key
    assert len(one["matches"]) == scheduled
    for number in range(1, scheduled + 1):
        assert replay_text(replay_file(first, number)) == replay_text(replay_file(second, number))


@pytest.fixture(scope="module")
def pool():
    if find_spec("distributed") is None:
        pytest.skip("Dask distributed is not installed (the cluster extra)")
    with cluster.ClusterPool("local:2") as pool:
        yield pool


@needs_dask
@pytest.mark.parametrize("mode", [ROUND_ROBIN, SINGLE])
def test_local_2_gives_the_sequential_run(tmp_path: Path, pool, mode: str) -> None:
    more = {"third_place": True} if mode == SINGLE else {}
    TournamentRun(plan(tmp_path / "one", mode, **more)).run()
    run = cluster.ParallelRun(plan(tmp_path / "two", mode, **more), pool)
    run.run()
    same_run(tmp_path / "one", tmp_path / "two", run.plan.scheduled)
    assert len({o.worker for o in run.outcomes.values()}) == 2  # both workers played
    fed = [sorted(json.dumps(without_timings(body), sort_keys=True)
                  for body in replay_bodies(feed_file(tmp_path / name)))
           for name in ("one", "two")]
    assert fed[0] == fed[1]  # the same matches, turn by turn, in the order they finished


@needs_dask
def test_resume_plays_only_the_unfinished_matches(tmp_path: Path, pool) -> None:
    whole = tmp_path / "whole"
    TournamentRun(plan(whole)).run()
    cut = tmp_path / "cut"

    def stop_after_three(played) -> None:
        if len(first.outcomes) == 3:
            first.cancel()

    first = cluster.ParallelRun(plan(cut), pool, on_match=stop_after_three)
    with pytest.raises(Exception):  # noqa: B017 - TournamentCancelled
        first.run()
    kept = {m["number"] for m in read_index(cut)["matches"]}
    assert len(kept) >= 3
    again = cluster.ParallelRun(plan(cut), pool, resume=True)
    again.run()
    assert not kept & set(again.outcomes)
    assert kept | set(again.outcomes) == set(range(1, 16))
    same_run(whole, cut, 15)


@needs_dask
def test_a_worker_killed_mid_match_has_its_match_played_elsewhere_once(tmp_path: Path,
                                                                        pool) -> None:
    for name in ("slow_a.py", "slow_b.py"):  # every match has a slow side
        (tmp_path / name).write_text(SLOW_AI)
    entrants = (str(tmp_path / "slow_a.py"), str(tmp_path / "slow_b.py"), "builtin:greedy")
    killed: list[int] = []

    def kill_a_worker_in_the_middle_of_a_match() -> None:
        client = pool.client
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not killed:
            busy = {w: set(keys) for w, keys in client.processing().items() if keys}
            if busy:
                time.sleep(0.5)  # into the match: its AI processes are running
                worker, keys = next(iter(busy.items()))
                if keys & set(client.processing().get(worker, ())):
                    pid = client.run(os.getpid, workers=[worker])[worker]
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
            time.sleep(0.02)

    TournamentRun(plan(tmp_path / "one", entrants=entrants)).run()
    killer = threading.Thread(target=kill_a_worker_in_the_middle_of_a_match)
    run = cluster.ParallelRun(plan(tmp_path / "two", entrants=entrants), pool)
    killer.start()
    run.run()
    killer.join()
    assert killed
    assert all(not o.worker.endswith(f":{killed[0]}") for o in run.outcomes.values())
    numbers = [m["number"] for m in read_index(tmp_path / "two")["matches"]]
    assert sorted(numbers) == [1, 2, 3]
    same_run(tmp_path / "one", tmp_path / "two", 3)
    pool.client.wait_for_workers(2, timeout=30)  # the nanny restarted it for the next tests


def set_version(version: str) -> None:
    """Run on a worker: it now says it is another studio."""
    import studio

    studio.__version__ = version


@needs_dask
def test_a_worker_of_another_studio_version_is_left_out_with_the_reason(tmp_path: Path,
                                                                         pool) -> None:
    first, second = sorted(pool.workers())
    pool.client.run(set_version, "0.0.0-other", workers=[first])
    try:
        run = cluster.ParallelRun(plan(tmp_path / "two", entrants=SIX[:4]), pool)
        run.run()
    finally:
        pool.client.run(set_version, __version__, workers=[first])
    assert run.left_out == [f"worker {first}: it has studio 0.0.0-other, the coordinator "
                            f"{__version__}"]
    assert len({o.worker for o in run.outcomes.values()}) == 1  # all on the other one
    TournamentRun(plan(tmp_path / "one", entrants=SIX[:4])).run()
    same_run(tmp_path / "one", tmp_path / "two", 6)


@needs_dask
def test_with_no_worker_that_fits_the_run_stops_with_each_one_s_reason(tmp_path: Path,
                                                                       pool) -> None:
    workers = sorted(pool.workers())
    pool.client.run(set_version, "0.0.0-other")
    try:
        with pytest.raises(ProjectError) as caught:
            cluster.ParallelRun(plan(tmp_path, entrants=SIX[:3]), pool).run()
    finally:
        pool.client.run(set_version, __version__)
    assert str(caught.value).startswith("no worker of the cluster can play this tournament: ")
    for worker in workers:
        assert f"worker {worker}: it has studio 0.0.0-other" in str(caught.value)
    assert not replay_file(tmp_path, 1).exists()


@needs_dask
def test_a_worker_refusing_matches_itself_is_left_out_and_they_go_elsewhere(
        tmp_path: Path, pool, monkeypatch: pytest.MonkeyPatch) -> None:
    """It changed after the run looked at it (or joined between two looks): each match it
    refuses is sent again, to the workers that fit, and counted once."""
    first = sorted(pool.workers())[0]
    survey = cluster_dispatch.Admission.survey

    def then_change(self, addresses=None) -> None:
        survey(self, addresses)
        pool.client.run(set_version, "0.0.0-changed", workers=[first])

    monkeypatch.setattr(cluster_dispatch.Admission, "survey", then_change)
    try:
        run = cluster.ParallelRun(plan(tmp_path / "two", entrants=SIX[:4]), pool)
        run.run()
    finally:
        pool.client.run(set_version, __version__, workers=[first])
    assert len(run.left_out) == 1 and run.left_out[0].startswith(f"worker {first}: worker ")
    assert "studio version differs" in run.left_out[0]
    assert len({o.worker for o in run.outcomes.values()}) == 1
    assert sorted(m["number"] for m in read_index(tmp_path / "two")["matches"]) == list(
        range(1, 7))


def test_a_task_refuses_another_version_and_missing_confinement(monkeypatch) -> None:
    greedy = resolve_entrant("builtin:greedy", CONFIG, in_process=True)
    task = task_for(4, greedy, greedy, builtin_maps(), CONFIG, 9, "0.0.0-other", in_process=True)
    with pytest.raises(WorkerRefused, match="refused match 4: studio version differs: the "
                                            f"worker has {__version__}, the tournament 0.0.0-other"):
        play_task(task)
    monkeypatch.setattr("studio.engines.haunted.ai.probe.gap", lambda: "no Landlock")
    confined = replace(task, studio_version=__version__, require_confinement=True)
    with pytest.raises(WorkerRefused, match=r"requires confinement .*\(no Landlock\)"):
        play_task(confined)
    assert play_task(replace(confined, require_confinement=False)).replay["seed"] == 9


def test_without_the_extra_cluster_says_how_to_install_it(monkeypatch, capsys) -> None:
    from studio.cli import main

    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    with pytest.raises(ProjectError, match=r"pip install 'tilegame-studio\[cluster\]'"):
        cluster.require_distributed()
    code = main(["tournament", "builtin:greedy", "builtin:idle", "--in-process",
                 "--cluster", "local:2"])
    err = capsys.readouterr().err
    assert code != 0
    assert err.strip().splitlines()[-1].endswith(cluster.MISSING)
    assert len(err.strip().splitlines()) == 1


@needs_dask
def test_studio_workers_lists_a_schedulers_workers(pool, capsys) -> None:
    from studio.cli import main

    assert main(["workers", pool.address]) == 0  # tcp://127.0.0.1:PORT, as a lab would give it
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"scheduler {pool.address}: 2 workers, 2 usable")
    assert all(f"studio {__version__}" in line and line.endswith(": ok") for line in out[1:])


@needs_dask
def test_studio_tournament_cluster_tcp_gives_the_local_json(tmp_path: Path, pool, capsys) -> None:
    from studio.cli import main

    args = ["tournament", *SIX[:4], "--format", "roundrobin", "--rounds", "3", "--seed", "3",
            "--in-process", "--json"]
    assert main([*args, "--replays", str(tmp_path / "here")]) == 0
    here = json.loads(capsys.readouterr().out)
    assert main([*args, "--replays", str(tmp_path / "there"), "--cluster", pool.address]) == 0
    captured = capsys.readouterr()
    there = json.loads(captured.out)
    for key in ("matches", "ratings", "standings"):
        assert here[key] == there[key]
    progress = [line for line in captured.err.splitlines() if line.startswith("[")]
    assert len(progress) == 6 and progress[-1].startswith("[####################] 6/6 done")
    assert "matches/s" in progress[0] and "busy/workers 127.0.0.1" in progress[-1]


@needs_dask
def test_a_local_cluster_s_workers_run_without_dask_s_profiler(pool) -> None:
    def settings() -> tuple:
        import dask

        return (dask.config.get("distributed.worker.profile.enabled"),
                dask.config.get("distributed.admin.system-monitor.interval"))

    assert set(pool.client.run(settings).values()) == {(False, "2s")}


@needs_dask
def test_a_worker_holds_one_match_per_thread_so_none_waits_behind_a_long_one(pool) -> None:
    client = pool.client
    futures = client.map(time.sleep, [0.6] * 6, pure=False)  # all queued at once: a run's are, past twice the threads
    try:
        deadline = time.monotonic() + 20
        held: dict = {}
        while time.monotonic() < deadline and sum(map(len, held.values())) < 2:
            held = client.processing()
            time.sleep(0.05)
        assert sorted(len(keys) for keys in held.values()) == [1, 1], held
    finally:
        client.cancel(futures)


@needs_dask
def test_a_run_keeps_only_as_many_matches_out_as_the_cluster_plays(tmp_path: Path, pool,
                                                                    monkeypatch) -> None:
    most: list[int] = []
    send = cluster_dispatch.Dispatch.send

    def counting(self, item, task) -> None:
        send(self, item, task)
        most.append(len(self.out))

    monkeypatch.setattr(cluster_dispatch.Dispatch, "send", counting)
    TournamentRun(plan(tmp_path / "one")).run()
    run = cluster.ParallelRun(plan(tmp_path / "two"), pool)
    run.run()
    assert len(most) == run.plan.scheduled and max(most) == 2  # the slot a match frees is refilled
    same_run(tmp_path / "one", tmp_path / "two", run.plan.scheduled)


def _memory_limit(dask_worker) -> object:
    return dask_worker.memory_manager.memory_limit


@needs_dask
def test_the_local_cluster_runs_no_memory_monitor(pool) -> None:
    # Each monitor looks at a process's memory every 100 ms: 10% of a 2-core run's matches.
    limits = pool.client.run(_memory_limit)
    assert len(limits) == 2 and not any(limits.values()), limits


def _distributed_log_level() -> int:
    import logging  # noqa: PLC0415 - runs on a worker

    return logging.getLogger("distributed").getEffectiveLevel()


@needs_dask
def test_closing_the_local_cluster_first_quiets_its_workers() -> None:
    import logging  # noqa: PLC0415

    with cluster.ClusterPool("local:1") as own:
        client, ran = own.client, []
        assert set(client.run(_distributed_log_level).values()) != {logging.CRITICAL}
        run = client.run

        def recording(function, *args, **kwargs):
            levels = run(function, *args, **kwargs)
            ran.append((function, run(_distributed_log_level)))
            return levels

        client.run = recording
    assert ran == [(cluster_pool._quiet_shutdown, {next(iter(ran[0][1])): logging.CRITICAL})]


@needs_dask
def test_a_worker_that_does_not_answer_does_not_hold_the_close(monkeypatch) -> None:
    monkeypatch.setattr(cluster_pool, "QUIET_WAIT", 0.5)
    with cluster.ClusterPool("local:1") as own:
        own.client.run = lambda *args, **kwargs: time.sleep(60)  # a worker too busy to answer
        start = time.monotonic()
    assert time.monotonic() - start < 20
