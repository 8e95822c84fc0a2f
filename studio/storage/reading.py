"""Reading a file the studio did not write: a regular file only, never more than a cap.

Every reader of storage and sessions opens files through :func:`read_bounded`, so a FIFO (which
would block for ever), a device (``/dev/zero`` never ends), a dangling link or a folder is an
error at once, and a file larger than its cap is refused before a byte is parsed. The caps are
in :mod:`studio.engines.common.limits`; this module is the I/O around them.
"""

from __future__ import annotations

import json
import os
import stat
import zlib
from pathlib import Path
from typing import Any

from studio.engines.common.limits import (
    MAX_NESTING,
    human_bytes,
    line_of,
    nesting_overflow,
    too_deep,
)
from studio.storage import served
from studio.storage.errors import ProjectError

_CHUNK = 1024 * 1024
_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
          | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))
_ONLY_FILES = "the studio reads regular files only: give the path of a file"


def _what(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _not_a_file(path: Path, mode: int) -> ProjectError:
    if stat.S_ISDIR(mode):
        return ProjectError("this is a folder, not a file", file=path, hint=_ONLY_FILES)
    return ProjectError(f"this is {_what(mode)}, not a regular file", file=path, hint=_ONLY_FILES)


def _too_big(path: Path, size: int | None, cap: int, what: str) -> ProjectError:
    found = f"is {human_bytes(size)}" if size is not None else "keeps growing"
    return ProjectError(f"the file {found}: more than the {human_bytes(cap)} {what} may have",
                        file=path, hint="this is not a file the studio wrote, or it is damaged; "
                                        "see 'Limits on files' in the README")


def _open_regular(path: Path, what: str = "a file") -> int:
    """A descriptor on the regular file at ``path``; anything else is a :class:`ProjectError`,
    and so is a path a served session may not read (:mod:`studio.storage.served`)."""
    real = served.inside(path, what)
    try:
        # stat first: opening a device can do things (rewind a tape) that reading never should.
        mode = os.stat(real).st_mode
        if not stat.S_ISREG(mode):
            raise _not_a_file(path, mode)
        # O_NONBLOCK: should it have become a FIFO, no wait for a writer
        fd = os.open(real, _FLAGS | (os.O_NOFOLLOW if served.served_root() else 0))
    except FileNotFoundError:
        dangling = path.is_symlink()
        raise ProjectError("the link points to a file that does not exist" if dangling
                           else "no such file", file=path, hint="check the path") from None
    except (IsADirectoryError, NotADirectoryError) as exc:
        if isinstance(exc, IsADirectoryError):
            raise ProjectError("this is a folder, not a file", file=path, hint=_ONLY_FILES) from None
        raise ProjectError("no such file (a part of the path is not a folder)", file=path,
                           hint="check the path") from None
    except OSError as exc:
        raise ProjectError(f"cannot read the file: {exc.strerror or exc}", file=path) from None
    try:
        served.verify_open(fd, path, what)
    except ProjectError:
        os.close(fd)
        raise
    return fd


def read_bounded(path: str | Path, cap: int, what: str = "a file") -> bytes:
    """The bytes of the regular file at ``path``, at most ``cap`` of them.

    Args:
        path: the file (a link to a regular file is fine).
        cap: the largest size accepted, from :mod:`studio.engines.common.limits`.
        what: what the file is, for the message ("a project file").

    Raises:
        ProjectError: no such file (or a link to nothing), a folder, a FIFO, a device or a
            socket, a file larger than ``cap``, or an error of the file system; each names the
            file and says what to do.
    """
    path = Path(path)
    fd = _open_regular(path, what)
    try:
        found = os.fstat(fd)  # the file opened, which may not be the one stat saw a moment ago
        if not stat.S_ISREG(found.st_mode):
            raise _not_a_file(path, found.st_mode)
        if found.st_size > cap:
            raise _too_big(path, found.st_size, cap, what)
        chunks, total = [], 0
        while total <= cap:  # st_size may lie (a file being written, /proc): read to the cap only
            chunk = os.read(fd, min(_CHUNK, cap + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > cap:
            raise _too_big(path, None, cap, what)
        return b"".join(chunks)
    except OSError as exc:
        raise ProjectError(f"cannot read the file: {exc.strerror or exc}", file=path) from None
    finally:
        os.close(fd)


def read_head(path: str | Path, size: int) -> bytes:
    """The first ``size`` bytes of the regular file at ``path`` (fewer if it is shorter).

    For telling what a file is without reading all of it: a listing that sniffs every file of a
    folder stays fast whatever their size, and a FIFO or a device is refused as by
    :func:`read_bounded`.
    """
    path = Path(path)
    fd = _open_regular(path)
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):
            raise _not_a_file(path, found.st_mode)
        return os.read(fd, size)
    except OSError as exc:
        raise ProjectError(f"cannot read the file: {exc.strerror or exc}", file=path) from None
    finally:
        os.close(fd)


def gunzip_bounded(data: bytes, cap: int, path: Path | None = None) -> bytes:
    """``data`` uncompressed (every gzip member), refusing to produce more than ``cap`` bytes.

    A gzip "bomb" of 1 MB can unpack to 1 GB: this stops at ``cap`` + 1 bytes, whatever the
    file claims, so it never holds more than that in memory.

    Raises:
        ProjectError: not gzip data, cut short, or more than ``cap`` once uncompressed.
    """
    out: list[bytes] = []
    total = 0
    rest = data
    try:
        while True:
            inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)  # gzip header and trailer
            pending = rest
            while not inflater.eof:
                piece = inflater.decompress(pending, cap + 1 - total)
                out.append(piece)
                total += len(piece)
                if total > cap:
                    raise ProjectError(
                        f"it unpacks to more than {human_bytes(cap)}, the most a replay may have",
                        file=path, hint="this is not a replay the studio wrote (a gzip bomb?)")
                pending = inflater.unconsumed_tail
                if not pending and not piece:
                    break  # all input used, nothing more comes out: the data ends early
            if not inflater.eof:
                raise ProjectError("the gzip data is cut short", file=path,
                                   hint="the file is incomplete: copy it again")
            rest = inflater.unused_data
            if not rest.startswith(b"\x1f\x8b"):
                break  # gzip tools ignore padding after the last member, and so does this
    except zlib.error as exc:
        raise ProjectError(f"not readable gzip data: {exc}", file=path) from None
    return b"".join(out)


def decode_text(data: bytes, path: Path | None, what: str = "the file") -> str:
    """UTF-8 text (a leading BOM dropped); an invalid byte is an error naming its line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ProjectError(f"{what} is not UTF-8 text (byte 0x{data[exc.start]:02x})",
                           file=path, line=line, hint="save it as UTF-8") from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise ProjectError(f"{what} holds a NUL byte: it is binary, not text", file=path,
                           line=line, hint="give the path of a text file")
    return text.removeprefix("\ufeff")


def parse_json(text: str, path: Path | None = None, limit: int = MAX_NESTING) -> Any:
    """Parse JSON text whose nesting is bounded; every failure is a :class:`ProjectError`."""
    deep_at = nesting_overflow(text, "json", limit)
    if deep_at is not None:
        raise nesting_error(path, limit, line=line_of(text, deep_at))
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProjectError(f"JSON syntax error: {exc.msg}", file=path, line=exc.lineno,
                           column=exc.colno, hint="this is not a file the studio wrote, "
                                                  "or it is damaged") from None
    except RecursionError:  # json's C parser raises it cleanly; kept in case the scan gave up
        raise nesting_error(path, limit) from None
    deep = too_deep(document, limit)
    if deep is not None:
        raise nesting_error(path, limit, field_path=deep)
    return document


def nesting_error(path: Path | None, limit: int, line: int | None = None,
                  field_path: tuple[str | int, ...] = ()) -> ProjectError:
    """The error of a file nested deeper than ``limit``; ``field_path`` is cut to its start
    (the branch that goes too deep), as 129 keys would fill the screen."""
    return ProjectError(f"lists and tables nest more than {limit} deep here", file=path,
                        line=line, field_path=field_path[:6],
                        hint="no studio file nests this deep: the file is damaged or hostile")
