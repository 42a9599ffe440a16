"""What an equity calculation returns: one share of the pot per hand, and how it was worked out."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TypeAlias

_LOGGER = logging.getLogger(__name__)

Card: TypeAlias = str
"""A card as :mod:`dealerpi.cards` writes it: its canonical two-character string ("Ah", "Fh", "0s")."""


class EquityError(ValueError):
    """A spot that cannot be computed: a card not of the deck, a card twice, a hand or board of the wrong size.

    The message names the argument ("hand 2", "--board", "dead") so the command line can print it as is.
    """


@dataclass(frozen=True, slots=True)
class HandEquity:
    """One hand's expected share of the pot (0..1); ties split evenly.

    Hi-lo games also give ``high`` and ``low``: the expected share of the whole pot the hand wins with its
    high and with its low hand (``high + low == equity``; a pot with no qualifying low goes to the high
    hands whole), and ``scoop``: the chance of winning every part of a board's pot alone, averaged over the
    boards. ``stderr`` is the Monte Carlo standard error of ``equity`` (None when exact).
    """

    cards: tuple[Card, ...]
    equity: float
    high: float | None = None
    low: float | None = None
    scoop: float | None = None
    stderr: float | None = None


@dataclass(frozen=True, slots=True)
class EquityResult:
    """The equities of every hand of a spot, in the order the hands were given.

    ``exact``: every board was enumerated; otherwise ``samples`` boards were drawn at random (seeded) and
    ``stderr`` is the largest standard error of a hand's equity. ``boards``: complete boards evaluated,
    summed over the pot's boards (runs of one board have the same law and share one enumeration).
    """

    game: str
    hands: tuple[HandEquity, ...]
    exact: bool
    boards: int
    stderr: float | None = None

    @property
    def equities(self) -> tuple[float, ...]:
        return tuple(hand.equity for hand in self.hands)


@dataclass(frozen=True, slots=True)
class Outs:
    """Heads-up outs on the next card: ``leader`` is the hand ahead now (None when level); ``cards[i]`` are the
    unseen cards after which hand ``i`` alone is ahead when it is not now, ``ties[i]`` those after which it
    draws level from behind."""

    leader: int | None
    cards: tuple[tuple[Card, ...], tuple[Card, ...]]
    ties: tuple[tuple[Card, ...], tuple[Card, ...]]
