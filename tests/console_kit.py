"""A daemon Controller on fake devices with its local API, for the console's tests (no systemd, no loop)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from daemon_kit import CONFIG

from dealerpi.config import Config, load
from dealerpi.devices import FakeDevices
from dealerpi.journal.file import Journal
from dealerpi.table.api.server import ApiServer
from dealerpi.table.controller import Controller
from dealerpi.table.daemon import open_journal

# seat 1 gets Kd then Qc... in dealing order; tags T00.. name these cards (see FakeDecks)
SHOE = ["Kd", "8c", "5d", "Qc", "9c", "4s", "Jh", "2d", "3c", "7d", "6h", "Td", "Ac", "2c", "7s"]


class FakeDecks:
    """The DeckLibrary interface: tag T00 is SHOE[0], T01 SHOE[1], ..."""

    def card_for(self, uid: str) -> tuple[str, str] | None:
        number = int(uid[1:]) if uid.startswith("T") and uid[1:].isdigit() else -1
        return ("test", SHOE[number]) if 0 <= number < len(SHOE) else None


def make(tmp_path: Path, table_text: str = CONFIG) -> tuple[Config, Controller, ApiServer]:
    """A three-seat table (daemon_kit.CONFIG, or ``table_text``) with ``[console] socket = "run/api.sock"``."""
    path = tmp_path / "table.toml"
    path.write_text(table_text + '\n[console]\nsocket = "run/api.sock"\nstate = "console"\n')
    config = load(path)
    journal, entries = Journal.open(config.journal)
    controller = Controller(config, FakeDevices(config), journal, clock=lambda: 100.0, decks=FakeDecks())
    assert config.console is not None
    api = ApiServer(controller, config.console.socket)
    controller.api = api
    controller.replay(entries)
    return config, controller, api


def journal_lines(config: Config) -> list[dict[str, Any]]:
    return [json.loads(line) for line in config.journal.read_text().splitlines()]


def start(tmp_path: Path, table_text: str = CONFIG, clock: Callable[[], float] = lambda: 100.0,
          wall: Callable[[], float] = time.time) -> tuple[Config, Controller, ApiServer]:
    """As ``dealerpi run`` starts: the journal folder, its newest checkpoint with the API's part restored,
    the inputs after it replayed (``make`` uses a single journal file and no checkpoints)."""
    path = tmp_path / "table.toml"
    path.write_text(table_text + '\n[console]\nsocket = "run/api.sock"\nstate = "console"\n')
    config = load(path)
    journal, recovered, checkpoint = open_journal(config)
    controller = Controller(config, FakeDevices(config), journal, clock=clock, decks=FakeDecks(), wall=wall)
    controller.restore_checkpoint(checkpoint)
    assert config.console is not None
    api = ApiServer(controller, config.console.socket)
    controller.api = api
    if recovered.table is not None:
        api.restore(checkpoint.get("console"))
    controller.replay(recovered.entries, recovered)
    return config, controller, api


CARD_RUN = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][shdc])+(?![A-Za-z0-9])")   # "Kd", and PHH's "8c9c"
PICTURE = re.compile(r"data:image/png;base64,[A-Za-z0-9+/=]*")      # a display's frame (the panel's view)


def cards_in(text: str, wanted: set[str] | list[str]) -> list[str]:
    """The cards of ``wanted`` in ``text``, however written: alone ("Kd") or run together as PHH does; a
    display's picture is left out (its base64 could spell a card by chance)."""
    runs = CARD_RUN.findall(PICTURE.sub("", text))
    return sorted({run[i:i + 2] for run in runs for i in range(0, len(run), 2)} & set(wanted))
