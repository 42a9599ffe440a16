"""The simulator's virtual deck: every card once per shuffle, each with a tag the deck library maps back."""

from __future__ import annotations

import random

import pytest

from dealerpi.cards import HEXADEC, STANDARD, CardError, Deck
from dealerpi.shoe.decks import normalize_uid
from dealerpi.sim.deck import VirtualDeck, sim_library, tag_uid


@pytest.mark.parametrize("deck", [STANDARD, HEXADEC], ids=["standard-52", "hexadec-64"])
def test_a_shuffled_deck_deals_each_card_once_and_every_tag_names_its_card(deck: Deck) -> None:
    """Seed 000: the Hexadec deck has 64 cards; the standard deck 52. The library maps each tag to its card."""
    virtual = VirtualDeck(deck, random.Random(3))
    library = sim_library()
    cards = []
    while (uid := virtual.deal()) is not None:
        found = library.card_for(uid)
        assert found is not None and found[0] == f"sim-{deck.name}"
        cards.append(found[1])
    assert sorted(cards) == sorted(deck.cards)
    assert len(cards) == len(deck)
    assert cards != list(deck.cards)           # shuffled, not in deck order
    assert virtual.left == 0 and virtual.dealt == cards


def test_tags_are_seven_byte_uids_and_the_two_decks_never_share_one() -> None:
    tags = {tag_uid(STANDARD, i) for i in range(52)} | {tag_uid(HEXADEC, i) for i in range(64)}
    assert len(tags) == 116
    for uid in tags:
        assert normalize_uid(uid) == uid and len(uid) == 14 and uid.startswith("04")


def test_picking_a_card_takes_it_out_and_picking_it_again_deals_a_duplicate() -> None:
    virtual = VirtualDeck(STANDARD, random.Random(1))
    uid = virtual.pick("ah")
    assert sim_library().card_for(uid) == ("sim-standard", "Ah")
    assert "Ah" not in virtual.order and virtual.left == 51
    assert virtual.pick("Ah") == uid           # a second read of the same tag: the engine calls it a duplicate
    assert virtual.dealt == ["Ah", "Ah"] and virtual.last == "Ah"


def test_a_card_of_another_deck_is_refused_with_the_deck_named() -> None:
    virtual = VirtualDeck(STANDARD, random.Random(1))
    with pytest.raises(CardError, match="standard deck"):
        virtual.pick("Fh")


def test_shuffle_puts_every_card_back() -> None:
    virtual = VirtualDeck(HEXADEC, random.Random(2))
    for _ in range(10):
        virtual.deal()
    virtual.shuffle()
    assert virtual.left == 64 and virtual.dealt == [] and virtual.last is None
