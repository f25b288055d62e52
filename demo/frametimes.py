"""Frame times in bounded memory: the median and the worst frame of a run of any length.

Times go into a histogram of 10-microsecond bins (up to a second; longer
frames share the last bin, and the worst is kept exactly), so ten million
frames cost the same memory as ten.

>>> times = FrameTimes()
>>> for ms in (2.0, 3.0, 40.0):
...     times.add(ms / 1000)
>>> times.summary()
'frame median 3.00 ms worst 40.00 ms'
"""

from __future__ import annotations

from array import array

BIN = 1e-5
"""Seconds per histogram bin (10 µs)."""
BINS = 100_000
"""Bins: up to one second."""


class FrameTimes:
    """Count frame durations (seconds); :meth:`median` and :attr:`worst` in seconds."""

    def __init__(self) -> None:
        self.counts = array("l", bytes(8 * BINS)) if array("l").itemsize == 8 else array("q", bytes(8 * BINS))
        self.count = 0
        self.worst = 0.0

    def add(self, seconds: float) -> None:
        self.counts[min(int(seconds / BIN + 1e-6), BINS - 1)] += 1  # (+1e-6: 0.003 s is bin 300, not 299)
        self.count += 1
        self.worst = max(self.worst, seconds)

    def median(self) -> float:
        """The median frame (to 10 µs: the start of its bin); 0 with no frames."""
        if not self.count:
            return 0.0
        seen, half = 0, (self.count + 1) // 2
        for index, n in enumerate(self.counts):
            seen += n
            if seen >= half:
                return min(index * BIN, self.worst)
        return self.worst  # pragma: no cover - the counts add up to count

    def summary(self) -> str:
        """``frame median X ms worst Y ms``: what the demo's exit line ends with."""
        return f"frame median {self.median() * 1000:.2f} ms worst {self.worst * 1000:.2f} ms"
