"""The three replay viewers share one key set: the same keys do the same things in each."""

from __future__ import annotations

import pytest
from textual.binding import Binding

from studio.screens.btree.replay_viewer import BtreeReplayScreen
from studio.screens.haunted.replay_viewer import ReplayViewerScreen
from studio.screens.replay_keys import SHARED_KEYS, replay_bindings
from studio.screens.tilecode.replay_viewer import ReplayScreen

VIEWERS = (ReplayScreen, BtreeReplayScreen, ReplayViewerScreen)


def keys_by_action(screen: type) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for binding in screen.BINDINGS:
        assert isinstance(binding, Binding)
        out.setdefault(binding.action, set()).update(binding.key.split(","))
    return out


def test_the_three_viewers_bind_every_shared_action_to_the_same_keys() -> None:
    found = [keys_by_action(viewer) for viewer in VIEWERS]
    for action, keys in SHARED_KEYS.items():
        wanted = set(keys.split(","))
        assert [f.get(action) for f in found] == [wanted] * 3, action


@pytest.mark.parametrize("viewer", VIEWERS, ids=lambda v: v.__module__.split(".")[2])
def test_no_extra_key_of_a_viewer_takes_a_shared_key(viewer: type) -> None:
    shared = {key for keys in SHARED_KEYS.values() for key in keys.split(",")}
    for action, keys in keys_by_action(viewer).items():
        if action not in SHARED_KEYS:
            assert not keys & shared, (action, keys & shared)


@pytest.mark.parametrize("viewer", VIEWERS, ids=lambda v: v.__module__.split(".")[2])
def test_every_shared_action_is_implemented(viewer: type) -> None:
    for action in SHARED_KEYS:
        assert callable(getattr(viewer, "action_" + action.split("(")[0], None)), action


def test_an_extra_on_a_shared_key_is_refused() -> None:
    with pytest.raises(ValueError, match="p is a shared replay key"):
        replay_bindings("turn", Binding("p", "pause", "Pause"))


def test_the_haunted_log_still_pages_with_pageup_and_pagedown() -> None:
    # The match layout pages its log with them: the shared keys leave them to it.
    merged = ReplayViewerScreen._merged_bindings.key_to_bindings
    assert [b.action for b in merged["pageup"]] == ["scroll_log(-1)"]
    assert [b.action for b in merged["pagedown"]] == ["scroll_log(1)"]
