"""A progress line on stderr: redrawn in place on a terminal, a line each time elsewhere (a log
file, CI), so a long run shows one bar rather than hundreds of lines, and a log keeps them all."""

from __future__ import annotations

import shutil
import sys
from typing import TextIO

from studio.engines.common.inert import inert


ERASE = "\r\x1b[K"
"""Back to the line's start, and the line cleared."""


class ProgressLine:
    """``show`` the run's state; ``clear`` before printing anything else on the same terminal."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        try:
            self.live = self.stream.isatty()
        except (AttributeError, ValueError):
            self.live = False
        self.shown = False

    def show(self, text: str) -> None:
        text = inert(text)  # worker hosts and reasons come from the cluster, names from projects
        if not self.live:
            print(text, file=self.stream, flush=True)
            return
        # Cut to the width: a line that wraps cannot be drawn over with a carriage return.
        width = max(10, shutil.get_terminal_size().columns - 1)
        self._control(ERASE)
        self.stream.write(text[:width])
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self._control(ERASE)
            self.stream.flush()
            self.shown = False

    def _control(self, sequence: str) -> None:
        # The CLI's stderr shows control characters as escapes (studio.cli.InertStream): its
        # write_control passes our own through.
        getattr(self.stream, "write_control", self.stream.write)(sequence)

    def end(self) -> None:
        """The last state stays on screen, and what follows starts on a line of its own."""
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
            self.shown = False
