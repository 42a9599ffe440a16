"""Hardware adapters, each with a fake: buttons, LEDs and displays (the shoe is dealerpi.shoe)."""

from dealerpi.devices.buttons import ButtonBank, ButtonEdge, Debouncer
from dealerpi.devices.display import DisplaySlot
from dealerpi.devices.factory import Devices, FakeDevices, PiDevices, make_devices
from dealerpi.devices.leds import LedBank

__all__ = ["ButtonBank", "ButtonEdge", "Debouncer", "Devices", "DisplaySlot", "FakeDevices", "LedBank",
           "PiDevices", "make_devices"]
