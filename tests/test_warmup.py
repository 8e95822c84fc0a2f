"""Warm-ups: a module a screen may need soon is imported on a background thread, once."""

from __future__ import annotations

import sys
import time

from studio.sessions import warmup


def test_preload_imports_a_module_once_off_the_calling_thread(tmp_path, monkeypatch) -> None:
    (tmp_path / "slow_to_import.py").write_text(
        "import threading\nIMPORTED_ON = threading.current_thread().name\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "slow_to_import", raising=False)
    started = []
    thread = warmup.threading.Thread

    def counted(*args, **kwargs):
        started.append(kwargs.get("name"))
        return thread(*args, **kwargs)

    monkeypatch.setattr(warmup.threading, "Thread", counted)
    warmup.preload("slow_to_import")
    warmup.preload("slow_to_import")  # already under way: no second thread
    warmup.preload("sys")  # imported long ago: nothing to do
    assert started == ["preload slow_to_import"]
    end = time.monotonic() + 10
    while "slow_to_import" not in sys.modules or not hasattr(sys.modules["slow_to_import"],
                                                             "IMPORTED_ON"):
        assert time.monotonic() < end, "the module was never imported"
        time.sleep(0.01)
    assert sys.modules["slow_to_import"].IMPORTED_ON == "preload slow_to_import"
    assert "slow_to_import" in warmup._preloaded


def _plant_studio(folder) -> None:
    """A ``studio`` package someone left in a shared folder: importing it leaves a mark."""
    planted = folder / "studio"
    planted.mkdir()
    (planted / "__init__.py").write_text(
        f"open({str(folder / 'PLANTED-RAN')!r}, 'w').write('the planted studio ran')\n")


def test_a_warm_up_never_runs_a_studio_package_left_in_the_working_folder(tmp_path, monkeypatch) -> None:
    """The warm-up process used to put its working folder first on its path: a studio opened in
    a shared folder (``cd class; studio .``) ran whatever ``studio`` package someone had left
    there, as the person at the keyboard, on the first solve."""
    _plant_studio(tmp_path)
    monkeypatch.chdir(tmp_path)
    process = warmup._start("studio.engines.jit")  # any studio module: the import is the attack
    assert process is not None and process.wait(timeout=120) == 0
    assert not (tmp_path / "PLANTED-RAN").exists()
