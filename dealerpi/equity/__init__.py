"""Exact equities for every game DealerPi deals (issue 21), for the broadcast and ``dealerpi equity``."""

from dealerpi.equity.compute import compute_equities, compute_outs
from dealerpi.equity.evaluate import warm_up
from dealerpi.equity.result import Card, EquityError, EquityResult, HandEquity, Outs

__all__ = ["Card", "EquityError", "EquityResult", "HandEquity", "Outs", "compute_equities", "compute_outs",
           "warm_up"]
