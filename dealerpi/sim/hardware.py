"""The simulator's parts as the table daemon takes them (:class:`dealerpi.table.virtual.VirtualHardware`).

The daemon imports no simulator (issue 22); the shell hands it this object for ``dealerpi sim`` and
``dealerpi run --fake``. Each part is imported when it is made, so a daemon on real devices loads none of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from dealerpi.config import Config
from dealerpi.devices import Devices
from dealerpi.engine import Table
from dealerpi.input import DealerConsole
from dealerpi.shoe.decks import DeckLibrary
from dealerpi.table.virtual import Panel, VirtualShoe


class SimHardware:
    """The virtual shoe (a pty), the simulator's decks, the panel and its dealer console."""

    def shoe(self) -> VirtualShoe:
        from dealerpi.sim.fake_shoe import FakeShoe

        return FakeShoe()

    def decks(self) -> DeckLibrary:
        from dealerpi.sim.deck import sim_library

        return sim_library()

    def panel(self, config: Config, devices: Devices, table: Callable[[], Table], *, shoe: VirtualShoe | None,
              deck_rng: random.Random | None) -> Panel | None:
        from dealerpi.sim.fake_shoe import FakeShoe
        from dealerpi.sim.panel import make_panel

        fake_shoe = shoe if isinstance(shoe, FakeShoe) else None
        return make_panel(config, devices, table, shoe=fake_shoe, deck_rng=deck_rng)

    def dealer_console(self, is_public: Callable[[str], bool]) -> DealerConsole:
        from dealerpi.sim.panel import PanelConsole

        return PanelConsole(is_public)
