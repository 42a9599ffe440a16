"""The table read by seat number: what the views, the daemon, the simulator and the journal replay ask.

Functions of the between-hands record and the hand in progress (or just finished), answering in seats and
chips, never in the hand's player indices. Hole cards come out one seat at a time (``hole_cards``, for that
seat's own display) or as tabled at the showdown (``shown_cards``): no query returns another seat's secret.
``Table`` (table.py) offers each as a method.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dealerpi.engine.expectation import LegalActions
from dealerpi.engine.hand import Hand, Phase
from dealerpi.engine.play import HandPlay
from dealerpi.engine.state import TableState


class SeatStatus(StrEnum):
    """Where a seat stands; the value is the seat display's word."""

    EMPTY = "empty"
    WAITING = "waiting"          # seated, not dealt in
    AWAY = "away"
    IN = "in"                    # dealt in, with a live hand (or the hand just finished)
    FOLDED = "folded"
    ALL_IN = "all-in"


@dataclass(frozen=True, slots=True)
class SeatNow:
    """One seat now. ``stack``: chips behind (the hand's during a hand); ``bet``: this street's; ``won``: in
    the hand just finished; ``legal``: set when the action is on this seat and nothing blocks it."""

    seat: int
    player: str | None
    stack: int
    status: SeatStatus
    dealt_in: bool = False
    bet: int = 0
    won: int = 0
    is_button: bool = False
    blind: str | None = None     # "SB", "BB", "STR" (a straddle) during the hand
    legal: LegalActions | None = None


@dataclass(frozen=True, slots=True)
class PotNow:
    """A pot of the hand in progress and the seats that can win it (POT-1)."""

    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealtHand:
    """The hand in progress or just played, as the PHH writer (history/from_hand.py) needs it: the engine's
    ``Hand``, by player index, and what it was dealt with, per index (player i sits in ``seats[i]``). Hole
    cards are in ``hand``: for the hand histories written once the hand is over, never for a display."""

    hand: Hand
    number: int
    seats: tuple[int, ...]
    players: tuple[str, ...]
    blinds: tuple[int, ...]       # each player's blind, his straddle included (BLD-9)
    antes: tuple[int, ...]
    dead: tuple[int, ...]         # dead blinds (BLD-6, BLD-7)
    seat_count: int               # the seats of the table


def dealt_hand(play: HandPlay | None) -> DealtHand | None:
    if play is None:
        return None
    plan, straddles = play.plan, dict(play.straddles)
    order = plan.order
    return DealtHand(play.hand, play.number, order, play.players,
                     tuple(plan.blinds.get(s, 0) + straddles.get(s, 0) for s in order),
                     tuple(plan.antes.get(s, 0) for s in order), tuple(plan.dead.get(s, 0) for s in order),
                     play.config.seats)


def seat_now(state: TableState, play: HandPlay | None, seat: int) -> SeatNow:
    info = state.seat(seat)
    if info is None:
        return SeatNow(seat, None, 0, SeatStatus.EMPTY)
    is_button = play is not None and play.plan.button == seat
    if play is None or seat not in play.plan.order:
        return SeatNow(seat, info.player, info.stack, SeatStatus.AWAY if info.away else SeatStatus.WAITING,
                       is_button=is_button)
    hand, index = play.hand, play.plan.order.index(seat)
    if hand.phase is Phase.COMPLETE:                 # DEAL-9: marked away after the hand, it says so at once
        return SeatNow(seat, info.player, info.stack, SeatStatus.AWAY if info.away else SeatStatus.IN, True,
                       won=hand.won[index], is_button=is_button)
    status = SeatStatus.FOLDED if hand.folded[index] else SeatStatus.ALL_IN if hand.stacks[index] == 0 \
        else SeatStatus.IN
    legal = None
    if hand.actor == index and hand.phase is Phase.BETTING and play.deal.blocks_action() is None:
        legal = LegalActions.of(hand.legal(), structure=hand.street_limits.structure, bet=hand.bets[index],
                                stack=hand.stacks[index])
    return SeatNow(seat, info.player, hand.stacks[index], status, True, hand.bets[index], 0, is_button,
                   _blind_label(play, seat), legal)


def _blind_label(play: HandPlay, seat: int) -> str | None:
    if any(s == seat for s, _ in play.straddles):
        return "STR"
    if seat == play.plan.bb:
        return "BB"
    if seat == play.plan.sb:
        return "SB"
    return None


def live(play: HandPlay | None) -> HandPlay | None:
    """The hand in progress, or None between hands."""
    return None if play is None or play.over else play


def pots(play: HandPlay | None) -> tuple[PotNow, ...]:
    """The pots of the hand in progress, main pot first (none between hands)."""
    hand = live(play)
    if hand is None:
        return ()
    order = hand.plan.order
    return tuple(PotNow(p.amount, tuple(order[i] for i in p.eligible)) for p in hand.hand.pots())


def payouts(play: HandPlay | None) -> tuple[tuple[int, int], ...]:
    """(seat, chips) the dealer pushes at the end of the hand just finished (none during a hand)."""
    if play is None or not play.over:
        return ()
    return tuple((play.plan.order[i], chips) for i, chips in enumerate(play.hand.won) if chips)


def board(play: HandPlay | None) -> tuple[tuple[str, ...], ...]:
    return () if play is None else tuple(tuple(b) for b in play.hand.boards)


def shown_cards(play: HandPlay | None) -> dict[int, tuple[str, ...]]:
    """Hole cards tabled at the showdown (POT-5, POT-7): the only hole cards the public may see."""
    if play is None:
        return {}
    hand = play.hand
    return {play.plan.order[i]: tuple(hand.hole[i]) for i in range(hand.n) if hand.shown[i]}


def hand_blinds(play: HandPlay | None) -> tuple[int, int] | None:
    """The small and big blind amounts the hand in play (or the last one) was dealt with; None before any."""
    return None if play is None else (play.stakes[0], play.stakes[1])


def blind_seats(play: HandPlay | None) -> tuple[int | None, int | None]:
    """The seats of the small and big blind in the hand in play or the last one: who is due the big blind next
    follows from them (TRN-8 balancing); (None, None) before the first hand."""
    return (None, None) if play is None else (play.plan.sb, play.plan.bb)


def starting_stacks(play: HandPlay | None) -> tuple[tuple[int, int], ...]:
    """Each dealt seat and its stack at the start of the hand in play or the last one, in the hand's order
    (first left of the button): TRN-4 ranks the players a hand busts by them."""
    return () if play is None else tuple(zip(play.plan.order, play.hand.starting, strict=True))


def returned_cards(play: HandPlay | None) -> frozenset[str]:
    """Cards of this hand that a procedure put back into the deck (a void four-card flop, BRD-*; an exposed
    card's set-aside): they may be dealt again."""
    return frozenset() if play is None else frozenset(play.deal.reusable)


def hole_cards(play: HandPlay | None, seat: int) -> tuple[str, ...]:
    """``seat``'s own hole cards in the current or last hand, for that seat's display only."""
    if play is None or seat not in play.plan.order:
        return ()
    return tuple(play.hand.hole[play.plan.order.index(seat)])
