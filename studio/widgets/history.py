"""Undo/redo for every editor: snapshots of an immutable project model, with labels.

The models (a TileCode ``Game``, a behaviour tree, a Haunted Tiles map) are immutable values that
share unchanged parts, so a snapshot is a reference and the history can be unlimited. Widgets are
never recorded: undo restores the model and the screens redraw from it.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

M = TypeVar("M")


@dataclass(frozen=True)
class Entry(Generic[M]):
    """One undoable edit: the model before and after, and what people call it."""

    label: str
    """Shown as "Undo: <label>" (e.g. "paint 3 tiles")."""
    before: M
    after: M
    before_token: int
    after_token: int
    """Tokens name model versions, so "has this been saved?" survives undo and redo."""
    merge_key: Hashable | None = None


class History(Generic[M]):
    """Unlimited undo and redo of model snapshots.

    Edits made while a stroke lasts (a pen-down drag, typing into one field) share a
    ``merge_key`` and collapse into one entry, so one undo takes back the whole stroke.
    """

    def __init__(self, model: M) -> None:
        self._model = model
        self._token = 0
        self._next_token = 1
        self._undo: list[Entry[M]] = []
        self._redo: list[Entry[M]] = []

    @property
    def model(self) -> M:
        return self._model

    @property
    def token(self) -> int:
        """Names the current model version; equal tokens mean the same version."""
        return self._token

    def record(self, label: str, after: M, merge_key: Hashable | None = None) -> Entry[M] | None:
        """Make ``after`` the current model as one undoable edit.

        Args:
            label: what the edit did, in words.
            after: the new model.
            merge_key: when equal to the key of the last edit (and nothing was undone since),
                this edit joins it instead of adding an entry.

        Returns:
            The entry now on top of the undo stack, or None when ``after`` is the current model.
        """
        if after is self._model or after == self._model:
            return None
        token = self._next_token
        self._next_token += 1
        top = self._undo[-1] if self._undo else None
        if merge_key is not None and top is not None and top.merge_key == merge_key \
                and not self._redo and top.after_token == self._token:
            entry = Entry(label, top.before, after, top.before_token, token, merge_key)
            self._undo[-1] = entry
        else:
            entry = Entry(label, self._model, after, self._token, token, merge_key)
            self._undo.append(entry)
        self._redo.clear()
        self._model, self._token = after, token
        return entry

    def end_merge(self) -> None:
        """Close the current stroke: the next edit starts a new entry even with the same key."""
        if self._undo and self._undo[-1].merge_key is not None:
            top = self._undo[-1]
            self._undo[-1] = Entry(top.label, top.before, top.after, top.before_token,
                                   top.after_token, None)

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def undo_label(self) -> str | None:
        return self._undo[-1].label if self._undo else None

    @property
    def redo_label(self) -> str | None:
        return self._redo[-1].label if self._redo else None

    def undo(self) -> Entry[M] | None:
        """Go back one edit; returns it (None when there is nothing to undo)."""
        if not self._undo:
            return None
        entry = self._undo.pop()
        self._redo.append(entry)
        self._model, self._token = entry.before, entry.before_token
        return entry

    def redo(self) -> Entry[M] | None:
        """Re-apply the last undone edit; returns it (None when there is nothing to redo)."""
        if not self._redo:
            return None
        entry = self._redo.pop()
        self._undo.append(entry)
        self._model, self._token = entry.after, entry.after_token
        return entry

    def __len__(self) -> int:
        return len(self._undo)
