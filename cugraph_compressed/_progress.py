"""Progress of a long build, one line on standard error.

A build of many chunks can take minutes; its passes and chunks are shown once it has run for
:data:`DELAY` seconds, on a terminal only, so short builds, logs and notebooks' captured
output stay clean.  ``progress=True`` / ``False`` (or ``CUGRAPH_COMPRESSED_PROGRESS=1`` / ``0``
in the environment) forces it on or off.
"""
from __future__ import annotations

import os
import sys
import time

ENV = "CUGRAPH_COMPRESSED_PROGRESS"
DELAY = 2.0  # seconds before the first line
INTERVAL = 0.25  # seconds between redraws


class Progress:
    """Reports ``(pass name, chunk)`` steps; :meth:`close` ends the line."""

    def __init__(self, enabled=None, stream=None):
        if enabled is None:
            forced = os.environ.get(ENV, "")
            enabled = forced not in ("", "0") if forced else None
        self.stream = stream or sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
            self.delay = DELAY
        else:
            self.delay = 0.0
        self.enabled = bool(enabled)
        self.start = time.monotonic()
        self.shown = 0.0
        self.width = 0

    def step(self, what: str, chunk: int, chunks: int | None) -> None:
        """Chunk ``chunk`` (0-based) of ``chunks`` (None: not known yet) of pass ``what``."""
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.delay or now - self.shown < INTERVAL:
            return
        self.shown = now
        of = f"/{chunks}" if chunks else ""
        text = f"building graph: {what}, chunk {chunk + 1}{of} ({now - self.start:.0f} s)"
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()
        self.width = len(text)

    def close(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0
