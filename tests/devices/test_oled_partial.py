"""The partial-update SSD1306/SH1106 drivers (dealerpi/devices/oled.py), checked byte by byte.

A capturing serial interface keeps what the driver sends; DisplayRam replays it through the controller's
command set (SSD1306 and SH1106 datasheets: page = 8 rows, bit 0 = top row; SH1106 RAM starts 2 columns
left of the panel), and the decoded framebuffer must equal the image, pixel for pixel.
"""

from __future__ import annotations

import random

import pytest
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from dealerpi.devices.i2c_capture import CapturingSerial, DisplayRam, bus_seconds, full_frame_wire_bytes
from dealerpi.devices.oled import DRIVERS, page_bytes
from dealerpi.devices.ports import Screen


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    """Pixel-exact equality of two 1-bit images (ImageChops.difference misreports mode "1")."""
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


def same(a: Image.Image, b: Image.Image) -> bool:
    return same_pixels(a.convert("1"), b.convert("1"))


def blank() -> Image.Image:
    return Image.new("1", (128, 64))


def open_driver(driver: str) -> tuple[Screen, CapturingSerial, DisplayRam]:
    serial = CapturingSerial()
    device = DRIVERS[driver](serial)
    ram = DisplayRam(driver)
    ram.feed(serial.transactions)   # the init sequence and luma's clear()
    serial.clear()
    return device, serial, ram


def test_page_bytes_layout() -> None:
    image = blank()
    image.putpixel((10, 20), 1)    # page 2, bit 4
    image.putpixel((127, 63), 1)   # page 7, bit 7
    image.putpixel((0, 0), 1)      # page 0, bit 0
    ram = page_bytes(image)
    assert len(ram) == 1024
    assert {i: b for i, b in enumerate(ram) if b} == {0: 0x01, 2 * 128 + 10: 0x10, 7 * 128 + 127: 0x80}


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_decoded_framebuffer_equals_image_over_random_frames(driver: str) -> None:
    device, serial, ram = open_driver(driver)
    assert same(ram.image(), blank())
    rnd = random.Random(5)
    for _ in range(40):
        image = blank()
        draw = ImageDraw.Draw(image)
        for _ in range(rnd.randrange(1, 4)):
            draw.text((rnd.randrange(110), rnd.randrange(54)), str(rnd.randrange(10_000)), fill=1)
        if rnd.random() < 0.3:
            x0, x1 = sorted((rnd.randrange(128), rnd.randrange(128)))
            y0, y1 = sorted((rnd.randrange(64), rnd.randrange(64)))
            draw.rectangle((x0, y0, x1, y1), fill=1)
        device.display(image)
        ram.feed(serial.transactions)
        serial.clear()
        assert same(ram.image(), image)


def test_ssd1306_single_pixel_sends_one_byte_window() -> None:
    device, serial, _ = open_driver("ssd1306")
    image = blank()
    image.putpixel((10, 20), 1)
    device.display(image)
    # COLUMNADDR 10..10, PAGEADDR 2..2, then one data byte with bit 4 set
    assert serial.transactions == [("command", bytes([0x21, 10, 10, 0x22, 2, 2])), ("data", bytes([0x10]))]
    serial.clear()
    device.display(image)
    assert serial.transactions == []   # nothing changed, nothing sent


def test_sh1106_single_pixel_uses_column_offset() -> None:
    device, serial, _ = open_driver("sh1106")
    image = blank()
    image.putpixel((10, 20), 1)
    device.display(image)
    # page 2; column 10 + 2 = 0x0C: low nibble command 0x0C, high nibble command 0x10
    assert serial.transactions == [("command", bytes([0xB2, 0x0C, 0x10])), ("data", bytes([0x10]))]


def test_ssd1306_merges_pages_into_one_rectangle_when_cheaper() -> None:
    device, serial, _ = open_driver("ssd1306")
    image = blank()
    ImageDraw.Draw(image).rectangle((40, 8, 49, 31), fill=1)   # pages 1-3, columns 40-49
    device.display(image)
    assert serial.transactions == [("command", bytes([0x21, 40, 49, 0x22, 1, 3])), ("data", bytes([0xFF] * 30))]


def test_first_frame_and_frame_after_failure_are_full() -> None:
    device, serial, ram = open_driver("ssd1306")
    image = blank()
    image.putpixel((3, 3), 1)
    serial.fail = True
    with pytest.raises(OSError):
        device.display(image)
    serial.fail = False
    device.display(image)
    assert serial.transactions == [("command", bytes([0x21, 0, 127, 0x22, 0, 7])),
                                   ("data", page_bytes(image))]
    ram.feed(serial.transactions)
    assert same(ram.image(), image)


@pytest.mark.parametrize(("driver", "luma_class"), [("ssd1306", ssd1306), ("sh1106", sh1106)])
def test_full_frame_cost_matches_luma_own_driver(driver: str, luma_class: type) -> None:
    """The benchmark's baseline: what luma.oled itself sends per display() (1024 bytes plus commands)."""
    serial = CapturingSerial()
    device = luma_class(serial)
    serial.clear()
    image = blank()
    image.putpixel((1, 1), 1)
    device.display(image)
    writes, wire = full_frame_wire_bytes(driver)
    assert (len(serial.transactions), serial.wire_bytes()) == (writes, wire)
    ram = DisplayRam(driver)
    ram.feed(serial.transactions)
    assert same(ram.image(), image)


def test_bus_seconds_of_a_full_frame_is_about_23_ms() -> None:
    """9 clocks per byte at 400 kHz: luma's 1034 wire bytes are 23.3 ms, plus START/STOP and mux writes."""
    writes, wire = full_frame_wire_bytes("ssd1306")
    assert (writes, wire) == (2, (6 + 2) + (1024 + 2))
    assert bus_seconds(writes, writes, wire, muxed=False) == pytest.approx((9 * 1034 + 2 + 2 * 2) / 400_000)
    # behind the TCA9548A: a 2-byte select and a 2-byte deselect write around each transfer
    assert bus_seconds(writes, writes, wire) == pytest.approx((9 * 1034 + 6 + 2 * 2 * 21) / 400_000)


def test_window_is_one_transfer_of_two_messages() -> None:
    """With write_window the commands and data of a window share one transfer (one mux select)."""
    device, serial, _ = open_driver("ssd1306")
    image = blank()
    image.putpixel((10, 20), 1)
    device.display(image)
    assert serial.transfers == [[("command", bytes([0x21, 10, 10, 0x22, 2, 2])), ("data", bytes([0x10]))]]
    plain = CapturingSerial(window=False)
    other = DRIVERS["ssd1306"](plain)
    plain.clear()
    other.display(image)
    assert plain.transfers == [[("command", bytes([0x21, 10, 10, 0x22, 2, 2]))], [("data", bytes([0x10]))]]


class FakeSMBus:
    """Stands in for smbus2.SMBus: records i2c_rdwr messages and block writes."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.rdwr: list[list[tuple[int, list[int]]]] = []
        self.blocks: list[tuple[int, int, list[int]]] = []

    def i2c_rdwr(self, *messages: tuple[int, list[int]]) -> None:
        self.rdwr.append(list(messages))

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self.blocks.append((address, register, data))

    def close(self) -> None:
        pass


def test_window_i2c_sends_commands_and_data_in_one_rdwr(monkeypatch: pytest.MonkeyPatch) -> None:
    import smbus2

    from dealerpi.devices.oled import WindowI2C

    monkeypatch.setattr(smbus2, "SMBus", FakeSMBus)
    monkeypatch.setattr(smbus2.i2c_msg, "write", staticmethod(lambda address, data: (address, list(data))))
    serial = WindowI2C(port=13, address=0x3C)
    serial.write_window(bytes([0x21, 10, 10, 0x22, 2, 2]), bytes([0x10]))
    assert serial._bus.port == 13
    assert serial._bus.rdwr == [[(0x3C, [0x00, 0x21, 10, 10, 0x22, 2, 2]), (0x3C, [0x40, 0x10])]]
