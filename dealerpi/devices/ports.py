"""What DealerPi uses of gpiozero and luma, as Protocols: the typed side of an untyped seam.

gpiozero and luma ship no type information (pyproject.toml's mypy overrides say so), so their classes are
``Any`` to mypy. Every object made from them enters our code through one of these Protocols, which name the
few members we call; a typo or a wrong argument on our side is then a type error. The members follow the
libraries' documented APIs: gpiozero 2.0 ``LED``/``DigitalInputDevice`` (``value``, ``off()``, ``when_activated``,
``close()``: https://gpiozero.readthedocs.io/en/stable/api_output.html, api_input.html) and luma.core's
``device.display(image)`` (https://luma-core.readthedocs.io/en/latest/api-documentation.html).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PIL import Image


class Closeable(Protocol):
    """A gpiozero device or pin factory: releases its pins (and threads) on ``close()``."""

    def close(self) -> None: ...


class Led(Closeable, Protocol):
    """gpiozero ``LED``: ``value`` is True when lit."""

    value: bool

    def off(self) -> None: ...


class Ticks(Protocol):
    """A gpiozero pin factory's clock: ``ticks()``, the time its pins stamp edges with."""

    def ticks(self) -> float: ...


class PushButton(Closeable, Protocol):
    """gpiozero ``DigitalInputDevice`` with the pull-up on (active when pressed): the callbacks run on
    gpiozero's thread, with no arguments as we set them."""

    when_activated: Callable[[], None] | None
    when_deactivated: Callable[[], None] | None
    pin_factory: Ticks

    @property
    def active_time(self) -> float | None: ...    # seconds since the pin's edge to active (None: inactive)

    @property
    def inactive_time(self) -> float | None: ...


class PinFactory(Closeable, Protocol):
    """gpiozero ``Factory`` (``MockFactory``, ``LGPIOFactory``): passed to devices as ``pin_factory``."""


class Screen(Protocol):
    """A luma device (``ssd1306``, ``sh1106``, ``dummy`` and ours in devices.oled): shows one image."""

    def display(self, image: Image.Image) -> None: ...


class MockLine(Protocol):
    """gpiozero ``MockPin``: the fake's side of a line, driven as a finger or read as an LED."""

    @property
    def state(self) -> float: ...

    def drive_low(self) -> None: ...

    def drive_high(self) -> None: ...


class MockPins(PinFactory, Protocol):
    """gpiozero ``MockFactory``: one per fake chip; ``pin(name)`` is the line's ``MockPin``."""

    def pin(self, name: str) -> MockLine: ...
