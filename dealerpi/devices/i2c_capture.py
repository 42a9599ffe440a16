"""A capturing luma serial interface, I2C bus time, and a model of the controllers' display RAM.

luma.core's ``noop`` interface drops what it is given; :class:`CapturingSerial` keeps every write as the
I2C transaction luma's ``i2c`` interface would make (``command()``: one write with control byte 0x00;
``data()``: writes of up to 4096 bytes with control byte 0x40, as luma does through smbus2's ``i2c_rdwr``).
:class:`DisplayRam` replays those bytes through the SSD1306 or SH1106 command set, so a test can check
that what reached the panel is the image (tests/devices) and the benchmark can count bytes and bus time.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image

_LOGGER = logging.getLogger(__name__)

LUMA_MAX_BLOCK = 4096   # luma.core.interface.serial.i2c._write_large_block


@dataclass
class CapturingSerial:
    """A luma serial interface that records I2C transfers instead of sending them.

    A transfer is one kernel ``i2c_transfer``: one or more messages (``("command" | "data", payload)``).
    ``window=True`` offers ``write_window`` (commands and data in one transfer), as
    :class:`dealerpi.devices.oled.WindowI2C` does; ``fail`` makes writes raise ``OSError(EIO)``, as a
    display pulled off the bus would.
    """

    transfers: list[list[tuple[str, bytes]]] = field(default_factory=list)
    fail: bool = False
    window: bool = True

    def command(self, *cmd: int) -> None:
        self._transfer([("command", bytes(cmd))])

    def data(self, data: Sequence[int]) -> None:
        payload = bytes(data)
        for start in range(0, len(payload), LUMA_MAX_BLOCK):
            self._transfer([("data", payload[start:start + LUMA_MAX_BLOCK])])

    def __getattr__(self, name: str) -> object:
        if name == "write_window" and self.window:
            return self._write_window
        raise AttributeError(name)

    def _write_window(self, commands: bytes, data: bytes) -> None:
        self._transfer([("command", bytes(commands)), ("data", bytes(data))])

    def cleanup(self) -> None:
        pass

    def _transfer(self, messages: list[tuple[str, bytes]]) -> None:
        if self.fail:
            raise OSError(5, "Input/output error")
        self.transfers.append(messages)

    @property
    def transactions(self) -> list[tuple[str, bytes]]:
        """Every message, in order."""
        return [message for transfer in self.transfers for message in transfer]

    def clear(self) -> None:
        self.transfers.clear()

    def wire_bytes(self) -> int:
        """Bytes on the wire: each message also carries the address byte and the control byte."""
        return sum(len(payload) + 2 for _, payload in self.transactions)

    def bus_seconds(self, *, hz: int = 400_000, muxed: bool = True) -> float:
        """I2C time of everything captured (see :func:`bus_seconds`)."""
        return bus_seconds(len(self.transfers), len(self.transactions), self.wire_bytes(), hz=hz, muxed=muxed)


def bus_seconds(transfers: int, messages: int, wire_bytes: int, *, hz: int = 400_000, muxed: bool = True) -> float:
    """I2C time for ``transfers`` transfers of ``messages`` messages carrying ``wire_bytes`` bytes (address
    and control bytes included).

    Each byte is 9 clocks (8 bits and ACK); each message starts with a START (or repeated START), each
    transfer ends with a STOP and the bus-free time (1.3 us at 400 kHz): one clock each. Behind a TCA9548A
    with idle-disconnect (hardware/config.txt) the kernel writes the mux's control register before and
    after each transfer: two more 2-byte writes. Software gaps between transfers are not included.
    """
    clocks = 9 * wire_bytes + messages + 2 * transfers
    if muxed:
        clocks += 2 * transfers * (9 * 2 + 3)
    return clocks / hz


def full_frame_wire_bytes(driver: str, width: int = 128, height: int = 64) -> tuple[int, int]:
    """(writes, wire bytes) luma.oled's own driver sends for one frame, from its display() code:
    ssd1306: one 6-byte command and one data write of the frame; sh1106: per page a 3-byte command and
    a data write of one page. Each write is a transfer of one message."""
    frame = width * height // 8
    if driver == "ssd1306":
        return 2, (6 + 2) + (frame + 2)
    pages = height // 8
    return 2 * pages, pages * ((3 + 2) + (width + 2))


# SSD1306 commands that take argument bytes (datasheet section 9); everything else is one byte
_SSD1306_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1, 0xA3: 2,
                 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
# SH1106 (datasheet): the same for its smaller set; 0x20 (luma sends it) is a one-byte no-op there
_SH1106_ARGS = {0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class DisplayRam:
    """The display RAM of an SSD1306 (128 columns) or SH1106 (132 columns, panel from column 2), fed
    with captured transactions."""

    def __init__(self, driver: str, width: int = 128, height: int = 64) -> None:
        self.driver = driver
        self.width, self.height = width, height
        self.ram_width = 132 if driver == "sh1106" else width
        self.offset = 2 if driver == "sh1106" else 0
        self.ram = bytearray(self.ram_width * height // 8)
        self.horizontal = False          # SSD1306 powers up in page addressing mode
        self.page = 0
        self.column = 0
        self.col_window = (0, self.ram_width - 1)
        self.page_window = (0, height // 8 - 1)

    def feed(self, transactions: Sequence[tuple[str, bytes]]) -> None:
        for kind, payload in transactions:
            if kind == "command":
                self._commands(payload)
            else:
                for byte in payload:
                    self._write(byte)

    def _commands(self, payload: bytes) -> None:
        args_table = _SH1106_ARGS if self.driver == "sh1106" else _SSD1306_ARGS
        i = 0
        while i < len(payload):
            op = payload[i]
            nargs = args_table.get(op, 0)
            args = payload[i + 1:i + 1 + nargs]
            i += 1 + nargs
            if 0xB0 <= op <= 0xB7:
                self.page = op & 0x07
            elif op <= 0x0F:
                self.column = (self.column & 0xF0) | op
            elif 0x10 <= op <= 0x1F:
                self.column = (self.column & 0x0F) | ((op & 0x0F) << 4)
            elif self.driver == "ssd1306" and op == 0x20:
                self.horizontal = args[0] == 0x00
            elif self.driver == "ssd1306" and op == 0x21:
                self.col_window = (args[0], args[1])
                self.column = args[0]
            elif self.driver == "ssd1306" and op == 0x22:
                self.page_window = (args[0], args[1])
                self.page = args[0]

    def _write(self, byte: int) -> None:
        if self.column < self.ram_width:
            self.ram[self.page * self.ram_width + self.column] = byte
        if self.driver == "ssd1306" and self.horizontal:
            if self.column >= self.col_window[1]:
                self.column = self.col_window[0]
                self.page = self.page + 1 if self.page < self.page_window[1] else self.page_window[0]
            else:
                self.column += 1
        else:
            self.column += 1

    def image(self) -> Image.Image:
        """What the panel shows, as a 1-bit image."""
        img = Image.new("1", (self.width, self.height))
        pixels = img.load()
        assert pixels is not None
        for page in range(self.height // 8):
            for x in range(self.width):
                byte = self.ram[page * self.ram_width + x + self.offset]
                for bit in range(8):
                    if byte >> bit & 1:
                        pixels[x, page * 8 + bit] = 1
        return img
