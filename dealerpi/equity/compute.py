"""compute_equities and compute_outs: check the spot, finish every board, and add up the shares."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from math import comb, sqrt

import numpy as np

from dealerpi.equity import boards as board_draws
from dealerpi.equity.boards import Draws
from dealerpi.equity.evaluate import board_values
from dealerpi.equity.result import Card, EquityError, EquityResult, HandEquity, Outs
from dealerpi.equity.showdown import Tally, tally
from dealerpi.equity.spots import Kind, Spot, make_spot
from dealerpi.evaluation.registry import EVALUATORS

_LOGGER = logging.getLogger(__name__)

EXACT_LIMIT = 3_000_000
"""Most boards enumerated exactly for one board of the pot; File 'em beyond it (preflop: C(58, 7) boards) is
Monte Carlo. Every hold'em and Omaha spot is under it (preflop heads-up hold'em: C(48, 5) = 1,712,304)."""
DEFAULT_SAMPLES = 20_000
"""Monte Carlo boards when the enumeration is too big and no sample size is asked for."""


def compute_equities(game: str, hands: Sequence[Sequence[Card]], board: Sequence[Card] = (),
                     dead: Sequence[Card] = (), *, boards: Sequence[Sequence[Card]] | None = None, runs: int = 1,
                     samples: int | None = None, seed: int = 0) -> EquityResult:
    """Each hand's expected share of the pot, counting every card out of the deck.

    ``board``: the board so far (all the game's boards share it); ``boards`` instead: every board of every run
    as dealt so far (the engine's ``hand.boards``), each an equal part of the pot. ``runs``: each board is run
    that many times. ``dead``: cards out of the deck (folded hands, burns). ``samples``: force Monte Carlo
    with this many boards per board; by default every board is enumerated exactly unless there are more than
    ``EXACT_LIMIT`` (File 'em early streets), then ``DEFAULT_SAMPLES`` are drawn with ``seed``.
    Raises EquityError naming the argument at fault.
    """
    spot = make_spot(game, hands, board, dead, boards, runs)
    if samples is not None and samples < 2:
        raise EquityError(f"samples: {samples} is too few boards for Monte Carlo (2 or more)")
    count = len(spot.hands)
    equity, high, low, scoop = (np.zeros(count) for _ in range(4))
    variance = np.zeros(count)
    exact, evaluated = True, 0
    for index, (known, parts) in enumerate(spot.boards):
        weight = parts / spot.parts
        stub = spot.stub(known)
        missing = spot.game.board_size - len(known)
        total = comb(len(stub), missing)
        if samples is None and total <= EXACT_LIMIT:
            chunks = board_draws.exact_chunks(len(stub), missing)
            size = total
        else:
            exact = False
            size = samples or DEFAULT_SAMPLES
            chunks = board_draws.sample_chunks(len(stub), missing, size, seed + index)
        sums = _tally_board(spot, known, stub, chunks)
        evaluated += size
        mean = sums.equity / size
        equity += weight * mean
        high += weight * sums.high / size
        low += weight * sums.low / size
        scoop += weight * sums.scoops / size
        if not exact or samples is not None:
            spread = np.maximum(sums.squares / size - mean * mean, 0.0) * size / max(size - 1, 1)
            variance += weight * weight * spread / size
    hi_lo = spot.kind is Kind.OMAHA8
    errors = [sqrt(v) for v in variance] if not exact else [None] * count
    result_hands = tuple(
        HandEquity(cards, float(equity[i]),
                   float(high[i]) if hi_lo else None, float(low[i]) if hi_lo else None,
                   float(scoop[i]) if hi_lo else None, errors[i])
        for i, cards in enumerate(spot.hands))
    stderr = None if exact else max(e or 0.0 for e in errors)
    return EquityResult(spot.game.key, result_hands, exact, evaluated, stderr)


def _tally_board(spot: Spot, known: tuple[Card, ...], stub: tuple[Card, ...],
                 chunks: Iterator[Draws]) -> Tally:
    count = len(spot.hands)
    zero = np.zeros(count)
    sums = Tally(zero, zero, zero, zero, zero)
    for draws in chunks:
        high, low = board_values(spot.kind, spot.hands, known, stub, draws)
        sums = sums + tally(high, low)
    return sums


def compute_outs(game: str, hands: Sequence[Sequence[Card]], board: Sequence[Card],
                 dead: Sequence[Card] = ()) -> Outs | None:
    """Heads-up outs: the unseen cards (dead cards counted out) after which the other hand leads.

    "Leads" means a bigger share of the pot if the hand ended on that board (hi-lo: high and low halves).
    None when outs do not apply: not exactly two hands, or the next street is not a single card (preflop;
    the river is out; File 'em's two-card turn). Raises EquityError naming the argument at fault.
    """
    spot = make_spot(game, hands, board, dead, None, 1)
    known = spot.boards[0][0]
    ends = [sum(street.board_cards for street in spot.game.streets[:i + 1]) for i in range(len(spot.game.streets))]
    if len(spot.hands) != 2 or not known or len(known) not in ends[:-1]:
        return None
    if spot.game.streets[ends.index(len(known)) + 1].board_cards != 1:
        return None
    now = _shares(spot, known)
    leader = _leader(now)
    cards: list[list[Card]] = [[], []]
    ties: list[list[Card]] = [[], []]
    for card in spot.stub(known):
        after = _leader(_shares(spot, (*known, card)))
        for i in (0, 1):
            if after == i and leader != i:
                cards[i].append(card)
            elif after is None and leader == 1 - i:
                ties[i].append(card)
    return Outs(leader, (tuple(cards[0]), tuple(cards[1])), (tuple(ties[0]), tuple(ties[1])))


def _shares(spot: Spot, board: tuple[Card, ...]) -> tuple[float, float]:
    """The two hands' shares of the pot if the hand ended on ``board``, by the project's own evaluators."""
    high_eval = EVALUATORS["omaha_high" if spot.kind is Kind.OMAHA8 else spot.kind.value]
    high = np.array([[high_eval(hand, board) or 0] for hand in spot.hands], dtype=np.int64)
    low = None
    if spot.kind is Kind.OMAHA8:
        low = np.array([[EVALUATORS["omaha_low8"](hand, board) or 0] for hand in spot.hands], dtype=np.int64)
    share = tally(high, low).equity
    return float(share[0]), float(share[1])


def _leader(shares: tuple[float, float]) -> int | None:
    if shares[0] == shares[1]:
        return None
    return 0 if shares[0] > shares[1] else 1
