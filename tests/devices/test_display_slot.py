"""A display that fails (OSError) is marked failed and retried; the table goes on (issue 5)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from PIL import Image

from dealerpi.config import load
from dealerpi.devices import DisplaySlot, FakeDevices

ROOT = Path(__file__).resolve().parents[2]


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    """Pixel-exact equality of two 1-bit images (ImageChops.difference misreports mode "1")."""
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


def frame(n: int) -> Image.Image:
    image = Image.new("1", (128, 64))
    image.putpixel((n, 0), 1)
    return image


def test_failing_display_is_marked_failed_retried_and_recovers(caplog: pytest.LogCaptureFixture) -> None:
    config = load(ROOT / "hardware" / "example.toml")
    devices = FakeDevices(config)
    where = config.seats[4].display
    now = [100.0]
    slot = DisplaySlot("seat 5", lambda: devices.open_display(where), lambda: now[0])
    assert slot.show(frame(1)) is True

    devices.broken.add(where)                # cable pulled
    with caplog.at_level(logging.DEBUG, logger="dealerpi.devices.display"):
        assert slot.show(frame(2)) is False  # no exception: the table goes on
        assert slot.failed and slot.next_retry() == 101.0
        assert slot.show(frame(3)) is False  # before the retry time: not even tried
        now[0] = 101.0
        assert slot.poll() is False          # retried, still broken: backoff doubles
        assert slot.next_retry() == 103.0
    levels = [r.levelno for r in caplog.records]
    assert levels == [logging.WARNING, logging.DEBUG]

    devices.broken.discard(where)            # cable back
    now[0] = 103.0
    assert slot.poll() is True
    assert not slot.failed
    shown = devices.image(where)
    assert shown is not None and same_pixels(shown, frame(3))
    devices.close()
