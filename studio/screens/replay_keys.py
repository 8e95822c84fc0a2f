"""The keys every replay viewer shares (TileCode, behaviour trees, Haunted Tiles), defined once.

The three viewers had grown three sets: ``p`` played a TileCode replay but stepped a tree
game's back, and ``b`` stepped back in one only. Each viewer now takes these and adds its own
keys (:func:`replay_bindings`), implementing the shared actions: ``play``, ``step(n)``,
``ends(0|1)``, ``go_to``, ``speed(±1)``, ``verify`` and ``back``.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

SHARED_KEYS: dict[str, str] = {
    "play": "space",
    "step(1)": "right,n",
    "step(-1)": "left,p",
    "step(10)": "N",
    "step(-10)": "P",
    "ends(0)": "home",
    "ends(1)": "end",
    "go_to": "g",
    "speed(-1)": "plus,equals_sign",
    "speed(1)": "minus",
    "verify": "v",
    "back": "escape",
}
"""Action → keys, the same in every viewer (a test holds the three to it). Ten steps are the
capitals of one (``pageup``/``pagedown`` page the Haunted log); ``speed(-1)`` is faster: it
shortens the time between steps."""


def replay_bindings(unit: str, *extras: BindingType) -> list[BindingType]:
    """A viewer's bindings: the shared keys, named for what one step is (``round``, ``move``,
    ``turn``), then the viewer's ``extras`` (keys none of the shared ones use), then back.

    Raises:
        ValueError: an extra takes a shared key.
    """
    shared = {key for keys in SHARED_KEYS.values() for key in keys.split(",")}
    for extra in extras:
        keys = extra.key if isinstance(extra, Binding) else extra[0]
        taken = shared.intersection(keys.split(","))
        if taken:
            raise ValueError(f"{', '.join(sorted(taken))} is a shared replay key")
    k = SHARED_KEYS
    return [
        Binding(k["play"], "play", "Play/pause"),
        Binding(k["step(1)"], "step(1)", f"Next {unit}"),
        Binding(k["step(-1)"], "step(-1)", f"Previous {unit}"),
        Binding(k["step(10)"], "step(10)", f"+10 {unit}s", show=False),
        Binding(k["step(-10)"], "step(-10)", f"-10 {unit}s", show=False),
        Binding(k["ends(0)"], "ends(0)", "Start", show=False),
        Binding(k["ends(1)"], "ends(1)", "End", show=False),
        Binding(k["go_to"], "go_to", f"Go to {unit}"),
        Binding(k["speed(-1)"], "speed(-1)", "Faster", key_display="+", show=False),
        Binding(k["speed(1)"], "speed(1)", "Slower", key_display="-", show=False),
        Binding(k["verify"], "verify", "Verify"),
        *extras,
        Binding(k["back"], "back", "Back"),
    ]
