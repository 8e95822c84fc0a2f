"""A built-in SSH server on 127.0.0.1 with a free port, a folder of projects and a client key."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

asyncssh = pytest.importorskip("asyncssh", reason="the 'ssh' extra is not installed")
pytest.importorskip("pyte", reason="the test extra's pyte is not installed")

from studio.ssh.server import ServeConfig, StudioSSH  # noqa: E402
from studio.storage import create_project  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture
def client_key():
    return asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    """The folder every session opens: a copy of Hello World and a blank TileCode game."""
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(ROOT / "games" / "hello-world.toml", folder)
    create_project(folder, "tilecode", "Shared")
    return folder


@pytest.fixture
async def make_server(tmp_path: Path, shared: Path, client_key):
    """``await make_server(**config)``: a started server; every one is closed and reaped after."""
    authorized = tmp_path / "authorized_keys"
    authorized.write_bytes(client_key.export_public_key())
    servers: list[StudioSSH] = []

    async def make(**options) -> StudioSSH:
        log: list[str] = []
        config = ServeConfig(folder=shared, authorized_keys=authorized,
                             host_key=asyncssh.generate_private_key("ssh-ed25519"),
                             port=0, log=log.append, **options)
        server = StudioSSH(config)
        server.log = log  # type: ignore[attr-defined]
        await server.start()
        servers.append(server)
        return server

    yield make
    for server in servers:  # ends and reaps every session's process
        await server.close()


def alive(pid: int) -> bool:
    """Whether ``pid`` still exists (a zombie counts as gone: it can only be reaped)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except FileNotFoundError:
        return False
    except OSError:
        return os.path.exists(f"/proc/{pid}")
