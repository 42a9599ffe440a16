"""Building the views from the table: pure functions, no drawing.

``seat_view`` reads one seat's own data only: the other seats' hole cards are never looked at, so a seat's
view cannot carry them. Hole cards reach the public view only for hands tabled at the showdown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from dealerpi.engine.hand import Phase
from dealerpi.engine.table import Table
from dealerpi.views.model import Alert, DealerView, PotView, SeatView


def _in_hand(table: Table, seat: int) -> int | None:
    plan = table.plan
    if table.hand is None or plan is None or seat not in plan.order:
        return None
    return plan.order.index(seat)


def _blind_label(table: Table, seat: int) -> str | None:
    plan = table.plan
    if plan is None:
        return None
    if any(s == seat for s, _ in table.straddles):
        return "STR"
    if seat == plan.bb:
        return "BB"
    if seat == plan.sb:
        return "SB"
    return None


class _SeatCommon(TypedDict):
    """The SeatView fields every occupied seat's view sets the same way."""

    seat: int
    player: str | None
    blinds: tuple[int, int]
    hand_number: int
    is_button: bool
    alert: Alert | None


def seat_view(table: Table, seat: int, *, show_own_cards: bool = False, alert: Alert | None = None) -> SeatView:
    """What seat ``seat``'s display may show."""
    config = table.config
    blinds = (config.small_blind, config.big_blind) if config else (0, 0)
    info = table.seats.get(seat)
    if info is None:
        return SeatView(seat=seat, player=None, stack=0, blinds=blinds, hand_number=table.hand_number)
    hand, plan = table.hand, table.plan
    index = _in_hand(table, seat)
    common: _SeatCommon = {"seat": seat, "player": info.player, "blinds": blinds, "hand_number": table.hand_number,
                           "is_button": plan is not None and plan.button == seat, "alert": alert}
    if hand is None or index is None:
        status = "away" if info.away else "waiting"
        return SeatView(stack=info.stack, status=status, **common)
    if hand.phase is Phase.COMPLETE:
        return SeatView(stack=info.stack, status="in", board=tuple(tuple(b) for b in hand.boards),
                        pot=0, won=hand.won[index], **common)
    status = "folded" if hand.folded[index] else "all-in" if hand.stacks[index] == 0 else "in"
    mine = hand.actor == index and hand.phase is Phase.BETTING and table.deal is not None \
        and table.deal.blocks_action() is None
    to_call = min_to = max_to = None
    can_check = False
    if mine:
        legal = hand.legal()
        to_call = (legal.call_to or hand.bets[index]) - hand.bets[index]
        min_to, max_to, can_check = legal.raise_min_to, legal.raise_max_to, legal.check
    return SeatView(
        stack=hand.stacks[index], status=status,
        hole_cards=tuple(hand.hole[index]) if show_own_cards else (),
        board=tuple(tuple(b) for b in hand.boards), pot=hand.pot_total(), bet=hand.bets[index],
        to_call=to_call or 0, min_raise_to=min_to, max_raise_to=max_to, can_check=can_check,
        your_action=mine, blind=_blind_label(table, seat), **common)


def dealer_view(table: Table, alerts: Sequence[Alert] = (), *, shoe_online: bool = True) -> DealerView:
    """What the dealer's console shows; ``alerts`` are the recent ones the daemon keeps."""
    hand, plan = table.hand, table.plan
    waiting = table.expectation()
    expect = waiting.words()
    if hand is None or plan is None:
        return DealerView(table.hand_number, expect, waiting.waiting, button=table.lineup.button, alerts=tuple(alerts),
                          shoe_online=shoe_online)
    board = tuple(tuple(b) for b in hand.boards)
    payouts: tuple[tuple[int, int], ...] = ()
    pots: tuple[PotView, ...] = ()
    if hand.phase is Phase.COMPLETE:
        payouts = tuple((plan.order[i], chips) for i, chips in enumerate(hand.won) if chips)
    else:
        pots = tuple(PotView(p.amount, tuple(plan.order[i] for i in p.eligible)) for p in hand.pots())
    return DealerView(table.hand_number, expect, waiting.waiting, pots=pots, board=board, button=plan.button,
                      alerts=tuple(alerts), payouts=payouts, shoe_online=shoe_online)


def showdown_cards(table: Table) -> dict[int, tuple[str, ...]]:
    """Hole cards tabled at the showdown (POT-5, POT-7): the only hole cards the public may see."""
    hand, plan = table.hand, table.plan
    if hand is None or plan is None:
        return {}
    return {plan.order[i]: tuple(hand.hole[i]) for i in range(hand.n) if hand.shown[i]}
