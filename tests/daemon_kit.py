"""A three-seat table config for the daemon's tests (fake devices; paths relative to the config file), and a
controller on it with a settable clock and a deck library of test tags."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from dealerpi.config import Config, DisplayConfig, load
from dealerpi.devices import FakeDevices
from dealerpi.journal.file import FileOps, Journal
from dealerpi.table.controller import Controller

CONFIG = """
devices = "fake"
journal = "state/journal.jsonl"
decks = "decks"

[table]
game = "nlhe"
rules = "home"
seats = 3
blinds = [1, 3]

[input]
debounce_ms = 30

[[seats]]
seat = 1
buttons = { fold = "GPIO4", call = "GPIO5", bet = "GPIO6" }
leds = { action = "GPIO7", dealer = "GPIO8" }
display = { bus = 1, address = 0x3C }

[[seats]]
seat = 2
buttons = { fold = "GPIO9", call = "GPIO10", bet = "GPIO11" }
leds = { action = "GPIO12", dealer = "GPIO13" }
display = { bus = 1, address = 0x3D }

[[seats]]
seat = 3
buttons = { fold = "GPIO14", call = "GPIO15", bet = "GPIO16" }
leds = { action = "GPIO17", dealer = "GPIO18" }
display = { bus = 3, address = 0x3C }

[dealer]
buttons = { start = "GPIO19", exposed = "GPIO20", misdeal = "GPIO21", undo = "GPIO22", confirm = "GPIO23" }
display = { bus = 3, address = 0x3D }
"""


JOURNAL_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")   # a start's "at" (controller.submit)


def untimed(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The inputs without the time a ``start`` is journaled with (checked to be one where it is there), and
    without the identity a new journal's first record gets (issue 20: a random 16-hex-digit id and its time)."""
    assert all(JOURNAL_TIME.fullmatch(e.get("at", "2026-01-01T00:00:00Z")) for e in entries if e.get("type") == "start")
    first = [e for e in entries if "journal" in e]
    assert all(re.fullmatch(r"[0-9a-f]{16}", e["journal"]) and JOURNAL_TIME.fullmatch(e["at"]) for e in first)
    return [{k: v for k, v in e.items() if k not in ("at", "journal")} if e.get("type") == "start" or "journal" in e
            else e for e in entries]


CARDS = ["Ah", "Kd", "7c", "2s", "9h", "Qc", "Jd", "Ts", "3h", "4d", "5c", "6s", "8h"]


class FakeDecks:
    """The shoe helper's DeckLibrary interface: card_for(uid) -> (deck, card) or None."""

    def card_for(self, uid: str) -> tuple[str, str] | None:
        number = int(uid[1:]) if uid.startswith("T") and uid[1:].isdigit() else -1
        return ("test", CARDS[number]) if 0 <= number < len(CARDS) else None


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make(tmp_path: Path, ops: FileOps = os, *, config_text: str = CONFIG) -> tuple[Config, FakeDevices, Controller,
                                                                                 Clock]:
    path = tmp_path / "table.toml"
    path.write_text(config_text)
    config = load(path)
    devices = FakeDevices(config)
    journal, entries = Journal.open(config.journal, ops)
    clock = Clock()
    controller = Controller(config, devices, journal, clock=clock, decks=FakeDecks())
    controller.replay(entries)
    return config, devices, controller, clock


def press(devices: FakeDevices, clock: Clock, pin: Any, hold: float = 0.1) -> None:
    devices.press(pin)
    clock.now += hold
    devices.release(pin)
    clock.now += 0.5


def journal_lines(config: Config) -> list[dict[str, Any]]:
    return [json.loads(line) for line in config.journal.read_text().splitlines()]


def screen(devices: FakeDevices, display: DisplayConfig) -> bytes:
    """The last frame drawn on ``display``, as bytes; fails here (not on ``None``) if nothing was drawn yet."""
    image = devices.image(display)
    assert image is not None, f"nothing drawn on {display}"
    return image.tobytes()
