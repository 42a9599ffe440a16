"""The pure rules engine: games, hands, betting, pots, dealing, the table. No I/O, clock or randomness.

This module is the engine's face: what the daemon, the views, the simulator and the journal replay use.
Its names are imported when first read (PEP 562's module ``__getattr__``), not when the package is: importing
one engine module (``dealerpi.engine.games``, as ``dealerpi replay`` does) imports this package first, and
eagerly it would pull in the Table and everything behind it, doubling the replay's start-up (docs/replay.md).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dealerpi.engine.events import Event, HandFinal, HandStarted, Left, Outcome, Sat, Undone
    from dealerpi.engine.expectation import Expectation, LegalActions, Waiting
    from dealerpi.engine.hand_log import (
        BetOrRaisedTo,
        BoardDealt,
        CheckedOrCalled,
        Folded,
        HoleDealt,
        HoleSwapped,
        Killed,
        LogEntry,
        Mucked,
        RunsAgreed,
        Shown,
        StreetRetracted,
    )
    from dealerpi.engine.reading import DealtHand, PotNow, SeatNow, SeatStatus
    from dealerpi.engine.records import Alert, DealRecord, Posted, PotPaid
    from dealerpi.engine.state import SeatState, TableState
    from dealerpi.engine.table import Table

_MODULES = {
    **dict.fromkeys(["Event", "HandFinal", "HandStarted", "Left", "Outcome", "Sat", "Undone"], "events"),
    "Expectation": "expectation", "LegalActions": "expectation", "Waiting": "expectation",
    **dict.fromkeys(["BetOrRaisedTo", "BoardDealt", "CheckedOrCalled", "Folded", "HoleDealt", "HoleSwapped", "Killed",
                     "LogEntry", "Mucked", "RunsAgreed", "Shown", "StreetRetracted"], "hand_log"),   # Hand.log
    "DealtHand": "reading", "PotNow": "reading", "SeatNow": "reading", "SeatStatus": "reading",
    "Alert": "records", "DealRecord": "records", "PotPaid": "records", "Posted": "records",
    "SeatState": "state", "TableState": "state",
    "Table": "table",
}
"""Each re-exported name -> the engine module that defines it."""

__all__ = ["Alert", "BetOrRaisedTo", "BoardDealt", "CheckedOrCalled", "DealRecord", "DealtHand", "Event",
           "Expectation", "Folded", "HandFinal", "HandStarted", "HoleDealt", "HoleSwapped", "Killed", "Left",
           "LegalActions", "LogEntry", "Mucked", "Outcome", "Posted", "PotNow", "PotPaid", "RunsAgreed", "Sat",
           "SeatNow", "SeatState", "SeatStatus", "Shown", "StreetRetracted", "Table", "TableState", "Undone",
           "Waiting"]


def __getattr__(name: str) -> object:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value     # read once: later reads are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
