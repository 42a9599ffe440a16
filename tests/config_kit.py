"""A minimal two-seat config on header pins, and helpers to load a variant of it and collect its errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealerpi.config import ConfigError, load

MINIMAL = """
devices = "fake"
journal = "journal.jsonl"

[table]
game = "nlhe"
rules = "home"
seats = 2
blinds = [1, 3]

[[seats]]
seat = 1
buttons = { fold = "GPIO4", call = "GPIO5", bet = "GPIO6" }
leds = { action = "GPIO7", dealer = "GPIO8" }
display = { bus = 1, address = 0x3C }

[[seats]]
seat = 2
buttons = { fold = "GPIO9", call = "GPIO10", bet = "GPIO11" }
display = { bus = 1, address = 0x3D, driver = "sh1106" }

[dealer]
buttons = { start = "GPIO12", exposed = "GPIO13", misdeal = "GPIO16", undo = "GPIO19", confirm = "GPIO20" }
display = { bus = 3, address = 0x3C }
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


def errors_of(tmp_path: Path, text: str) -> list[str]:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load(path)
    return caught.value.errors
