"""A plain-text progress bar for long commands (``batch``, ``stats``)."""

from __future__ import annotations

import sys
import time
from typing import IO, Optional

__all__ = ["Progress"]


class Progress:
    """A plain-text progress bar on a stream (stderr by default).

    On a terminal it redraws one line (at most ten times a second); anywhere
    else it prints a line at every tenth of the way, so logs stay short.

    >>> import io
    >>> out = io.StringIO()
    >>> bar = Progress(4, label="demo", stream=out, width=8)
    >>> bar.advance(2); bar.advance(2); bar.close()
    >>> print(out.getvalue().strip().splitlines()[-1])
    demo [########] 4/4 100%
    """

    total: int
    label: str
    width: int
    stream: IO[str]
    done: int
    started: float
    interactive: bool

    def __init__(self, total: int, *, label: str = "", stream: Optional[IO[str]] = None,
                 enabled: bool = True, width: int = 30) -> None:
        self.total, self.label, self.width = total, label, width
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.done = 0
        self.started = time.monotonic()
        self._drawn_at = 0.0
        self._tenths = 0
        isatty = getattr(self.stream, "isatty", None)
        self.interactive = bool(isatty and isatty())

    def advance(self, count: int = 1) -> None:
        """Count ``count`` more items done and redraw when due."""
        self.done += count
        if not self.enabled:
            return
        if self.interactive:
            now = time.monotonic()
            if now - self._drawn_at >= 0.1 or self.done >= self.total:
                self._drawn_at = now
                self.stream.write("\r" + self._line())
                self.stream.flush()
        else:
            tenths = self.done * 10 // max(self.total, 1)
            if tenths > self._tenths:
                self._tenths = tenths
                self.stream.write(self._line() + "\n")
                self.stream.flush()

    def _line(self) -> str:
        filled = self.width * self.done // max(self.total, 1)
        bar = "#" * filled + "-" * (self.width - filled)
        percent = 100 * self.done // max(self.total, 1)
        elapsed = time.monotonic() - self.started
        rate = f"  {self.done / elapsed:,.0f}/s" if self.interactive and elapsed > 0 else ""
        return f"{self.label} [{bar}] {self.done}/{self.total} {percent}%{rate}".lstrip()

    def close(self) -> None:
        """End the bar's line (on a terminal)."""
        if self.enabled and self.interactive:
            self.stream.write("\n")
            self.stream.flush()
