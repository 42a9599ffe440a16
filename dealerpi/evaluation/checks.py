"""Input checks shared by the evaluators: each card of the deck in play, none twice, enough of them.

Unknown card strings raise :class:`dealerpi.cards.CardError`; the rest raise :class:`HandError`. The fast
paths call these only when something looks wrong, so a good hand pays nothing for the messages.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from dealerpi.cards import CardError, Deck

_LOGGER = logging.getLogger(__name__)


class HandError(ValueError):
    """Cards that do not make a hand: too few for the game, or the same card twice."""


def check_cards(cards: Sequence[str], deck: Deck, *, minimum: int) -> None:
    """Raise CardError for a card not of ``deck``, HandError for a repeated card or fewer than ``minimum``."""
    seen: set[str] = set()
    for card in cards:
        if card not in deck:
            raise CardError(f"{card!r} is not a card of the {deck.name} deck (a rank of {deck.ranks}, then a "
                            f"suit of {deck.suits}, e.g. {deck.cards[-1]!r})")
        if card in seen:
            raise HandError(f"{card} appears twice in one hand")
        seen.add(card)
    if len(cards) < minimum:
        raise HandError(f"a {deck.name} hand needs at least {minimum} cards, got {len(cards)}: "
                        f"{' '.join(cards) or 'none'}")
