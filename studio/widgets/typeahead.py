"""Type-ahead: keys typed in a burst are handled one after another, each on the screen the one
before it left.

Textual reads a key, puts it in the focused widget's queue and reads the next at once; a key
that is a binding comes back to the app to run its action only after every key already read
was handed out. So in a burst (a fast typist, a paste without bracketed paste, keys bunched by
SSH) "n" then a name gave the name to the home screen's table instead of the new-project dialog
"n" opened (and a letter that is also an app key, "q" or "t", quit or changed the theme); keys
typed after a choice that opens a second dialog (add a team: pick "file", then a form) reached
the screen below while the form was on its way, and ran its actions.

:class:`TypeAhead` (mixed into the app) hands a key on only when

- the key before it is done: a marker sent after it through the focused widget and each of its
  ancestors up to the app (the way a key and the messages it causes bubble) has come back,
  twice, the second time to cover what the key's action posted;
- a screen it pushed has mounted, with its focus in place;
- a flow (a worker on the event loop) it started, or one that gets a dialog's answer, has shown
  its next screen or ended.

No wait lasts longer than :data:`PATIENCE` looks. A character typed into a text field is handed
on at once (the field takes it; nothing can happen in between), so typing costs nothing more.
"""

from __future__ import annotations

from time import monotonic
from typing import Any
from weakref import WeakKeyDictionary, WeakSet

from textual import events
from textual.app import App
from textual.dom import DOMNode
from textual.screen import Screen
from textual.worker import NoActiveWorker, Worker, get_current_worker

from studio.widgets.footer import is_text_field

DROP_AFTER_CLOSE = 0.7
"""Seconds after a question closed by itself during which typed keys are dropped: they were
answers to it, and would act on the screen below (a tab and enter after "Stop the tournament?"
closed with the tournament opened a replay)."""

POLL = 0.01
"""Seconds between looks while a key waits on a screen or a flow (they send no word)."""

PATIENCE = 50
"""Looks a key waits before it is handed on regardless (a marker lost with a screen that
closed, a screen that focuses nothing, a flow that keeps working): half a second on a free event
loop. Counted in looks, not seconds, so that a loop held up (a slow screen's mount, a garbage
collection, a loaded machine) does not count against the wait: a clock ran out there, and the
rest of a burst went to the screen below (a "q" in a new project's name quit the studio)."""

HELD = (events.Key, events.Paste)


class TypeAhead(App):
    """Hand typed keys on in order, each after the one before it is done."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._held: list[events.Event] = []
        self._in_flight: events.Event | None = None
        """The key handed on last, until its markers are back."""
        self._workers_before: set[Worker] = set()
        self._flows: list[Worker] = []
        """Flows to wait for: started by the last key, or given a dialog's answer."""
        self._arriving: Screen | None = None
        """A screen pushed whose focus is not in place yet."""
        self._settled: WeakSet[Screen] = WeakSet()
        self._settling: WeakSet[Screen] = WeakSet()
        self._awaited_by: WeakKeyDictionary[Screen, Worker] = WeakKeyDictionary()
        """Dialogs shown by a flow that waits for their answer."""
        self._shown_by: WeakSet[Worker] = WeakSet()
        """Flows that have shown a screen: what a key waits for then is that screen."""
        self._patience = 0
        """Looks left before the key waiting now is handed on regardless."""
        self._drop_until = 0.0
        """Until when typed keys are dropped (a question closed by itself)."""
        self._poll_due = False

    # What keys wait for.

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any:
        result = super().push_screen(screen, *args, **kwargs)
        if isinstance(screen, Screen):
            try:
                flow = get_current_worker()
            except NoActiveWorker:
                pass
            else:
                self._shown_by.add(flow)
                if kwargs.get("wait_for_dismiss"):
                    self._awaited_by[screen] = flow
            self._flows = []  # a flow that shows a screen has done its part
            self.expect_screen(screen)
        return result

    def expect_screen(self, screen: Screen) -> None:
        """Keys typed from now on wait until ``screen`` is in place (mounted, its focus set), as
        they do for a screen pushed; for a screen shown otherwise (the app's first)."""
        self._arriving = screen
        self._patience = PATIENCE
        self.call_later(self._watch_arrival)

    def pop_screen(self) -> Any:
        stack = self.screen_stack
        screen = stack[-1] if stack else None
        result = super().pop_screen()
        flow = self._awaited_by.pop(screen, None) if screen is not None else None
        if flow is not None and not flow.is_finished:
            # The answer goes to the flow: what is typed next waits until it has acted on it
            # (shown its next dialog, or made its edit and ended).
            self._flows.append(flow)
            self._patience = PATIENCE
        return result

    def _waiting(self) -> bool:
        """Whether the next key must wait (forgetting whatever it no longer waits on)."""
        if self._patience <= 0:
            self._in_flight = self._arriving = None
            self._flows = []
            return False
        if self._in_flight is not None:
            return True
        self._flows = [flow for flow in self._flows if not flow.is_finished]
        if self._flows:
            return True
        top = self.screen
        if self._arriving is not None:
            if top is self._arriving and top not in self._settled:
                if top.is_mounted and top not in self._settling:
                    # Its on_mount's focus() is queued on the app ahead of this.
                    self._settling.add(top)
                    self.call_later(self._settle, top)
                return True
            self._arriving = None
        return False

    def _watch_arrival(self) -> None:
        """Settle a screen as soon as it is in place, so a key typed after it has shown (not in
        the burst that opened it) is handed on without a wait."""
        screen = self._arriving
        if screen is None or screen in self._settled or screen in self._settling:
            return
        self._waiting()  # settles the screen once it is mounted
        if screen not in self._settling and self._arriving is screen:
            self.set_timer(POLL, self._watch_arrival)

    def _settle(self, screen: Screen) -> None:
        self._settled.add(screen)
        if self._held:
            self.call_later(self._hand_on)

    # Handing keys on.

    @property
    def keys_waiting(self) -> int:
        """Keys read and not yet handed on (the terminal driver stops reading beyond a few)."""
        return len(self._held)

    def question_closed(self) -> None:
        """A question closed by itself (its matter settled): keys typed just now are dropped."""
        self._held.clear()
        self._drop_until = monotonic() + DROP_AFTER_CLOSE

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, HELD) and not event.is_forwarded:
            if monotonic() < self._drop_until:
                return
            self._held.append(event)
            await self._hand_on()
            return
        await super().on_event(event)

    async def _hand_on(self) -> None:
        if not self.screen_stack:  # closing: no one to hand keys to
            self._held.clear()
            return
        while self._held and not self._waiting():
            event = self._held.pop(0)
            typed = (isinstance(event, events.Key) and event.is_printable
                     and is_text_field(self.focused))
            if not typed:
                self._in_flight = event
                self._workers_before = set(self.workers)
                self._patience = PATIENCE
            await super().on_event(event)
            if event is self._in_flight:
                self._lap(self.focused or self.screen, (event, 1))
        if self._held:
            self._poll()

    def _lap(self, node: DOMNode | None, token: tuple[events.Event, int]) -> None:
        """Send the marker ``token`` through ``node``'s queue, then its parent's, to the app."""
        while node is not None and node is not self:
            if node.call_later(self._lap, node.parent, token):
                return
            node = node.parent  # closed (a screen that went): on to the next
        self.call_later(self._lap_back, token)

    def _lap_back(self, token: tuple[events.Event, int]) -> None:
        event, lap = token
        if event is not self._in_flight:
            return
        if lap == 1:  # the key is handled; once more for what its action posted
            self._lap(self.focused or self.screen, (event, 2))
            return
        self._in_flight = None
        # A flow the key started that has already shown its screen (a question it now waits on)
        # is not waited for: the screen is, as push_screen arranged.
        self._flows += [worker for worker in self.workers
                        if worker not in self._workers_before and not worker._thread_worker
                        and not worker.is_finished and worker not in self._flows
                        and worker not in self._shown_by]
        self._workers_before = set()
        if self._held:
            self.call_later(self._hand_on)

    def _poll(self) -> None:
        if not self._poll_due:
            self._poll_due = True
            self.set_timer(POLL, self._polled)

    async def _polled(self) -> None:
        self._poll_due = False
        self._patience -= 1
        await self._hand_on()
