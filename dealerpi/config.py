"""The table's one TOML config: load it, validate it, and name the file and key of every error.

``dealerpi check-config FILE`` runs :func:`main`. The file format is documented in ``hardware/example.toml``
(a 10-seat table on MCP23017 expanders and TCA9548A multiplexers) and ``hardware/example-6seat.toml``
(header pins only); ``hardware/pinout.md`` is the same wiring as a table.

A pin is written ``"GPIO17"`` (or ``17``) for a header pin, numbered as the Pi's GPIO (BCM) lines, or
``"x0:5"`` / ``"x0:GPA5"`` / ``"x0:GPB3"`` for line 5 (or port A bit 5, port B bit 3 = line 11) of the
expander named ``x0`` in ``[[expanders]]``. Every error is collected, so one run lists them all.
"""

from __future__ import annotations

import argparse
import logging
import math
import re
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dealerpi.engine import InputError, Preset, parse_config
from dealerpi.wire.broker import MqttSettings, parse_mqtt
from dealerpi.wire.limits import LimitError, read_toml

_LOGGER = logging.getLogger(__name__)

DEFAULT_PATH = Path("/etc/dealerpi/dealerpi.toml")

HEADER_LINES = range(0, 28)           # GPIO0..GPIO27 on the 40-pin header
I2C1_LINES = {2: "I2C-1 SDA", 3: "I2C-1 SCL"}   # the displays' and expanders' bus: never a button or LED
EXPANDER_LINES = range(0, 16)         # MCP23017: GPA0-7 = lines 0-7, GPB0-7 = lines 8-15
EXPANDER_OUTPUT_ONLY = (7, 15)      # GPA7, GPB7: output-only on current MCP23017 silicon (DS20001952C)
EXPANDER_ADDRESSES = range(0x20, 0x28)
MUX_ADDRESSES = range(0x70, 0x78)
MUX_CHANNELS = range(0, 8)            # TCA9548A
DISPLAY_ADDRESSES = (0x3C, 0x3D)      # SSD1306 / SH1106 modules
DISPLAY_DRIVERS = ("ssd1306", "sh1106")
SEAT_BUTTONS = ("fold", "call", "bet")
SEAT_LEDS = ("action", "dealer")
CONSOLE_BUTTONS = ("start", "exposed", "misdeal", "undo", "confirm")
RULE_PRESETS = tuple(Preset)   # rules-digest.md, "Decisions"
MAX_SEATS = 10


class ConfigError(ValueError):
    """The config is invalid; ``errors`` holds one ``FILE: key: message`` line per problem."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = errors


@dataclass(frozen=True, order=True)
class Pin:
    """One GPIO line: ``chip`` is None for the Pi's header, else the name of an ``[[expanders]]`` entry."""

    chip: str | None
    line: int

    def __str__(self) -> str:
        return f"GPIO{self.line}" if self.chip is None else f"{self.chip}:{self.line}"


@dataclass(frozen=True)
class Expander:
    """An MCP23017 on I2C, made a gpiochip by the kernel's ``mcp23017`` overlay; INTA goes to ``interrupt``."""

    name: str
    bus: int
    address: int
    interrupt: Pin


@dataclass(frozen=True)
class Mux:
    """A TCA9548A; the kernel's ``i2c-mux`` overlay turns each channel into its own /dev/i2c-N."""

    name: str
    bus: int
    address: int


@dataclass(frozen=True)
class DisplayConfig:
    """A 128x64 OLED: on ``bus`` directly, or on channel ``channel`` of the multiplexer named ``mux``."""

    driver: str
    address: int
    bus: int | None = None
    mux: str | None = None
    channel: int | None = None
    rotate: int = 0                   # luma's rotate: 0, or 2 for a panel mounted upside down

    def where(self) -> str:
        """Where the display sits, for logs: ``m0/3@0x3c`` or ``i2c-1@0x3c``."""
        place = f"{self.mux}/{self.channel}" if self.mux is not None else f"i2c-{self.bus}"
        return f"{place}@0x{self.address:02x}"


@dataclass(frozen=True)
class SeatPanel:
    """One seat's panel: three buttons, up to two LEDs (a header-only table may have none), one display."""

    seat: int
    buttons: Mapping[str, Pin]
    leds: Mapping[str, Pin]
    display: DisplayConfig


@dataclass(frozen=True)
class DealerConsole:
    """The dealer's buttons (:data:`CONSOLE_BUTTONS`) and display."""

    buttons: Mapping[str, Pin]
    display: DisplayConfig


@dataclass(frozen=True)
class InputTiming:
    """Button timings in milliseconds (see docs/seat-panel.md)."""

    debounce_ms: int = 30
    long_press_ms: int = 600
    repeat_ms: int = 150
    fold_guard_ms: int = 3000


@dataclass(frozen=True)
class ConsoleSettings:
    """``[console]``: the daemon's local API socket and the ``dealerpi console`` web process (docs/console.md).

    ``socket`` is where the daemon listens (its unit's RuntimeDirectory); ``listen`` is the console's
    ``host:port`` (only loopback is served without a token); ``state`` is the console's own folder for its
    tokens and the pairing file, both readable by the console's user only.
    """

    socket: Path = Path("/run/dealerpi/api.sock")
    listen: str = "127.0.0.1:8765"
    state: Path = Path("/var/lib/dealerpi-console")

    def listen_address(self) -> tuple[str, int]:
        host, _, port = self.listen.rpartition(":")
        return host.strip("[]"), int(port)


@dataclass(frozen=True)
class Config:
    """A validated config. ``table`` is the journal's ``{"type": "table", ...}`` input without ``type``."""

    source: Path
    devices: str
    table: Mapping[str, Any]
    seats: tuple[SeatPanel, ...]
    dealer: DealerConsole
    expanders: tuple[Expander, ...] = ()
    muxes: tuple[Mux, ...] = ()
    shoe_port: str = "/dev/dealerpi-shoe"
    shoe_baudrate: int = 115200
    decks: Path = Path("/var/lib/dealerpi/decks")
    journal: Path = Path("/var/lib/dealerpi/journal.jsonl")
    journal_keep_segments: int = 1000           # [journal_keep]: old segments (a hand each) kept, at most
    journal_keep_bytes: int = 64 << 20          # and at most this many bytes of them (journal_folder.py)
    log_level: str = "INFO"
    timing: InputTiming = field(default_factory=InputTiming)
    console: ConsoleSettings | None = None      # None: no [console] section, no local API
    mqtt: MqttSettings | None = None            # None: no [mqtt] section, the table is not in a room (docs/room.md)

    def table_input(self) -> dict[str, Any]:
        """The ``table`` input the daemon journals first."""
        return {"type": "table", **self.table}


_PIN_TEXT = re.compile(r"^(?:GPIO(\d+)|([A-Za-z][\w-]*):(?:(\d+)|GP([AB])([0-7])))$")


class _Checker:
    """Walks the parsed TOML, collecting errors named by file and key."""

    def __init__(self, source: Path) -> None:
        self.source = source
        self.errors: list[str] = []
        self.pin_users: dict[Pin, str] = {}

    def error(self, key: str, message: str) -> None:
        self.errors.append(f"{self.source}: {key}: {message}")

    def unknown_keys(self, key: str, table: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
        for name in table:
            if name not in allowed:
                where = f"{key}.{name}" if key else name
                self.error(where, f"unknown key (expected one of: {', '.join(allowed)})")

    def table(self, key: str, value: Any) -> Mapping[str, Any] | None:
        if not isinstance(value, dict):
            self.error(key, f"must be a table, not {type(value).__name__}")
            return None
        return value

    def integer(self, key: str, value: Any, allowed: range | tuple[int, ...] | None = None) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(key, f"must be an integer, not {value!r}")
            return None
        if allowed is not None and value not in allowed:
            self.error(key, f"{_show(value)} is not one of {_show_allowed(allowed)}")
            return None
        return value

    def text(self, key: str, value: Any, allowed: tuple[str, ...] | None = None) -> str | None:
        if not isinstance(value, str) or not value:
            self.error(key, f"must be a non-empty string, not {value!r}")
            return None
        if allowed is not None and value not in allowed:
            self.error(key, f"{value!r} is not one of {', '.join(allowed)}")
            return None
        return value

    def pin(self, key: str, value: Any, expanders: Mapping[str, Expander], *, is_input: bool = True) -> Pin | None:
        """Parse a pin and claim it for ``key``; a pin claimed twice is an error naming both keys."""
        pin = self._parse_pin(key, value, expanders)
        if pin is None:
            return None
        if is_input and pin.chip is not None and pin.line in EXPANDER_OUTPUT_ONLY:
            self.error(key, f"{pin} is GP{'A' if pin.line == 7 else 'B'}7, output-only on the MCP23017: "
                       "use it for an LED")
            return None
        if pin.chip is None and pin.line in I2C1_LINES:
            self.error(key, f"{pin} is {I2C1_LINES[pin.line]}, used by the displays and expanders")
            return None
        if pin in self.pin_users:
            self.error(key, f"pin {pin} is already used by {self.pin_users[pin]}")
            return None
        self.pin_users[pin] = key
        return pin

    def _parse_pin(self, key: str, value: Any, expanders: Mapping[str, Expander]) -> Pin | None:
        if isinstance(value, int) and not isinstance(value, bool):
            value = f"GPIO{value}"
        match = _PIN_TEXT.match(value) if isinstance(value, str) else None
        if match is None:
            self.error(key, f"{value!r} is not a pin (write \"GPIO17\", \"x0:5\" or \"x0:GPB3\")")
            return None
        header, chip, line, port, bit = match.groups()
        if header is not None:
            if int(header) not in HEADER_LINES:
                self.error(key, f"GPIO{header} is not a header GPIO (0-27)")
                return None
            return Pin(None, int(header))
        if chip not in expanders:
            self.error(key, f"expander {chip!r} is not defined in [[expanders]]")
            return None
        number = int(line) if line is not None else (0 if port == "A" else 8) + int(bit)
        if number not in EXPANDER_LINES:
            self.error(key, f"line {number} does not exist on an MCP23017 (0-15)")
            return None
        return Pin(chip, number)


def _show(value: int) -> str:
    return f"0x{value:02x}" if value >= 0x20 else str(value)


def _show_allowed(allowed: range | tuple[int, ...]) -> str:
    if isinstance(allowed, range):
        return f"{_show(allowed.start)}..{_show(allowed.stop - 1)}"
    return ", ".join(_show(a) for a in allowed)


TABLE_KEYS = ("game", "rules", "seats", "blinds", "limits", "ante", "bb_ante", "levels", "payouts", "buy_in",
              "starting_stack", "policies", "late_entry_levels")


def _check_table(c: _Checker, raw: Any) -> tuple[dict[str, Any], int | None]:
    """The ``[table]`` section and its seat count: the keys of the journal's ``table`` input, checked by the
    engine's own parser, the one source of truth for what a table may be (games, presets, policies, stakes,
    levels); its error names the key. The seat count is None when the engine refuses the table."""
    table = c.table("table", raw)
    if table is None:
        return {}, None
    c.unknown_keys("table", table, TABLE_KEYS)
    out = {k: v for k, v in table.items() if k in TABLE_KEYS}
    try:
        parsed = parse_config({"type": "table", **out})
    except InputError as exc:
        c.error(f"table.{exc.key}" if exc.key else "table", str(exc).removeprefix("table: "))
        return out, None
    return out, parsed.seats


def _check_expanders(c: _Checker, raw: Any) -> dict[str, Expander]:
    expanders: dict[str, Expander] = {}
    if not isinstance(raw, list):
        c.error("expanders", "must be an array of tables ([[expanders]])")
        return expanders
    places: dict[tuple[int, int], str] = {}
    for i, entry in enumerate(raw):
        key = f"expanders[{i}]"
        if (table := c.table(key, entry)) is None:
            continue
        c.unknown_keys(key, table, ("name", "bus", "address", "interrupt"))
        name = c.text(f"{key}.name", table.get("name"))
        bus = c.integer(f"{key}.bus", table.get("bus", 1), range(0, 100))
        address = c.integer(f"{key}.address", table.get("address"), EXPANDER_ADDRESSES)
        interrupt = c.pin(f"{key}.interrupt", table.get("interrupt"), {})
        if name in expanders:
            c.error(f"{key}.name", f"expander {name!r} is defined twice")
            continue
        if bus is not None and address is not None:
            if (bus, address) in places:
                c.error(f"{key}.address", f"i2c-{bus} address 0x{address:02x} is already used by "
                        f"{places[(bus, address)]}")
                continue
            places[(bus, address)] = key
        if name is not None and bus is not None and address is not None and interrupt is not None:
            expanders[name] = Expander(name, bus, address, interrupt)
    return expanders


def _check_muxes(c: _Checker, raw: Any) -> dict[str, Mux]:
    muxes: dict[str, Mux] = {}
    if not isinstance(raw, list):
        c.error("muxes", "must be an array of tables ([[muxes]])")
        return muxes
    for i, entry in enumerate(raw):
        key = f"muxes[{i}]"
        if (table := c.table(key, entry)) is None:
            continue
        c.unknown_keys(key, table, ("name", "bus", "address"))
        name = c.text(f"{key}.name", table.get("name"))
        bus = c.integer(f"{key}.bus", table.get("bus", 1), range(0, 100))
        address = c.integer(f"{key}.address", table.get("address"), MUX_ADDRESSES)
        if name in muxes:
            c.error(f"{key}.name", f"multiplexer {name!r} is defined twice")
        elif any(m.bus == bus and m.address == address for m in muxes.values()):
            c.error(f"{key}.address", f"another multiplexer is at i2c-{bus} 0x{address:02x}")
        elif name is not None and bus is not None and address is not None:
            muxes[name] = Mux(name, bus, address)
    return muxes


def _check_display(c: _Checker, key: str, raw: Any, muxes: Mapping[str, Mux],
                   places: dict[tuple[object, ...], str]) -> DisplayConfig | None:
    if (table := c.table(key, raw)) is None:
        return None
    c.unknown_keys(key, table, ("driver", "address", "bus", "mux", "channel", "rotate"))
    driver = c.text(f"{key}.driver", table.get("driver", "ssd1306"), DISPLAY_DRIVERS)
    address = c.integer(f"{key}.address", table.get("address", 0x3C), DISPLAY_ADDRESSES)
    rotate = c.integer(f"{key}.rotate", table.get("rotate", 0), (0, 2))
    mux_name = table.get("mux")
    if mux_name is not None:
        if (mux_name := c.text(f"{key}.mux", mux_name)) is None:
            return None
        if "bus" in table:
            c.error(f"{key}.bus", "give either bus, or mux and channel, not both")
            return None
        if mux_name not in muxes:
            c.error(f"{key}.mux", f"multiplexer {mux_name!r} is not defined in [[muxes]]")
            return None
        channel = c.integer(f"{key}.channel", table.get("channel"), MUX_CHANNELS)
        bus = None
        place: tuple[object, ...] = ("mux", mux_name, channel, address)
    else:
        if "channel" in table:
            c.error(f"{key}.channel", "a channel needs a mux")
            return None
        channel = None
        bus = c.integer(f"{key}.bus", table.get("bus"), range(0, 100))
        place = ("bus", bus, address)
    if None in (driver, address, rotate) or (mux_name is None and bus is None) or \
            (mux_name is not None and channel is None):
        return None
    if place in places:
        c.error(f"{key}.address", f"0x{address:02x} on the same bus is already used by {places[place]}")
        return None
    places[place] = key
    assert driver is not None and address is not None and rotate is not None
    return DisplayConfig(driver, address, bus, mux_name, channel, rotate)


def _check_seats(c: _Checker, raw: Any, table_seats: int | None, expanders: Mapping[str, Expander],
                 muxes: Mapping[str, Mux], places: dict[tuple[object, ...], str]) -> tuple[SeatPanel, ...]:
    if not isinstance(raw, list):
        c.error("seats", "must be an array of tables ([[seats]])")
        return ()
    panels: dict[int, SeatPanel] = {}
    seen: set[int] = set()
    for i, entry in enumerate(raw):
        key = f"seats[{i}]"
        if (table := c.table(key, entry)) is None:
            continue
        c.unknown_keys(key, table, ("seat", "buttons", "leds", "display"))
        seat = c.integer(f"{key}.seat", table.get("seat"), range(1, MAX_SEATS + 1))
        if seat is not None and seat in seen:
            c.error(f"{key}.seat", f"seat {seat} has two panels")
        if seat is not None:
            seen.add(seat)
        buttons = _check_pins(c, f"{key}.buttons", table.get("buttons"), SEAT_BUTTONS, SEAT_BUTTONS, expanders)
        leds = _check_pins(c, f"{key}.leds", table.get("leds", {}), SEAT_LEDS, (), expanders, is_input=False)
        display = _check_display(c, f"{key}.display", table.get("display"), muxes, places)
        if seat is not None and seat not in panels and buttons is not None and leds is not None and display:
            panels[seat] = SeatPanel(seat, buttons, leds, display)
    if table_seats is not None:
        for seat in range(1, table_seats + 1):
            if seat not in seen:
                c.error("seats", f"seat {seat} has no [[seats]] panel (table.seats = {table_seats})")
        for seat in sorted(seen):
            if seat > table_seats:
                c.error("seats", f"seat {seat} has a panel but table.seats = {table_seats}")
    return tuple(panels[s] for s in sorted(panels))


def _check_pins(c: _Checker, key: str, raw: Any, allowed: tuple[str, ...], required: tuple[str, ...],
                expanders: Mapping[str, Expander], *, is_input: bool = True) -> dict[str, Pin] | None:
    if raw is None:
        c.error(key, "missing")
        return None
    if (table := c.table(key, raw)) is None:
        return None
    c.unknown_keys(key, table, allowed)
    pins: dict[str, Pin] = {}
    for name in required:
        if name not in table:
            c.error(f"{key}.{name}", "missing")
    for name in allowed:
        if name in table and (pin := c.pin(f"{key}.{name}", table[name], expanders, is_input=is_input)):
            pins[name] = pin
    return pins if len(pins) == len([n for n in allowed if n in table]) else None


def _check_console(c: _Checker, raw: Any, expanders: Mapping[str, Expander], muxes: Mapping[str, Mux],
                   places: dict[tuple[object, ...], str]) -> DealerConsole | None:
    if (table := c.table("dealer", raw)) is None:
        return None
    c.unknown_keys("dealer", table, ("buttons", "display"))
    buttons = _check_pins(c, "dealer.buttons", table.get("buttons"), CONSOLE_BUTTONS, CONSOLE_BUTTONS,
                          expanders)
    display = _check_display(c, "dealer.display", table.get("display"), muxes, places)
    if buttons is None or display is None:
        return None
    return DealerConsole(buttons, display)


def _check_timing(c: _Checker, raw: Any) -> InputTiming:
    if (table := c.table("input", raw)) is None:
        return InputTiming()
    names = ("debounce_ms", "long_press_ms", "repeat_ms", "fold_guard_ms")
    c.unknown_keys("input", table, names)
    values = {n: c.integer(f"input.{n}", table[n], range(1, 60_001)) for n in names if n in table}
    return InputTiming(**{n: v for n, v in values.items() if v is not None})


def _check_console_settings(c: _Checker, raw: Any, source: Path) -> ConsoleSettings | None:
    if raw is None or (table := c.table("console", raw)) is None:
        return None
    c.unknown_keys("console", table, ("socket", "listen", "state"))
    default = ConsoleSettings()
    paths: dict[str, Path] = {}
    for name in ("socket", "state"):
        text = c.text(f"console.{name}", table.get(name, str(getattr(default, name))))
        if text is not None:
            paths[name] = (source.parent / text) if not Path(text).is_absolute() else Path(text)
    # a Unix socket's path is at most 107 bytes (sun_path is 108 with its NUL, unix(7))
    if "socket" in paths and len(str(paths["socket"]).encode()) > 107:
        c.error("console.socket", f"{paths['socket']} is longer than a Unix socket path may be (107 bytes)")
    listen = c.text("console.listen", table.get("listen", default.listen))
    if listen is not None:
        host, _, port = listen.rpartition(":")
        if not host or not _is_port(port):     # 0: any free port
            c.error("console.listen", f"must be host:port, e.g. 127.0.0.1:8765 or 0.0.0.0:8765, not {listen!r}")
    if c.errors or listen is None or len(paths) < 2:
        return None
    return ConsoleSettings(paths["socket"], listen, paths["state"])


def parse(data: Mapping[str, Any], source: Path) -> Config:
    """Validate parsed TOML ``data``; raise :class:`ConfigError` listing every problem."""
    c = _Checker(source)
    top = ("devices", "journal", "decks", "log_level", "table", "shoe", "expanders", "muxes", "seats",
           "dealer", "input", "console", "mqtt", "journal_keep")
    c.unknown_keys("", data, top)
    devices = c.text("devices", data.get("devices", "pi"), ("fake", "pi"))
    table, table_seats = _check_table(c, data.get("table"))
    expanders = _check_expanders(c, data.get("expanders", []))
    muxes = _check_muxes(c, data.get("muxes", []))
    places: dict[tuple[object, ...], str] = {}
    seats = _check_seats(c, data.get("seats"), table_seats, expanders, muxes, places)
    if "dealer" not in data:
        c.error("dealer", "missing")
    console = _check_console(c, data.get("dealer"), expanders, muxes, places)
    timing = _check_timing(c, data.get("input", {}))
    shoe = c.table("shoe", data.get("shoe", {})) or {}
    c.unknown_keys("shoe", shoe, ("port", "baudrate"))
    shoe_port = c.text("shoe.port", shoe.get("port", "/dev/dealerpi-shoe"))
    if shoe_port is not None and shoe_port.startswith(("socket://", "rfc2217://")):
        # dealerpi.service has PrivateNetwork=yes and AF_UNIX only: a network shoe would be offline for ever
        c.error("shoe.port", f"{shoe_port!r} is a network shoe, which dealerpi.service cannot reach "
                "(PrivateNetwork=yes, RestrictAddressFamilies=AF_UNIX: the table daemon stays off the network); "
                "plug the shoe into the Pi's USB (/dev/dealerpi-shoe), or use loop:// to run without one")
    baudrate = c.integer("shoe.baudrate", shoe.get("baudrate", 115200), range(300, 10_000_001))
    paths: dict[str, Path] = {}
    for name, default in (("journal", "/var/lib/dealerpi/journal.jsonl"), ("decks", "/var/lib/dealerpi/decks")):
        if (text := c.text(name, data.get(name, default))) is not None:
            # a relative path is relative to the config file, so examples run from anywhere
            paths[name] = (source.parent / text) if not Path(text).is_absolute() else Path(text)
    log_level = c.text("log_level", data.get("log_level", "INFO"), ("DEBUG", "INFO", "WARNING", "ERROR"))
    keep = c.table("journal_keep", data.get("journal_keep", {})) or {}
    c.unknown_keys("journal_keep", keep, ("segments", "mib"))
    keep_segments = c.integer("journal_keep.segments", keep.get("segments", 1000), range(2, 10_000_001))
    keep_mib = c.integer("journal_keep.mib", keep.get("mib", 64), range(1, 1_000_001))
    console_settings = _check_console_settings(c, data.get("console"), source)
    mqtt, mqtt_errors = parse_mqtt(data["mqtt"], source) if "mqtt" in data else (None, [])
    c.errors += mqtt_errors
    if c.errors:
        raise ConfigError(c.errors)
    assert devices and console and shoe_port and baudrate and log_level and keep_segments and keep_mib
    return Config(source=source, devices=devices, table=table, seats=seats, dealer=console,
                  expanders=tuple(expanders.values()), muxes=tuple(muxes.values()), shoe_port=shoe_port,
                  shoe_baudrate=baudrate, decks=paths["decks"], journal=paths["journal"],
                  log_level=log_level, timing=timing, console=console_settings, mqtt=mqtt,
                  journal_keep_segments=keep_segments, journal_keep_bytes=keep_mib << 20)


def _is_port(text: str) -> bool:
    """0-65535 in ASCII digits: ``str.isdigit`` is true for "²", which ``int`` refuses (issue 22, probe 2)."""
    return text.isascii() and text.isdigit() and int(text) < 65536


def load(path: Path | str) -> Config:
    """Read and validate the TOML file at ``path``."""
    source = Path(path)
    try:
        raw = source.read_bytes()
    except OSError as exc:
        raise ConfigError([f"{source}: cannot read: {exc.strerror or exc}"]) from exc
    try:
        data = read_toml(raw.decode("utf-8"))     # depth checked first (issue 22, probe 2)
    except UnicodeDecodeError as exc:            # TOML is UTF-8 (toml.io, v1.0.0 "Spec")
        line = raw[:exc.start].count(b"\n") + 1
        raise ConfigError([f"{source}: line {line}: byte 0x{raw[exc.start]:02x} is not UTF-8 text"]) from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"{source}: TOML syntax: {exc}"]) from exc
    except LimitError as exc:
        raise ConfigError([f"{source}: {exc}"]) from None
    return parse(data, source)


def all_pins(config: Config) -> dict[Pin, str]:
    """Every pin the config uses, with what it is for (``seat 3 fold``); the pin table test uses it."""
    used: dict[Pin, str] = {}
    for expander in config.expanders:
        used[expander.interrupt] = f"expander {expander.name} INTA"
    for panel in config.seats:
        for kind, pins in (("button", panel.buttons), ("LED", panel.leds)):
            for name, pin in pins.items():
                used[pin] = f"seat {panel.seat} {name} {kind}"
    for name, pin in config.dealer.buttons.items():
        used[pin] = f"dealer {name} button"
    return used


def _summary(config: Config) -> str:
    pins = all_pins(config)
    displays = len(config.seats) + 1
    return (f"{config.source}: OK: {config.table.get('game')} {config.table.get('rules')}, "
            f"{len(config.seats)} seat panels, {len(pins)} pins, {displays} displays, "
            f"{len(config.expanders)} expanders, {len(config.muxes)} multiplexers, devices={config.devices}")


def main(argv: list[str]) -> int:
    """``dealerpi check-config [FILE]``: print OK and a summary, or every error (exit status 1)."""
    parser = argparse.ArgumentParser(prog="dealerpi check-config", description="Validate a table config.")
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_PATH)
    args = parser.parse_args(argv)
    try:
        config = load(args.file)
    except ConfigError as exc:
        for line in exc.errors:
            print(line, file=sys.stderr)
        print(f"{args.file}: {len(exc.errors)} error(s)", file=sys.stderr)
        return 1
    print(_summary(config))
    return 0


def gcd_unit(blinds: list[int] | tuple[int, int]) -> int:
    """The amount step for entry: the largest chip unit both blinds are made of (1/3 -> 1, 50/100 -> 50)."""
    return math.gcd(*blinds) or 1


__all__: list[str] = [
    "CONSOLE_BUTTONS", "DEFAULT_PATH", "Config", "ConfigError", "ConsoleSettings", "DealerConsole", "DisplayConfig",
    "Expander",
    "InputTiming", "Mux", "Pin", "SeatPanel", "all_pins", "gcd_unit", "load", "main", "parse",
]
