"""The example configs match hardware/pinout.md exactly: no pin twice, every seat complete (issue 5)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dealerpi.config import CONSOLE_BUTTONS, Pin, all_pins, load
from dealerpi.journal.folder import folder_for

ROOT = Path(__file__).resolve().parents[2]
PINOUT = ROOT / "hardware" / "pinout.md"


def pinout_rows(section: str) -> list[list[str]]:
    """The table rows (cells) of one ``## `` section of pinout.md."""
    text = PINOUT.read_text()
    body = text.split(f"## {section}", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in body.splitlines():
        if line.startswith("| ") and not line.startswith("| what") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def parse_pin(text: str) -> Pin:
    chip, _, line = text.rpartition(":")
    return Pin(chip or None, int(line)) if chip else Pin(None, int(text.removeprefix("GPIO")))


@pytest.mark.parametrize(("config_name", "section", "seats", "leds"), [
    ("example.toml", "10-seat table", 10, True),
    ("example-6seat.toml", "6-seat table on header pins only", 6, False),
])
def test_example_config_matches_pinout_table(config_name: str, section: str, seats: int, leds: bool) -> None:
    config = load(ROOT / "hardware" / config_name)
    rows = pinout_rows(section)
    table_pins: dict[Pin, str] = {}
    for what, _chip, pin, _physical, _i2c in rows:
        if pin:
            assert parse_pin(pin) not in table_pins, f"{pin} twice in pinout.md"
            table_pins[parse_pin(pin)] = what
    assert table_pins == all_pins(config)

    # every seat is complete: three buttons, both LEDs where the build has them, a display
    assert [panel.seat for panel in config.seats] == list(range(1, seats + 1))
    for panel in config.seats:
        assert sorted(panel.buttons) == ["bet", "call", "fold"]
        assert sorted(panel.leds) == (["action", "dealer"] if leds else [])
    assert sorted(config.dealer.buttons) == sorted(CONSOLE_BUTTONS)

    # displays, expanders and multiplexers: same bus, address and channel as the table says
    i2c = {what: where for what, _c, pin, _p, where in rows if not pin}
    expected = {f"seat {p.seat} display": f"{p.display.mux} channel {p.display.channel} 0x{p.display.address:02X}"
                for p in config.seats}
    expected["dealer display"] = (f"{config.dealer.display.mux} channel {config.dealer.display.channel} "
                                  f"0x{config.dealer.display.address:02X}")
    expected.update({f"expander {e.name}": f"i2c-{e.bus} 0x{e.address:02X}" for e in config.expanders})
    expected.update({f"multiplexer {m.name}": f"i2c-{m.bus} 0x{m.address:02X}" for m in config.muxes})
    assert i2c == expected


def test_pinout_expander_rows_name_the_right_chip_pin() -> None:
    """MCP23017 DIP-28: GPB0-7 are chip pins 1-8, GPA0-7 are chip pins 21-28 (Microchip datasheet)."""
    for _what, _chip, pin, physical, _i2c in pinout_rows("10-seat table"):
        if ":" in pin:
            line = parse_pin(pin).line
            port, number = ("GPA", line) if line < 8 else ("GPB", line - 8)
            chip_pin = 21 + number if port == "GPA" else 1 + number
            assert physical == f"{port}{number}, chip pin {chip_pin}"


def test_no_header_pin_used_for_i2c_or_twice_across_sections() -> None:
    for section in ("10-seat table", "6-seat table on header pins only"):
        header = [parse_pin(pin) for _w, _c, pin, _p, _i in pinout_rows(section) if re.fullmatch(r"GPIO\d+", pin)]
        assert len(header) == len(set(header))
        assert not {Pin(None, 2), Pin(None, 3)} & set(header)


def test_journal_key_names_the_folder_and_the_old_jsonl_reads_the_same(tmp_path: Path) -> None:
    """Issue 23 item 6: the examples' ``journal`` names the folder itself; a config from before, with
    ``journal.jsonl``, still means the same folder (journal_folder.folder_for), so no host's table moves."""
    for name in ("example.toml", "example-6seat.toml"):
        assert load(ROOT / "hardware" / name).journal == Path("/var/lib/dealerpi/journal")
    old = tmp_path / "old.toml"
    old.write_text((ROOT / "hardware" / "example.toml").read_text()
                   .replace('journal = "/var/lib/dealerpi/journal"', 'journal = "/var/lib/dealerpi/journal.jsonl"'))
    assert folder_for(load(old).journal) == folder_for(load(ROOT / "hardware" / "example.toml").journal) \
        == Path("/var/lib/dealerpi/journal")
