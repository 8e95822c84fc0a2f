"""The whole suite runs on every core (pytest-xdist); a file, a -k or a node id runs as before.

Loaded by tests/conftest.py. Two jobs:

* ``python3 dev.py test`` with no selection gets ``-n WORKERS --dist worksteal`` (a worker
  more than the cores): the suite is some 3,300 tests of very different lengths, and work
  stealing keeps every core busy up to the end. Anything that narrows the run (a path, ``-k``, ``-m``, a node id), asks for output
  or a debugger (``-s``, ``--pdb``), rewrites snapshots (``--snapshot-update``) or names its
  own ``-n`` (``-n 0``: serial) runs in one process as before: a single file starts at once
  instead of waiting for workers that each import and collect it again.
* syrupy (4.8) leaves out its unused-snapshot check under xdist: each worker sees only its own
  share of the snapshots, and the controller sees none. Without that check a snapshot whose
  test was renamed or deleted would stay unnoticed, which the serial run fails on. Each worker
  here reports the snapshots it used and found, the controller merges them and fails the run
  on one that no test used, as syrupy does in one process. It also prints syrupy's count line.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest

MAX_WORKERS = 8
"""Beyond this the workers (some 600 MB each, each collecting the whole suite) cost more than
they bring on this suite; ``-n N`` asks for more."""

_KEY = "studio_snapshots"


def _worker_count() -> int:
    """One worker more than there are cores: a Pilot test waits for the app to settle after each
    key (Textual's pilot sleeps until the process is idle), about a quarter of its time, and the
    extra worker runs meanwhile. On 2 cores, 3 workers ran the suite in 8.5 min against 10.3."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return min(cores + 1, MAX_WORKERS)


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _narrowed(config: pytest.Config) -> bool:
    """Whether the run selects less than the whole suite, or asks for a single process."""
    option = config.option
    return bool(
        config.args_source is not pytest.Config.ArgsSource.TESTPATHS
        or option.keyword or option.markexpr or getattr(option, "deselect", None)
        or any("::" in arg for arg in config.args)
        or getattr(option, "lf", False) or getattr(option, "failedfirst", False)
        or getattr(option, "stepwise", False) or getattr(option, "stepwise_skip", False)
    )


def _wants_one_process(config: pytest.Config) -> bool:
    option = config.option
    return bool(
        option.usepdb or getattr(option, "trace", False) or option.capture == "no"
        or option.collectonly or getattr(option, "update_snapshots", False)
    )


@pytest.hookimpl(wrapper=True)
def pytest_cmdline_main(config: pytest.Config):
    # A wrapper runs before xdist's own pytest_cmdline_main, which turns -n into workers.
    if (config.pluginmanager.hasplugin("xdist") and not _is_worker(config)
            and getattr(config.option, "numprocesses", "absent") is None
            and not _narrowed(config) and not _wants_one_process(config)):
        workers = _worker_count()
        if workers > 1:
            config.option.numprocesses = workers
            config.option.dist = "worksteal"
    return (yield)


# -- syrupy's unused-snapshot check, across workers ------------------------------------------


def _snapshot_ids(collections) -> list[tuple[str, str]]:
    return sorted({(c.location, s.name) for c in collections for s in c})


class _Merged:
    """The controller's view: the workers' snapshots, and which tests were skipped."""

    def __init__(self) -> None:
        self.used: set[tuple[str, str]] = set()
        self.discovered: set[tuple[str, str]] = set()
        self.counts = {"failed": 0, "passed": 0, "generated": 0, "updated": 0}
        self.skipped: set[str] = set()
        self.reports = 0
        self.unused: list[tuple[str, str]] = []

    def add(self, output: dict) -> None:
        self.reports += 1
        self.used.update(map(tuple, output["used"]))
        self.discovered.update(map(tuple, output["discovered"]))
        for key, count in output["counts"].items():
            self.counts[key] += count

    def find_unused(self) -> list[tuple[str, str]]:
        """Found but used by no worker, less those of skipped tests (kept, as syrupy keeps them)."""
        return sorted((location, name) for location, name in self.discovered - self.used
                      if not any(_skipped_matches(nodeid, location, name)
                                 for nodeid in self.skipped))


def _skipped_matches(nodeid: str, location: str, name: str) -> bool:
    """syrupy's own rule (``PyTestLocation``) for a snapshot that belongs to a skipped test."""
    from syrupy.location import PyTestLocation  # noqa: PLC0415

    file, *parts = nodeid.split("::")
    item = SimpleNamespace(path=Path(file), nodeid=nodeid, name=parts[-1],
                           obj=SimpleNamespace(__module__="", __name__=parts[-1].split("[")[0]))
    found = PyTestLocation(item)  # type: ignore[arg-type]
    return found.matches_snapshot_location(location) and found.matches_snapshot_name(name)


_MERGED = pytest.StashKey[_Merged]()


def pytest_configure(config: pytest.Config) -> None:
    if not _is_worker(config) and getattr(config.option, "numprocesses", None):
        config.stash[_MERGED] = _Merged()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    merged = node.config.stash.get(_MERGED, None)
    output = getattr(node, "workeroutput", {}).get(_KEY)
    if merged is not None and output is not None:
        merged.add(output)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # On the controller this sees the reports of every worker's tests.
    if report.skipped and report.when in ("setup", "call"):
        _SKIPPED.add(report.nodeid)


_SKIPPED: set[str] = set()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    if _is_worker(config):
        # After syrupy's own hook (tryfirst) made this worker's report: hand it over.
        report = getattr(getattr(config, "_syrupy", None), "report", None)
        if report is not None:
            config.workeroutput[_KEY] = {
                "used": _snapshot_ids(report.used),
                "discovered": _snapshot_ids(report.discovered),
                "counts": {"failed": report.num_failed, "passed": report.num_matched,
                           "generated": report.num_created, "updated": report.num_updated},
            }
        return
    merged = config.stash.get(_MERGED, None)
    if merged is None or not merged.reports:
        return
    merged.skipped = set(_SKIPPED)
    if _narrowed(config) or getattr(config.option, "update_snapshots", False):
        return  # a part of the suite (an explicit -n with -k...): as syrupy under xdist, no check
    merged.unused = merged.find_unused()
    if merged.unused and not config.option.warn_unused_snapshots:
        session.exitstatus |= pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    merged = config.stash.get(_MERGED, None)
    if merged is None or not merged.reports:
        return
    counts = ", ".join(f"{n} snapshot{'s' * (n != 1)} {what}"
                       for what, n in merged.counts.items() if n)
    if counts or merged.unused:
        terminalreporter.write_sep("-", "snapshot report summary (all workers)")
    if counts:
        terminalreporter.write_line(counts + ".")
    if merged.unused:
        root = config.rootpath
        terminalreporter.write_line(f"{len(merged.unused)} snapshot(s) unused: no test made them:",
                                    red=True)
        for location, name in merged.unused:
            try:
                shown = Path(location).relative_to(root)
            except ValueError:
                shown = Path(location)
            terminalreporter.write_line(f"  unused {name} ({shown})", red=True)
        terminalreporter.write_line(
            "Re-run pytest with --snapshot-update (one process) to delete unused snapshots.",
            red=True)
