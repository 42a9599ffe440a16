"""The pure rules engine: games, hands, betting, pots, dealing, the table. No I/O, clock or randomness.

This module is the engine's face: what the daemon, the views, the simulator and the journal replay use.
"""

from dealerpi.engine.expectation import Expectation, LegalActions, Waiting
from dealerpi.engine.reading import PotNow, SeatNow, SeatStatus
from dealerpi.engine.records import Alert, DealRecord, Outcome
from dealerpi.engine.state import SeatState, TableState
from dealerpi.engine.table import Table

__all__ = ["Alert", "DealRecord", "Expectation", "LegalActions", "Outcome", "PotNow", "SeatNow", "SeatState",
           "SeatStatus", "Table", "TableState", "Waiting"]
