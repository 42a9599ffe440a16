"""What a simulator hands the table daemon: a virtual shoe, its decks and the virtual-hardware panel.

Issue 22: the daemon imports no simulator. ``dealerpi sim`` and ``dealerpi run --fake`` (the shell,
:mod:`dealerpi.cli`) pass :class:`dealerpi.sim.hardware.SimHardware`, which has this shape; on the Pi nothing is
passed and none of it exists (the ``panel`` role is refused: real devices have no virtual panel).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from dealerpi.config import Config, Pin
from dealerpi.devices import Devices
from dealerpi.engine import Table
from dealerpi.input import DealerConsole
from dealerpi.shoe.decks import DeckLibrary


class VirtualShoe(Protocol):
    """A shoe at the far end of the daemon's real shoe link (a pty): ``url`` is what the link opens."""

    url: str

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class Panel(Protocol):
    """The virtual hardware the socket's ``panel`` role operates: buttons to press, cards to deal."""

    on_change: Callable[[], None]

    def resume(self, entries: Iterable[Mapping[str, Any]]) -> None: ...

    def follow(self) -> None: ...

    def view(self) -> dict[str, Any]: ...

    def pin(self, where: object, name: object) -> Pin | None: ...

    def press(self, pin: Pin) -> None: ...

    def release(self, pin: Pin) -> None: ...

    def deal(self, card: str | None, after: object) -> str | None: ...

    def shuffle(self) -> str | None: ...


class VirtualHardware(Protocol):
    """The simulator's parts, made when the daemon starts on fake devices."""

    def shoe(self) -> VirtualShoe: ...

    def decks(self) -> DeckLibrary: ...

    def panel(self, config: Config, devices: Devices, table: Callable[[], Table], *, shoe: VirtualShoe | None,
              deck_rng: random.Random | None) -> Panel | None: ...

    def dealer_console(self, is_public: Callable[[str], bool]) -> DealerConsole: ...
