"""Buttons to inputs: the seat panels' amount entry and the dealer console (pure state machines)."""

from dealerpi.input.dealer_buttons import ConsoleResult, DealerConsole
from dealerpi.input.seat import Key, Mode, Preset, SeatPanel, presets

__all__ = ["ConsoleResult", "DealerConsole", "Key", "Mode", "Preset", "SeatPanel", "presets"]
