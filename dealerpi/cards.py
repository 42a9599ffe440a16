"""Decks and card notation: the standard 52-card deck and the 64-card Hexadec deck (seed 000).

A card is its canonical two-character string: rank then suit, e.g. ``"Ah"``, ``"Td"`` (standard) or
``"0s"``, ``"Fh"``, ``"As"`` (Hexadec). The same string can mean different cards in different decks
(``"As"`` is the ace of spades in the standard deck and the Hexadec "A" face card), so a string is always
parsed against the deck of the game being played.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

SUITS = "shdc"


class CardError(ValueError):
    """A card string that does not name a card of the deck in play."""


@dataclass(frozen=True)
class Deck:
    """A deck: its ranks from lowest to highest, its suits, and the cards they make.

    ``wheel_low`` names the rank that also plays low in the lowest straight (the ace; the Hexadec 0).
    """

    name: str
    ranks: str
    suits: str = SUITS
    wheel_low: str = ""
    cards: tuple[str, ...] = field(init=False)
    card_set: frozenset[str] = field(init=False, repr=False, compare=False)
    rank_index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(r + s for r in self.ranks for s in self.suits))
        object.__setattr__(self, "card_set", frozenset(self.cards))
        object.__setattr__(self, "rank_index", {r: i for i, r in enumerate(self.ranks)})

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, str) and len(card) == 2 and card[0] in self.rank_index and card[1] in self.suits

    def parse(self, text: str) -> str:
        """Return the canonical form of one card string, or raise CardError saying what was expected."""
        raw = text.strip()
        if len(raw) == 3 and raw[:2] == "10" and self.name == "standard":
            raw = "T" + raw[2]
        if len(raw) != 2:
            raise CardError(f"{text!r} is not a card: expected a rank ({self.ranks}) then a suit "
                            f"({self.suits}), e.g. {self.cards[-4]!r} ({self.name} deck)")
        rank, suit = raw[0].upper(), raw[1].lower()
        if rank not in self.rank_index:
            raise CardError(f"{text!r} is not a card of the {self.name} deck: rank {raw[0]!r} is not one of "
                            f"{' '.join(self.ranks)}")
        if suit not in self.suits:
            raise CardError(f"{text!r} is not a card of the {self.name} deck: suit {raw[1]!r} is not one of "
                            f"{' '.join(self.suits)}")
        return rank + suit

    def parse_many(self, text: str) -> tuple[str, ...]:
        """Parse several cards written together or apart: ``"AhKd"``, ``"Ah Kd"``, ``"Ah,Kd"``."""
        compact = re.sub(r"[\s,]+", "", text)
        if len(compact) % 2:
            raise CardError(f"{text!r} is not a list of cards: expected pairs of rank and suit, e.g. 'AhKd'")
        return tuple(self.parse(compact[i:i + 2]) for i in range(0, len(compact), 2))

    def rank_of(self, card: str) -> int:
        """The rank's index, 0 for the lowest rank."""
        return self.rank_index[card[0]]


STANDARD = Deck("standard", "23456789TJQKA", wheel_low="A")
# seed 000 and the digest's decisions: 1 < 2 < ... < 9 < A < ... < F < 0; the 0 also plays low (0-1-2-3-4-5-6).
HEXADEC = Deck("hexadec", "123456789ABCDEF0", wheel_low="0")

DECKS = {deck.name: deck for deck in (STANDARD, HEXADEC)}
