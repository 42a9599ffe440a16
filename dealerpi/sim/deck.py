"""The simulator's virtual deck: a shuffled deck of the game's cards, each with the RFID tag a real card carries.

A real deck is enrolled once (``dealerpi enroll``): each card's tag UID is read and written to a deck file
(``dealerpi.shoe.decks.DeckMap``). The simulator's two decks (standard and Hexadec) are deck maps of
made-up UIDs (7 bytes, as an NTAG21x sticker has), so a dealt card travels as a UID through the shoe's
frame codec and link, and is turned back into a card by the ``DeckLibrary``, the way a real one is.
The shuffle is the only randomness, and it lives here, at the edge, never in the engine.
"""

from __future__ import annotations

import logging
import random

from dealerpi.cards import DECKS, Deck
from dealerpi.shoe.decks import DeckLibrary, DeckMap

_LOGGER = logging.getLogger(__name__)

_TAG_MAKER = 0x04        # NXP's manufacturer byte, the first byte of every NTAG21x UID
_SIM_MARK = 0x53         # "S": a tag of the simulator's deck


def tag_uid(deck: Deck, index: int) -> str:
    """The made-up 7-byte UID of card ``index`` of ``deck``, spelled as the shoe's codec spells UIDs."""
    deck_byte = 0x40 + len(deck)            # 0x74 for 52 cards, 0x80 for 64: the two decks never share a tag
    return f"{_TAG_MAKER:02X}{_SIM_MARK:02X}{deck_byte:02X}{index:08X}"


def sim_deck_map(deck: Deck) -> DeckMap:
    """The enrolled map of the simulator's deck of ``deck``'s cards, named ``sim-<deck>``."""
    return DeckMap(f"sim-{deck.name}", deck, {tag_uid(deck, i): card for i, card in enumerate(deck.cards)})


def sim_library() -> DeckLibrary:
    """Every simulator deck, as the daemon's library of enrolled decks."""
    return DeckLibrary(sim_deck_map(deck) for deck in DECKS.values())


class VirtualDeck:
    """A shuffled deck with tags; ``deal`` takes the top card, ``pick`` takes a named one from anywhere.

    ``dealt`` keeps every card taken since the last shuffle, so the dealer can flag the last one exposed
    or boxed. Picking a card that was already dealt deals it again: a duplicate read, which the engine
    turns into its irregularity (as a second deck's card in the shoe would).
    """

    def __init__(self, deck: Deck, rng: random.Random | None = None) -> None:
        self.deck = deck
        self._rng = rng or random.Random()
        self._uid_of = {card: uid for uid, card in sim_deck_map(deck).tags.items()}
        self.order: list[str] = []
        self.dealt: list[str] = []
        self.shuffle()

    def shuffle(self) -> None:
        """All cards back in, in a new random order."""
        self.order = list(self.deck.cards)
        self._rng.shuffle(self.order)
        self.dealt = []

    @property
    def left(self) -> int:
        return len(self.order)

    @property
    def last(self) -> str | None:
        return self.dealt[-1] if self.dealt else None

    def deal(self) -> str | None:
        """The top card's UID, or None when the deck is empty."""
        if not self.order:
            return None
        card = self.order.pop(0)
        self.dealt.append(card)
        return self._uid_of[card]

    def take_out(self, cards: list[str]) -> None:
        """Take ``cards`` (dealt before a restart, read back from the journal) out of the deck, as dealt: the
        shoe must not deal them again (MIS-7, a fouled deck)."""
        self.order = [card for card in self.order if card not in cards]
        self.dealt = list(cards)

    def put_back(self, cards: list[str]) -> None:
        """``cards`` go back into the stub and the stub is shuffled (a void four-card flop, BRD-1 seed 002 B2;
        a premature card, BRD-2/3): they may be dealt again this hand."""
        self.dealt = [card for card in self.dealt if card not in cards]
        self.order += [card for card in cards if card not in self.order]
        self._rng.shuffle(self.order)

    def pick(self, text: str) -> str:
        """The UID of the named card (ValueError naming the deck if it is none of its cards)."""
        card = self.deck.parse(text)
        if card in self.order:
            self.order.remove(card)
        self.dealt.append(card)
        return self._uid_of[card]
