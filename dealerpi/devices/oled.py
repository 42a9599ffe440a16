"""SSD1306 and SH1106 drivers that send only what changed.

luma.oled's ``ssd1306``/``sh1106`` send the whole 1024-byte frame on every ``display()`` (about 23 ms of
bus time at 400 kHz) and ignore ``framebuffer=``. A seat screen changes a number or a line per action, so
these subclasses keep the bytes last sent, compare page by page (a page is 8 pixel rows; one byte is one
column of a page), and send only the changed windows. luma keeps doing what it does well: the init
sequence, contrast, rotation (``preprocess``) and the I2C interface.

- SSD1306 (horizontal addressing mode, set by luma's init): a window is any rectangle of pages x columns,
  set with COLUMNADDR and PAGEADDR; neighbouring changed pages are merged into one rectangle when that is
  cheaper (a small dynamic programme over the 8 pages).
- SH1106 (page addressing only): one window per changed run of columns in each page, set with the page
  address and the two column-address nibbles; its RAM is 132 columns wide, the panel starts at column 2.

Each window is one I2C transfer of two messages (the address commands, then the data, joined by a
repeated START) when the serial interface offers ``write_window`` (:class:`WindowI2C`): behind a TCA9548A
the kernel selects and deselects the channel once per transfer, so this halves that overhead.

If a send fails (``OSError`` or luma's ``DeviceNotFoundError``), the panel's contents are unknown, so the
next ``display()`` sends the full frame.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image

from dealerpi.devices.ports import Screen

_LOGGER = logging.getLogger(__name__)

COMMAND_OVERHEAD = 2   # per I2C write: the address byte and the control byte (0x00 command, 0x40 data)

Window = tuple[int, int, int, int]   # first page, last page, first column, last column (inclusive)


def page_bytes(image: Image.Image) -> bytes:
    """The controller's RAM layout of a 1-bit image: byte ``page * width + x`` holds pixels
    (x, 8*page) .. (x, 8*page + 7), the top one in bit 0.

    PIL does the bit packing: transposed and mirrored, each image column becomes a row whose packed
    bytes are the pages, last page first.
    """
    pages = image.height // 8
    packed = image.convert("1").transpose(Image.Transpose.TRANSPOSE) \
        .transpose(Image.Transpose.FLIP_LEFT_RIGHT).tobytes()
    return b"".join(packed[pages - 1 - page::pages] for page in range(pages))


def changed_runs(old: bytes, new: bytes, gap: int) -> list[tuple[int, int]]:
    """Runs ``(first, last)`` of indices where ``old`` and ``new`` differ; runs closer than ``gap``
    unchanged bytes are merged (sending a few unchanged bytes is cheaper than a new window)."""
    runs: list[tuple[int, int]] = []
    for index, (a, b) in enumerate(zip(old, new, strict=True)):
        if a != b:
            if runs and index - runs[-1][1] - 1 <= gap:
                runs[-1] = (runs[-1][0], index)
            else:
                runs.append((index, index))
    return runs


class WindowI2C(i2c):  # type: ignore[misc]
    """luma's I2C interface plus :meth:`write_window`: commands and data in one ``i2c_rdwr`` transfer."""

    def write_window(self, commands: bytes, data: bytes) -> None:
        if not self._managed:     # a caller-supplied smbus has no i2c_rdwr: two plain writes
            self.command(*commands)
            self.data(list(data))
            return
        self._bus.i2c_rdwr(self._i2c_msg_write(self._addr, [self._cmd_mode, *commands]),
                           self._i2c_msg_write(self._addr, [self._data_mode, *data]))


class _PartialUpdate:
    """What both drivers share: remember the sent RAM image, diff, send windows."""

    width: int
    height: int
    _sent: bytes | None
    image: Image.Image | None
    _pages: int
    # preprocess(), command() and data() come from luma's device, later in the MRO

    def __init__(self, serial_interface: Any = None, **kwargs: Any) -> None:
        self._sent = None
        self.image = None
        super().__init__(serial_interface, **kwargs)  # type: ignore[call-arg]

    def display(self, image: Image.Image) -> None:
        """Show ``image`` (1-bit, the device's size), sending only what changed since the last call."""
        if image.size != (self.width, self.height):
            raise ValueError(f"image is {image.size}, the display is {(self.width, self.height)}")
        self.image = image.copy()
        ram = page_bytes(self.preprocess(image))  # type: ignore[attr-defined]
        windows = self.plan(self._sent, ram)
        self._sent = None          # unknown until every window went out
        for window in windows:
            self._send_window(ram, window)
        self._sent = ram

    def plan(self, old: bytes | None, new: bytes) -> list[Window]:
        raise NotImplementedError

    def _send_window(self, ram: bytes, window: Window) -> None:
        raise NotImplementedError

    def _write(self, commands: bytes, data: bytes) -> None:
        serial = self._serial_interface  # type: ignore[attr-defined]
        if hasattr(serial, "write_window"):
            serial.write_window(commands, data)
        else:
            serial.command(*commands)
            serial.data(list(data))

    def _window_data(self, ram: bytes, window: Window) -> bytes:
        first_page, last_page, first_col, last_col = window
        return b"".join(ram[page * self.width + first_col: page * self.width + last_col + 1]
                        for page in range(first_page, last_page + 1))


class PartialSSD1306(_PartialUpdate, ssd1306):  # type: ignore[misc]
    """luma's ``ssd1306`` (128x64) sending changed rectangles only."""

    WINDOW_COST = 6 + 2 * COMMAND_OVERHEAD   # COLUMNADDR a b PAGEADDR c d, and two writes' overhead

    def plan(self, old: bytes | None, new: bytes) -> list[Window]:
        width = self.width
        if old is None:
            return [(0, self._pages - 1, 0, width - 1)]
        # per page: its changed runs of columns
        runs = [changed_runs(old[p * width:(p + 1) * width], new[p * width:(p + 1) * width], self.WINDOW_COST)
                for p in range(self._pages)]
        # best[i]: cheapest way to send pages 0..i-1; a segment is one page's own runs, or one rectangle
        # spanning pages j..i-1 and the union of their columns
        best: list[tuple[int, list[Window]]] = [(0, [])]
        for i in range(1, self._pages + 1):
            page = i - 1
            own = [(page, page, a, b) for a, b in runs[page]]
            candidates = [(best[i - 1][0] + sum(self.WINDOW_COST + b - a + 1 for _, _, a, b in own),
                           best[i - 1][1] + own)]
            for j in range(i - 1):
                spans = [r for p in range(j, i) for r in runs[p]]
                if not spans or not runs[j] or not runs[page]:
                    continue
                first, last = min(a for a, _ in spans), max(b for _, b in spans)
                cost = best[j][0] + self.WINDOW_COST + (i - j) * (last - first + 1)
                candidates.append((cost, [*best[j][1], (j, page, first, last)]))
            best.append(min(candidates, key=lambda c: c[0]))
        return best[self._pages][1]

    def _send_window(self, ram: bytes, window: Window) -> None:
        first_page, last_page, first_col, last_col = window
        self._write(bytes([self._const.COLUMNADDR, self._colstart + first_col, self._colstart + last_col,
                           self._const.PAGEADDR, first_page, last_page]), self._window_data(ram, window))


class PartialSH1106(_PartialUpdate, sh1106):  # type: ignore[misc]
    """luma's ``sh1106`` (128x64 on a 132-column RAM) sending changed runs of each page only."""

    WINDOW_COST = 3 + 2 * COMMAND_OVERHEAD   # page address, column low nibble, column high nibble

    def plan(self, old: bytes | None, new: bytes) -> list[Window]:
        width = self.width
        if old is None:
            return [(p, p, 0, width - 1) for p in range(self._pages)]
        return [(p, p, a, b) for p in range(self._pages)
                for a, b in changed_runs(old[p * width:(p + 1) * width], new[p * width:(p + 1) * width],
                                         self.WINDOW_COST)]

    def _send_window(self, ram: bytes, window: Window) -> None:
        page, _, first_col, _ = window
        column = first_col + self._page_address_offset
        self._write(bytes([0xB0 | page, column & 0x0F, 0x10 | (column >> 4)]), self._window_data(ram, window))


DRIVERS: dict[str, Callable[..., Screen]] = {"ssd1306": PartialSSD1306, "sh1106": PartialSH1106}
