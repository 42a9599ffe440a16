"""The independent oracle: plain itertools enumeration of every way the deck can finish the boards, each
board valued by DealerPi's own evaluators (dealerpi.evaluation) or PokerKit's hands, shares as exact
fractions. Nothing of dealerpi.equity is used, so it checks the enumerator, its tables and its showdown."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import combinations, permutations
from typing import TYPE_CHECKING

from dealerpi.cards import HEXADEC, STANDARD
from dealerpi.evaluation import fileem, high, low, omaha

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

# A hand's value: DealerPi's evaluators give an int, PokerKit a Hand; all the oracle needs is their order.
Value = Callable[[Sequence[str], Sequence[str]], "SupportsRichComparison | None"]
HIGH: dict[str, Value] = {"nlhe": high.evaluate, "plo": omaha.evaluate_high, "plo8": omaha.evaluate_high,
                          "fileem": fileem.evaluate}
SIZE = {"nlhe": 5, "plo": 5, "plo8": 5, "fileem": 7}


POT = 2 * 2520
"""A pot in units that split evenly among up to ten hands and then in halves (2 x lcm(1..10)): shares are
added as integers and made a Fraction once at the end."""


def split(values: Sequence[SupportsRichComparison | None]) -> list[int]:
    """One pot (``POT`` units) among the best values (None: no hand), evenly."""
    present = [v for v in values if v is not None]
    if not present:
        return [0] * len(values)
    best = max(present)
    winners = [v is not None and v == best for v in values]
    return [POT // sum(winners) if w else 0 for w in winners]


def board_shares(game: str, hands: Sequence[Sequence[str]], board: Sequence[str],
                 high_value: Value | None = None, low_value: Value | None = None) -> list[int]:
    """Each hand's share of one board's pot (POT-4: hi-lo halves, the whole pot to high without a low)."""
    highs = split([(high_value or HIGH[game])(hand, board) for hand in hands])
    if game != "plo8":
        return highs
    lows = split([(low_value or low.evaluate_omaha_low8)(hand, board) for hand in hands])
    if not any(lows):
        return highs
    return [(h + lo) // 2 for h, lo in zip(highs, lows, strict=True)]


def equities(game: str, hands: Sequence[Sequence[str]], board: Sequence[str] = (), dead: Sequence[str] = (),
             **evaluators: Value) -> list[Fraction]:
    """Exact equity of each hand: the average of its share over every completion of the board."""
    deck = HEXADEC if game == "fileem" else STANDARD
    out = {*dead, *board, *(card for hand in hands for card in hand)}
    stub = [card for card in deck.cards if card not in out]
    totals = [0] * len(hands)
    count = 0
    for rest in combinations(stub, SIZE[game] - len(board)):
        shares = board_shares(game, hands, (*board, *rest), **evaluators)
        totals = [t + s for t, s in zip(totals, shares, strict=True)]
        count += 1
    return [Fraction(t, POT * count) for t in totals]


def run_equities(game: str, hands: Sequence[Sequence[str]], boards: Sequence[Sequence[str]],
                 dead: Sequence[str] = ()) -> list[Fraction]:
    """Several boards (runs, or a double board) finished one after another from one stub, each an equal part
    of the pot: every ordered deal of the missing cards, jointly (not board by board)."""
    out = {*dead, *(c for b in boards for c in b), *(card for hand in hands for card in hand)}
    stub = [card for card in STANDARD.cards if card not in out]
    missing = [SIZE[game] - len(b) for b in boards]
    totals = [0] * len(hands)
    count = 0
    for deal in permutations(stub, sum(missing)):
        at = 0
        for board, need in zip(boards, missing, strict=True):
            shares = board_shares(game, hands, (*board, *deal[at:at + need]))
            totals = [t + s for t, s in zip(totals, shares, strict=True)]
            at += need
        count += 1
    return [Fraction(t, POT * count * len(boards)) for t in totals]
