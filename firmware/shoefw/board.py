"""Hardware glue for a Raspberry Pi Pico: I2C to the PN532, USB CDC to the host, watchdog, LED.

Kept thin on purpose: all decisions live in protocol.py, tracker.py and ring.py, which the tests run
under CPython and the micropython unix port. This file is only compiled (mpy-cross) on the PC; it must be
checked on real parts (see firmware/README.md).
"""

import os
import select
import sys
import time

import machine

from shoefw.pn532 import PN532
from shoefw.protocol import ShoeProtocol

# Wiring (hardware/shoe.md, firmware/README.md): PN532 on I2C0, SDA GP4 (pin 6), SCL GP5 (pin 7).
I2C_ID = 0
SDA_PIN = 4
SCL_PIN = 5
I2C_HZ = 100000  # the PN532 stretches the clock; 100 kHz is plenty for ~40-byte answers
WATCHDOG_MS = 4000  # the RP2040's limit is 8388 ms; one loop pass takes well under 100 ms
LOOP_PAUSE_MS = 5
MAX_HOST_BYTES = 256  # per loop pass, so a flood from the host cannot starve the scans


class MonotonicMs:
    """Milliseconds since boot that never wrap (time.ticks_ms wraps after about 12 days)."""

    def __init__(self) -> None:
        self._last = time.ticks_ms()
        self._now = 0

    def __call__(self) -> int:
        tick = time.ticks_ms()
        self._now += time.ticks_diff(tick, self._last)
        self._last = tick
        return self._now


def make_reader() -> object:
    """The RFID reader. To use another chip, return an object with scan() and reset() here."""
    i2c = machine.I2C(I2C_ID, sda=machine.Pin(SDA_PIN), scl=machine.Pin(SCL_PIN), freq=I2C_HZ)
    return PN532(i2c, sleep_ms=time.sleep_ms)


def boot_id() -> str:
    """A random id for this boot, so the host never confuses read 1 of two boots."""
    return "".join([f"{byte:02X}" for byte in os.urandom(4)])


def run() -> None:
    """The main loop: host bytes in, one scan, frames out, feed the watchdog. Never returns."""
    watchdog = machine.WDT(timeout=WATCHDOG_MS)
    led = machine.Pin("LED", machine.Pin.OUT)
    shoe = ShoeProtocol(make_reader(), boot_id())
    shoe.reset_reader()
    clock = MonotonicMs()
    host_in = sys.stdin.buffer
    host_out = sys.stdout.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    while True:
        watchdog.feed()
        now = clock()
        received = 0
        while received < MAX_HOST_BYTES and poller.poll(0):
            shoe.receive(host_in.read(1), now)
            received += 1
        fresh = shoe.step(now)
        out = shoe.take_output()
        if out:
            host_out.write(out)  # dropped by the USB stack while no host has the port open
        led.value(1 if fresh else 0)
        time.sleep_ms(LOOP_PAUSE_MS)
