"""The one path rule of a served session: every file it reads or writes is inside the served folder.

``studio serve --ssh`` starts each session's studio with the folder it serves (in the argv the
server builds, which no client can touch; see ``studio.ssh.child``), and the child calls
:func:`serve_from` before anything else runs. From then on every reader (``storage.reading``) and
writer (``storage.atomic``, :func:`make_folder`, :func:`create_new`) of the process asks
:func:`inside` first: a path is followed to what it really names, links included, and refused
unless that is within the folder and is none of the server's own files (host key, authorized
keys, roster), wherever those sit. A studio that is not served has no root and the rule lets
every path through, so local use is unchanged.

A check and the open after it are two steps, so where a file is opened the descriptor is checked
again (:func:`verify_open`): a part of the path swapped for a link between the two cannot lead
out. The session's process is also confined by Landlock (the server's side of it), so a mistake
here is not the only wall.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from studio.storage.errors import ProjectError

_state: dict[str, object] = {"root": None, "hidden": frozenset(), "hidden_ids": frozenset(),
                             "readable": (), "guard": None}

Guard = Callable[[Path, bool, bool], str]
"""``guard(real_path, write, folder)``: "" when the session's person may, else why not."""


def serve_from(root: str | Path, hidden: Iterable[str | Path] = (),
               readable: Iterable[str | Path] = ()) -> None:
    """Hold this process to ``root`` from now on; ``hidden``: files never to be reached;
    ``readable``: folders that may be read, never written (the studio's own package, whose
    built-in AIs a session opens read-only).

    Called once, by a served session's first code; a second call may only narrow nothing: it is
    refused, so code running later cannot move the root.
    """
    if _state["root"] is not None:
        raise RuntimeError("this process is already held to a served folder")
    real = Path(os.path.realpath(root))
    names, ids = set(), set()
    for path in hidden:
        names.add(Path(os.path.realpath(path)))
        try:
            info = os.stat(path)
            ids.add((info.st_dev, info.st_ino))  # a hard link inside the folder is the same file
        except OSError:
            pass
    _state.update(root=real, hidden=frozenset(names), hidden_ids=frozenset(ids),
                  readable=tuple(Path(os.path.realpath(folder)) for folder in readable))


def guard_with(guard: Guard) -> None:
    """Let ``guard`` (the session's role, from ``studio.sessions.access``) refuse paths inside
    the folder too; once, after :func:`serve_from`."""
    if _state["root"] is None or _state["guard"] is not None:
        raise RuntimeError("a guard needs a served folder, and there is one guard only")
    _state["guard"] = guard


def served_root() -> Path | None:
    """The served folder this process is held to; None when it is not served."""
    root = _state["root"]
    return root if isinstance(root, Path) else None


def _refuse(given: Path | str, why: str, root: Path) -> ProjectError:
    return ProjectError(f"{given} {why}", file=None,
                        hint=f"a served session reads and writes only in {root.name}/: "
                             "give a path in that folder")


def inside(path: str | Path, what: str = "the file", write: bool = False,
           shown: str | None = None, folder: bool = False) -> Path:
    """``path`` as it really is (links followed), after checking the rule; unchanged when the
    process is not served.

    Args:
        path: what the session typed or the studio built; relative paths start at the working
            folder, as ``open`` would take them.
        what: what the path is, for the message ("the CSV file").
        write: the path is to be written (or created): the read-only folders do not count.
        shown: how to name the path in a refusal (what the person typed); default ``path``.
        folder: the path is a folder the file goes in, not the file itself.

    Raises:
        ProjectError: the path leads outside the served folder (by its path or through a link),
            loops, or names one of the server's own files; the message says which.
    """
    root = served_root()
    given = Path(path)
    if root is None:
        return given
    name = given if shown is None else shown
    absolute = given if given.is_absolute() else Path.cwd() / given
    try:
        real = Path(os.path.realpath(absolute, strict=False))
    except OSError:  # a link loop (strict=False raises it on Python 3.13+ only for loops)
        raise _refuse(name, f"({what}) cannot be followed: its links go round in a loop",
                      root) from None
    if _loops(absolute):
        raise _refuse(name, f"({what}) cannot be followed: its links go round in a loop", root)
    if not real.is_relative_to(root) and not (not write and _readable(real)):
        lexical = Path(os.path.normpath(absolute))
        how = "through a link" if lexical.is_relative_to(root) else "by its path"
        raise _refuse(name, f"is outside the served folder ({how}), so {what} is refused", root)
    if _hidden(real):
        raise _refuse(name, f"is the server's own file, never open to a session, so {what} "
                             "is refused", root)
    guard = _state["guard"]
    if guard is not None:
        why = guard(real, write, folder)  # type: ignore[operator]
        if why:
            raise ProjectError(why, file=Path(name))
    return real


def _readable(real: Path) -> bool:
    return any(real.is_relative_to(folder) for folder in _state["readable"])  # type: ignore[attr-defined]


def _loops(path: Path) -> bool:
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == 40  # ELOOP
    return False


def _hidden(real: Path) -> bool:
    if real in _state["hidden"]:  # type: ignore[operator]
        return True
    try:
        info = os.stat(real)
    except OSError:
        return False
    return (info.st_dev, info.st_ino) in _state["hidden_ids"]  # type: ignore[operator]


def is_hidden(path: str | Path) -> bool:
    """Whether ``path`` is one of the server's own files (a listing leaves those out)."""
    if served_root() is None:
        return False
    return _hidden(Path(os.path.realpath(path)))


def verify_open(fd: int, given: str | Path, what: str = "the file", write: bool = False) -> None:
    """Check, after the open, that descriptor ``fd`` is inside the served folder: the file
    opened is the one checked, even if a part of its path was swapped for a link between.

    Raises:
        ProjectError: it is not (the caller closes ``fd``).
    """
    root = served_root()
    if root is None:
        return
    try:
        opened = Path(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        return  # no /proc: the check before the open and Landlock stand
    allowed = opened.is_relative_to(root) or (not write and _readable(opened))
    if not allowed or _hidden(opened):
        raise _refuse(Path(given), f"changed while it was opened and now leads outside the "
                                   f"served folder, so {what} is refused", root)


def open_file(path: str | Path, flags: int, mode: int = 0o666, what: str = "the file") -> int:
    """``os.open`` under the rule: checked, opened without following a last link (one made after
    the check), and checked again through the descriptor."""
    write = bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC))
    real = inside(path, what, write)
    if served_root() is not None:
        flags |= os.O_NOFOLLOW
    fd = os.open(real, flags, mode)
    try:
        verify_open(fd, path, what, write)
    except BaseException:
        os.close(fd)
        raise
    return fd


def make_folder(path: str | Path, parents: bool = True) -> Path:
    """``mkdir -p`` under the rule; returns the folder (existing is fine)."""
    real = inside(path, "the folder", write=True, folder=True)
    real.mkdir(parents=parents, exist_ok=True)
    return real
