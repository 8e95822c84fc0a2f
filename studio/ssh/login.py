"""Who may log in to the SSH server, and as whom: the checks of a client's key.

Without a roster, a key is let in when the authorized_keys file lists it (its ``from="..."``
restrictions honoured; other options have nothing to do here, since a session can only ever run
the studio), and everyone is a teacher. With a roster, only its keys are let in, each as its
person. Either file is read again at every login, so adding a key needs no restart; a file that
cannot be read lets nobody in, and the reason goes to the connection's log line.
"""

from __future__ import annotations

from pathlib import Path

import asyncssh

from studio.storage.errors import ProjectError
from studio.storage.roster import Person, Roster, load_roster


class Gate:
    """One login's key checks: :meth:`begin` reads the files, :meth:`admit` asks about a key."""

    def __init__(self, authorized_keys: Path, roster: Path | None) -> None:
        self.authorized_keys = authorized_keys
        self.roster = roster
        self._keys: asyncssh.SSHAuthorizedKeys | None = None
        self._people: Roster | None = None

    def begin(self) -> str:
        """Read the roster (or the authorized keys); "" or why nobody can log in now."""
        if self.roster is not None:
            try:
                self._people = load_roster(self.roster)
            except ProjectError as exc:
                self._people = None
                return f"no usable roster ({exc})"
            return ""
        try:
            self._keys = asyncssh.read_authorized_keys(str(self.authorized_keys))
        except (OSError, ValueError, asyncssh.KeyImportError) as exc:
            self._keys = None
            return f"no usable authorized_keys ({exc})"
        return ""

    def admit(self, key: asyncssh.SSHKey, host: str) -> tuple[bool, Person | None]:
        """Whether ``key``, from ``host``, may log in, and as whom (None without a roster)."""
        if self.roster is not None:
            person = None if self._people is None else \
                self._people.who(key.get_algorithm(), key.public_data)
            return person is not None, person
        return self._keys is not None and self._keys.validate(key, host, host) is not None, None
