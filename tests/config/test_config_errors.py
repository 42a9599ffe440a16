"""check-config: every error names the file and the key; a pin used twice is an error (issue 5)."""

from __future__ import annotations

from pathlib import Path

import pytest
from config_kit import MINIMAL, errors_of, write

from dealerpi.config import Pin, load, main


def test_minimal_config_loads(tmp_path: Path) -> None:
    config = load(write(tmp_path, MINIMAL))
    assert config.devices == "fake"
    assert config.table_input() == {"type": "table", "game": "nlhe", "rules": "home", "seats": 2,
                                    "blinds": [1, 3]}
    assert [p.seat for p in config.seats] == [1, 2]
    assert config.seats[0].buttons["bet"] == Pin(None, 6)
    assert dict(config.seats[1].leds) == {}
    assert config.seats[1].display.driver == "sh1106"
    assert config.journal == tmp_path / "journal.jsonl"   # relative to the config file
    assert config.shoe_port == "/dev/dealerpi-shoe"


def test_pin_used_twice_names_both_keys(tmp_path: Path) -> None:
    text = MINIMAL.replace('call = "GPIO10"', 'call = "GPIO5"')
    assert errors_of(tmp_path, text) == [
        f"{tmp_path / 'table.toml'}: seats[1].buttons.call: pin GPIO5 is already used by seats[0].buttons.call"]


def test_pin_given_as_integer_is_the_same_pin(tmp_path: Path) -> None:
    text = MINIMAL.replace('undo = "GPIO19"', "undo = 4")
    assert errors_of(tmp_path, text) == [
        f"{tmp_path / 'table.toml'}: dealer.buttons.undo: pin GPIO4 is already used by seats[0].buttons.fold"]


def test_every_error_is_listed_with_file_and_key(tmp_path: Path) -> None:
    """One error per problem; the [table] section gives the engine parser's first refusal (it stops there), and
    the panels are checked against the seat count only once the engine accepts the table."""
    text = ("bogus = 1\n" + MINIMAL.replace('rules = "home"', 'rules = "vegas"')
            .replace('bet = "GPIO6"', 'bet = "GPIO2"')
            .replace('dealer = "GPIO8"', 'dealer = "GPX8"')
            .replace("address = 0x3D", "address = 0x3C")
            .replace('undo = "GPIO19", ', ""))
    f = tmp_path / "table.toml"
    assert errors_of(tmp_path, text) == [
        f"{f}: bogus: unknown key (expected one of: devices, journal, decks, log_level, table, shoe, expanders, "
        "muxes, seats, dealer, input, console, mqtt, journal_keep)",
        f"{f}: table.rules: unknown rules preset 'vegas': choose one of home, casino, online, tournament",
        f"{f}: seats[0].buttons.bet: GPIO2 is I2C-1 SDA, used by the displays and expanders",
        f"{f}: seats[0].leds.dealer: 'GPX8' is not a pin (write \"GPIO17\", \"x0:5\" or \"x0:GPB3\")",
        f"{f}: seats[1].display.address: 0x3c on the same bus is already used by seats[0].display",
        f"{f}: dealer.buttons.undo: missing",
    ]


def with_expander_x0(text: str) -> str:
    """The config with an MCP23017 "x0" at 0x20 declared before the first seat."""
    return text.replace('[[seats]]\nseat = 1', '''[[expanders]]
name = "x0"
address = 0x20
interrupt = "GPIO21"

[[seats]]
seat = 1''', 1)


def test_expander_pins_and_output_only_lines(tmp_path: Path) -> None:
    text = with_expander_x0(MINIMAL).replace('fold = "GPIO4"', 'fold = "x0:GPB7"')
    text = text.replace('action = "GPIO7"', 'action = "x0:GPA7"').replace('call = "GPIO5"', 'call = "x1:3"')
    f = tmp_path / "table.toml"
    assert errors_of(tmp_path, text) == [
        f"{f}: seats[0].buttons.fold: x0:15 is GPB7, output-only on the MCP23017: use it for an LED",
        f"{f}: seats[0].buttons.call: expander 'x1' is not defined in [[expanders]]",
    ]


def test_expander_lines_parse_both_ways(tmp_path: Path) -> None:
    text = with_expander_x0(MINIMAL).replace('fold = "GPIO4"', 'fold = "x0:GPB3"')
    text = text.replace('call = "GPIO5"', 'call = "x0:11"')
    f = tmp_path / "table.toml"
    assert errors_of(tmp_path, text) == [
        f"{f}: seats[0].buttons.call: pin x0:11 is already used by seats[0].buttons.fold"]


def test_missing_seat_panel_and_mux_channel(tmp_path: Path) -> None:
    text = MINIMAL.replace("seats = 2", "seats = 3").replace(
        "display = { bus = 3, address = 0x3C }", 'display = { mux = "m9", channel = 2 }')
    f = tmp_path / "table.toml"
    assert errors_of(tmp_path, text) == [
        f"{f}: seats: seat 3 has no [[seats]] panel (table.seats = 3)",
        f"{f}: dealer.display.mux: multiplexer 'm9' is not defined in [[muxes]]",
    ]


def test_toml_syntax_error_names_the_file(tmp_path: Path) -> None:
    errors = errors_of(tmp_path, MINIMAL + "\n[table\n")
    assert len(errors) == 1 and errors[0].startswith(f"{tmp_path / 'table.toml'}: TOML syntax: ")


def test_check_config_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, MINIMAL)
    assert main([str(good)]) == 0
    assert capsys.readouterr().out.startswith(f"{good}: OK: nlhe home, 2 seat panels, 13 pins, 3 displays")
    good.write_text(MINIMAL.replace("seats = 2", "seats = 11"))
    assert main([str(good)]) == 1
    err = capsys.readouterr().err
    assert f"{good}: table.seats: \"seats\" must be 2 to 10, not 11" in err
    assert err.endswith(f"{good}: 1 error(s)\n")
    assert main([str(tmp_path / "absent.toml")]) == 1
    assert f"{tmp_path / 'absent.toml'}: cannot read: No such file or directory" in capsys.readouterr().err


def test_table_section_is_checked_by_the_engine_parser(tmp_path: Path) -> None:
    """Games, presets and policies are the engine's (dealerpi.engine.inputs.parse_config); its message
    reaches check-config with the key."""
    errors = errors_of(tmp_path, MINIMAL.replace('game = "nlhe"', 'game = "texas"'))
    assert len(errors) == 1
    assert errors[0].startswith(f"{tmp_path / 'table.toml'}: table.game: \"game\" 'texas' is not a game: "
                                "choose one of nlhe, ")
