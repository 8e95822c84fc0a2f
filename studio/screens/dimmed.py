"""Keys that are offered dimmed ("not now") and say why when pressed.

A key that cannot act at the moment (play a game with errors, add a child to a leaf) is shown
dimmed in the footer and in ``?``; pressed, it must say why rather than do nothing. Textual runs
no action for a dimmed binding and goes on to the next binding of the same key, so each explained
key gets a hidden second binding that tells the reason. A screen lists the actions it explains in
``EXPLAINED`` and answers :meth:`DimmedKeys.why_not`; the rest is done here, once.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.actions import parse
from textual.binding import Binding

EXPLAIN = "explain_dimmed"


class DimmedKeys:
    """Mixin for a :class:`~textual.screen.Screen`: ``EXPLAINED`` actions are dimmed while
    :meth:`why_not` gives a reason, and their keys then tell it."""

    EXPLAINED: ClassVar[tuple[str, ...]] = ()
    """Actions of this class's own BINDINGS, written as there (``"add('last')"``)."""
    _explained_calls: ClassVar[frozenset[tuple[str, tuple[object, ...]]]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        explained = cls.__dict__.get("EXPLAINED", ())
        if explained:
            own = list(cls.__dict__.get("BINDINGS", ()))
            keys = {binding.action: binding.key for binding in own if isinstance(binding, Binding)}
            missing = [action for action in explained if action not in keys]
            if missing:
                raise TypeError(f"{cls.__name__}.EXPLAINED names actions without a binding of "
                                f"its own: {', '.join(missing)}")
            # After the real bindings: Textual tries a key's bindings in order.
            cls.BINDINGS = own + [Binding(keys[action], f"{EXPLAIN}({action!r})", "", show=False)
                                  for action in explained]
        # check_action runs for every key at every footer refresh: parse once, here.
        cls._explained_calls = frozenset(
            parse(action)[1:] for klass in cls.__mro__
            for action in klass.__dict__.get("EXPLAINED", ()))
        super().__init_subclass__(**kwargs)

    def why_not(self, action: str, parameters: tuple[object, ...]) -> str | None:
        """Why ``action`` cannot act now (shown when its key is pressed), or None when it can."""
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == EXPLAIN:  # reached only when the key's own binding was dimmed
            return self._reason(*parameters) is not None
        if (action, parameters) in self._explained_calls and \
                self.why_not(action, parameters) is not None:
            return None
        return super().check_action(action, parameters)  # type: ignore[misc]

    def action_explain_dimmed(self, action: str) -> None:
        reason = self._reason(action)
        if reason:
            self.notify(reason, severity="warning", timeout=4)  # type: ignore[attr-defined]

    def _reason(self, written: object) -> str | None:
        _, name, arguments = parse(str(written))
        return self.why_not(name, arguments)
