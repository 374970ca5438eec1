"""Progress of a long task, one line on standard error.

A build of many chunks can take minutes; its passes and chunks are shown once it has run for
:data:`DELAY` seconds, on a terminal only, so short builds, logs and notebooks' captured
output stay clean.  ``progress=True`` / ``False`` (or ``CUGRAPH_COMPRESSED_PROGRESS=1`` / ``0``
in the environment) forces it on or off.  The main job reports its steps (generating, building,
timing) on the same line.
"""
from __future__ import annotations

import os
import shutil
import sys
import time

ENV = "CUGRAPH_COMPRESSED_PROGRESS"
DELAY = 2.0  # seconds before the first line
INTERVAL = 0.25  # seconds between redraws


class Progress:
    """Reports ``(what, step)`` steps as ``label: what, unit i/n (elapsed)``; :meth:`close`
    clears the line.

    ``enabled`` None shows it on a terminal only, after ``delay`` seconds; True or False (or
    the environment variable :data:`ENV`) forces it on (at once) or off.  Redraws come at most
    every ``interval`` seconds.
    """

    def __init__(self, enabled=None, stream=None, label="building graph", unit="chunk",
                 delay=DELAY, interval=INTERVAL):
        if enabled is None:
            forced = os.environ.get(ENV, "")
            enabled = forced not in ("", "0") if forced else None
        self.stream = stream or sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
            self.delay = delay
        else:
            self.delay = 0.0
        self.enabled = bool(enabled)
        self.label, self.unit, self.interval = label, unit, interval
        self.start = time.monotonic()
        self.shown = 0.0
        self.width = 0

    def step(self, what: str, chunk: int, chunks: int | None) -> None:
        """Step ``chunk`` (0-based) of ``chunks`` (None: not known yet), doing ``what``."""
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.delay or now - self.shown < self.interval:
            return
        self.shown = now
        of = f"/{chunks}" if chunks else ""
        text = f"{self.label}: {what}, {self.unit} {chunk + 1}{of} ({now - self.start:.0f} s)"
        # A line that wraps cannot be redrawn with a carriage return: keep to the width.
        text = text[:max(20, shutil.get_terminal_size().columns - 1)]
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()
        self.width = len(text)

    def close(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0
