"""One display slot: opened when needed, marked failed on an I/O error, retried; the table goes on.

A seat display that falls off the bus (a kicked cable) must not stop the table. Every error is caught
here, the slot remembers the image it should show, and :meth:`DisplaySlot.poll` reopens it with a capped
backoff. The first failure is a WARNING; repeats are DEBUG, so a flapping display does not fill the log.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from luma.core.error import Error as LumaError
from PIL import Image

from dealerpi.devices.ports import Screen

_LOGGER = logging.getLogger(__name__)

DISPLAY_ERRORS = (OSError, LumaError)   # luma turns EIO into DeviceNotFoundError, which is not an OSError
RETRY_FIRST = 1.0    # seconds
RETRY_MAX = 30.0


class DisplaySlot:
    """A named display made by ``opener``; :meth:`show` never raises for a display that fails."""

    def __init__(self, name: str, opener: Callable[[], Screen], clock: Callable[[], float]) -> None:
        self.name = name
        self._opener = opener
        self._clock = clock
        self.device: Screen | None = None
        self.wanted: Image.Image | None = None
        self.failed = False
        self.failures = 0
        self._retry_at = 0.0

    def show(self, image: Image.Image) -> bool:
        """Show ``image`` if the display works (now or on a due retry); return whether it did."""
        self.wanted = image
        device = self.device
        if device is None:
            if self.failed and self._clock() < self._retry_at:
                return False
            device = self._open()
            if device is None:
                return False
        try:
            device.display(image)
        except DISPLAY_ERRORS as exc:
            self._fail(exc)
            return False
        if self.failed:
            _LOGGER.info("display %s works again after %d failure(s)", self.name, self.failures)
            self.failed, self.failures = False, 0
        return True

    def poll(self) -> bool:
        """Retry a failed display when its backoff has passed; return True if it came back."""
        if not self.failed or self._clock() < self._retry_at or self.wanted is None:
            return False
        return self.show(self.wanted)

    def next_retry(self) -> float | None:
        return self._retry_at if self.failed else None

    def _open(self) -> Screen | None:
        try:
            self.device = self._opener()
        except DISPLAY_ERRORS as exc:
            self._fail(exc)
        return self.device

    def _fail(self, exc: BaseException) -> None:
        self.failures += 1
        level = logging.WARNING if not self.failed else logging.DEBUG
        _LOGGER.log(level, "display %s failed (%s); the table goes on, retrying", self.name, exc)
        self.failed = True
        self.device = None     # reopened on retry: a fresh init sequence and a full frame
        delay = min(RETRY_MAX, RETRY_FIRST * 2 ** min(self.failures - 1, 5))
        self._retry_at = self._clock() + delay
