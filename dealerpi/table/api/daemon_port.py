"""What the socket API needs of the daemon's :class:`~dealerpi.table.controller.Controller`, as a Protocol: the
API is handed the controller, and typed by this shape, it imports none of it (the controller holds the API as
its first observer, ``applied.LocalApi``: each side knows the other only by a Protocol)."""

from __future__ import annotations

import collections
from typing import Any, Protocol

from PIL import Image

from dealerpi.config import Config
from dealerpi.devices import Devices, DisplaySlot
from dealerpi.engine import Outcome, Table
from dealerpi.journal.file import Journal
from dealerpi.journal.folder import JournalFolder
from dealerpi.shoe.health import ShoeHealth
from dealerpi.table.source import TableSource
from dealerpi.views.model import Alert


class Daemon(Protocol):
    """What the API needs of :class:`dealerpi.table.controller.Controller` (which calls it as applied.LocalApi)."""

    table: Table
    alerts: collections.deque[Alert]
    journal: Journal | JournalFolder
    seat_slots: dict[int, DisplaySlot]
    dealer_slot: DisplaySlot
    config: Config
    devices: Devices
    shoe_health: ShoeHealth
    presses: collections.Counter[str]
    dealer_overlay: tuple[Image.Image, float] | None      # (image, until): the pairing code on the dealer display
    announcement: str

    @property
    def journal_fault(self) -> str | None: ...
    @property
    def table_source(self) -> TableSource: ...
    @property
    def pending_table(self) -> dict[str, Any] | None: ...

    def submit(self, entry: dict[str, Any]) -> Outcome: ...
    def queue_table(self, entry: dict[str, Any]) -> Outcome: ...
    def refresh(self) -> None: ...
    def refresh_dealer(self) -> None: ...
    def fault_alert(self) -> Alert | None: ...
    def show_on_dealer(self, image: Image.Image, seconds: float) -> None: ...
