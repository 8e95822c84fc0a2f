"""Which workers a cluster run sends matches to (``cluster_dispatch``), without a cluster:
workers looked at as they come, left out with their reason, matches stranded on gone workers."""

from __future__ import annotations

from studio.sessions.haunted.cluster_dispatch import Admission, refusing_worker
from studio.sessions.haunted.match_task import WorkerRefused


class Workers:
    """A cluster's verdicts as :meth:`ClusterPool.verdicts` gives them; counts what was asked."""

    def __init__(self, **why: str) -> None:
        self.why = why
        self.asked: list[list[str] | None] = []

    def verdicts(self, require_confinement: bool, addresses=None) -> dict[str, str]:
        self.asked.append(addresses)
        return {a: w for a, w in self.why.items() if addresses is None or a in addresses}


def test_while_every_worker_fits_matches_go_anywhere() -> None:
    admission = Admission(Workers(a="", b=""), require_confinement=False)
    admission.survey()
    assert admission.workers is None and not admission.none_fit() and admission.left_out() == []


def test_a_worker_that_does_not_fit_is_left_out_and_matches_go_to_the_others() -> None:
    admission = Admission(Workers(a="", b="it has studio 0.1"), require_confinement=False)
    admission.survey()
    assert admission.workers == ["a"]
    assert admission.left_out() == ["worker b: it has studio 0.1"]


def test_new_workers_are_looked_at_once_and_gone_ones_dropped() -> None:
    pool = Workers(a="", b="")
    admission = Admission(pool, require_confinement=False)
    admission.survey()
    admission.refuse("b", "refused match 3")
    pool.why["c"] = ""  # a nanny started a worker again, under a new address
    assert admission.follow({"a", "b", "c"}) and pool.asked[-1] == ["c"]
    assert admission.workers == ["a", "c"]
    assert not admission.follow({"a", "b", "c"}) and len(pool.asked) == 2  # nothing new: no call
    assert admission.follow({"c"}) and admission.workers == ["c"]  # a went away


def test_a_match_whose_allowed_workers_all_went_is_stranded() -> None:
    admission = Admission(Workers(a="", b="old"), require_confinement=False)
    admission.survey()
    assert not admission.stranded(None) and not admission.stranded(["a"])
    admission.follow({"b"})
    assert admission.stranded(["a"]) and admission.none_fit() == (
        "no worker of the cluster can play this tournament: worker b: old")


def test_a_refusal_names_its_worker_and_reads_as_its_message() -> None:
    exc = WorkerRefused("worker tcp://10.0.0.7:4000 refused match 2: busy", "tcp://10.0.0.7:4000")
    assert refusing_worker(exc) == "tcp://10.0.0.7:4000" and str(exc).startswith("worker tcp")
    assert refusing_worker(WorkerRefused("outside a worker")) == ""


def test_the_tournament_screen_says_which_workers_are_left_out_and_why() -> None:
    from types import SimpleNamespace

    from studio.sessions.haunted.cluster import Load, cluster_line

    run = SimpleNamespace(seen=Load(3, 2, 5, 0.5), hosts={"10.0.0.7": (2, 2)},
                          where="tcp://10.0.0.5:8786",
                          left_out=["worker tcp://10.0.0.8:4000: it has studio 0.1"])
    assert cluster_line(run) == (
        "tcp://10.0.0.5:8786: 2 running · 5 queued · 0.50/s · about 14s left · busy/workers "
        "10.0.0.7 2/2 · left out: worker tcp://10.0.0.8:4000: it has studio 0.1")


def test_what_a_hostile_worker_says_of_itself_is_kept_to_one_bounded_line() -> None:
    admission = Admission(Workers(a=""), require_confinement=False)
    admission.survey()
    admission.refuse("tcp://x:1" + "9" * 5000, "it has studio \x1b]0;pwned\x07\n" + "v" * 100_000)
    (line,) = admission.left_out()
    assert len(line) < 700 and "\n" not in line
    assert admission.workers == ["a"]


def test_the_progress_line_estimates_what_is_left_and_nothing_once_done() -> None:
    from studio.sessions.haunted.cluster import Load, progress_line  # noqa: PLC0415

    assert progress_line(Load(8, 2, 5, 0.5), width=4) == (
        "[##--]  8/15 done, 2 running, 5 queued, 0.50 matches/s, about 14s left")
    assert progress_line(Load(0, 2, 13, 0.0), width=4).endswith("0.00 matches/s")
    assert progress_line(Load(15, 0, 0, 0.45), width=4) == (
        "[####] 15/15 done, 0 running, 0 queued, 0.45 matches/s")
