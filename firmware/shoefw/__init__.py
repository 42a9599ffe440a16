"""The card shoe's firmware (MicroPython on a Raspberry Pi Pico).

Logic modules (tracker, ring, protocol, pn532) import no hardware and run under CPython with a fake
reader and a fake clock; board.py is the thin glue to machine, I2C and USB CDC.
"""
