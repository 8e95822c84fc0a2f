"""The server's host key: made once (ed25519, mode 0600) in the user's state folder, then reused.

Reusing it matters: clients remember the key, and a new one each start would look like an attack.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import asyncssh

KEY_NAME = "ssh_host_ed25519_key"


class HostKeyError(Exception):
    """The host key cannot be made or used; the message says what to do."""


def state_folder(environ: dict[str, str] | None = None) -> Path:
    """``$XDG_STATE_HOME/studio``, else ``~/.local/state/studio`` (the XDG base-directory rule)."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_STATE_HOME", "")
    # The spec says a relative XDG path is invalid and must be ignored.
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "state"
    return root / "studio"


def default_host_key_path() -> Path:
    return state_folder() / KEY_NAME


def load_or_create(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The private key at ``path``, generated first if there is none; returns (key, created).

    Raises:
        HostKeyError: the file is readable by others, or cannot be read or written.
    """
    path = Path(path)
    if path.exists():
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            # As sshd does: a private key others can read is no longer private.
            raise HostKeyError(f"{path} can be read by other users (mode {mode:o}); "
                               f"run 'chmod 600 {path}' or remove it to make a new one")
        try:
            return asyncssh.read_private_key(str(path)), False
        except (OSError, asyncssh.KeyImportError) as exc:
            raise HostKeyError(f"cannot read the host key {path}: {exc}") from None
    key = asyncssh.generate_private_key("ssh-ed25519", comment="studio host key")
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # O_EXCL: two servers starting at once must not write over each other's key.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return load_or_create(path)
    except OSError as exc:
        raise HostKeyError(f"cannot write the host key {path}: {exc.strerror}") from None
    with os.fdopen(fd, "wb") as handle:
        handle.write(key.export_private_key())
    path.with_name(path.name + ".pub").write_bytes(key.export_public_key())
    return key, True


def fingerprint(key: asyncssh.SSHKey) -> str:
    """``SHA256:…``, as ``ssh`` shows it when it asks whether to trust a host."""
    return key.get_fingerprint("sha256")
