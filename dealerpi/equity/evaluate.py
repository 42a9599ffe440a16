"""Every hand's value on many boards at once, for the game's kind: the folded tables of :mod:`.standard`
(hold'em, Omaha, Omaha hi-lo) or File 'em's direct categories (:mod:`.hexadec`)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from dealerpi.equity import hexadec, standard
from dealerpi.equity.boards import Features
from dealerpi.equity.result import Card
from dealerpi.equity.showdown import Values
from dealerpi.equity.spots import Kind

_LOGGER = logging.getLogger(__name__)


class BoardValues:
    """The hands of a spot, folded once (tables grow as boards reach new classes); called with chunks of boards
    given by the sums of their cards' features."""

    def __init__(self, kind: Kind, hands: Sequence[Sequence[Card]]) -> None:
        self.kind, self.hands = kind, hands
        if kind is not Kind.FILEEM:
            self.folded = [standard.HandTables(hand, omaha=kind is not Kind.HOLDEM, low=kind is Kind.OMAHA8)
                           for hand in hands]

    def features(self, cards: Sequence[Card]) -> Features:
        """The cards' features for this game (:mod:`.boards`: what a board's sums are made of)."""
        return hexadec.features(cards) if self.kind is Kind.FILEEM else standard.features(cards)

    def __call__(self, sums: Features) -> tuple[Values, Values | None]:
        """High values (H, B) and, in hi-lo, low values (0: no low) of every hand on each complete board,
        given by the sums of its cards' features."""
        if self.kind is Kind.FILEEM:
            return hexadec.values(self.hands, sums), None
        boards = standard.reduce_boards(sums)
        high = np.stack([folded.high(boards) for folded in self.folded])
        if self.kind is not Kind.OMAHA8:
            return high, None
        return high, np.stack([folded.low(boards) for folded in self.folded])


def warm_up() -> None:
    """Build every game's tables now (a few tenths of a second, once per process), so that the first equity
    of the first hand is not late: the broadcast calls it at start-up."""
    standard.tables()
    hexadec.mask_tables()
