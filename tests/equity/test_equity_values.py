"""The enumerator's hand values are DealerPi's own (dealerpi.evaluation), so hands order exactly as at the
showdown: random hands with a fixed seed, from the full deck and from two suits (flushes often), every
game's evaluator (issue 21). bench/bench_equity.py repeats this on 100,000 hands."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np
import pytest

from dealerpi.cards import HEXADEC, STANDARD, Deck
from dealerpi.equity.evaluate import BoardValues
from dealerpi.equity.spots import Kind
from dealerpi.equity.standard import RANK_KEYS, tables
from dealerpi.evaluation import fileem, high, low, omaha

HANDS = 150          # per game: 3,000 (hand, board) pairs; File 'em's own evaluator is slow, a third of it
BOARDS_PER_HAND = 20

GAMES: dict[str, tuple[Kind, Deck, int, int]] = {   # kind, deck, hole cards, board cards
    "holdem": (Kind.HOLDEM, STANDARD, 2, 5),
    "omaha": (Kind.OMAHA, STANDARD, 4, 5),
    "omaha hi-lo": (Kind.OMAHA8, STANDARD, 4, 5),
    "file 'em": (Kind.FILEEM, HEXADEC, 3, 7),
}
REFERENCE: dict[Kind, Callable[[Sequence[str], Sequence[str]], int | None]] = {
    Kind.HOLDEM: high.evaluate, Kind.OMAHA: omaha.evaluate_high, Kind.OMAHA8: omaha.evaluate_high,
    Kind.FILEEM: fileem.evaluate,
}


def _check(game: str, suits: str, seed: int) -> int:
    """Compare every value on HANDS x BOARDS_PER_HAND random (hand, board) pairs; return how many."""
    kind, deck, hole, board_size = GAMES[game]
    cards = [card for card in deck.cards if card[1] in suits]
    rng = random.Random(seed)
    compared = 0
    for _ in range(HANDS // 3 if kind is Kind.FILEEM else HANDS):
        hand = rng.sample(cards, hole)
        rest = [card for card in cards if card not in hand]
        boards = [rng.sample(rest, board_size) for _ in range(BOARDS_PER_HAND)]
        values = BoardValues(kind, [hand])
        sums = np.stack([values.features(board).sum(axis=1) for board in boards], axis=1)
        high_values, low_values = values(sums)
        for b, board in enumerate(boards):
            assert high_values[0, b] == REFERENCE[kind](hand, board), (hand, board)
            if kind is Kind.OMAHA8:
                assert low_values is not None
                assert low_values[0, b] == (low.evaluate_omaha_low8(hand, board) or 0), (hand, board)
            compared += 1
    return compared


def _pairs(game: str) -> int:
    return (HANDS // 3 if game == "file 'em" else HANDS) * BOARDS_PER_HAND


@pytest.mark.parametrize("game", GAMES)
def test_values_equal_dealerpis_evaluator_on_random_hands(game: str) -> None:
    assert _check(game, "shdc", seed=21) == _pairs(game)


@pytest.mark.parametrize("game", GAMES)
def test_values_equal_dealerpis_evaluator_when_flushes_are_common(game: str) -> None:
    """Two suits only: in hold'em about half the boards make a flush for someone, File 'em's seven of one
    suit comes often enough to be checked."""
    assert _check(game, "sh", seed=2100) == _pairs(game)


def test_rank_keys_give_every_five_card_rank_multiset_its_own_sum() -> None:
    """SKPokerEval's property that the rank-class table relies on: 6,175 multisets (13 ranks, five cards, at
    most four of a rank) and as many different sums."""
    table = tables()
    sums = np.array(RANK_KEYS)[table.class_ranks].sum(axis=1)
    assert len(table.class_ranks) == 6175
    assert len(set(sums.tolist())) == 6175
