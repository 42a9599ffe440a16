"""Building the views from the table: pure functions, no drawing, through the engine's seat-numbered queries.

``seat_view`` asks for one seat's own data only (``Table.seat``, ``Table.hole_cards(seat)``): the other seats'
hole cards are never looked at, so a seat's view cannot carry them. Hole cards reach the public view only for
hands tabled at the showdown (``Table.shown_cards``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from dealerpi.engine import SeatStatus, Table, Waiting
from dealerpi.views.model import Alert, DealerView, PotView, SeatView
from dealerpi.wire.pauses import DEALER_WORDS


def seat_view(table: Table, seat: int, *, show_own_cards: bool = False, alert: Alert | None = None) -> SeatView:
    """What seat ``seat``'s display may show."""
    config = table.config
    blinds = (config.small_blind, config.big_blind) if config else (0, 0)
    now = table.seat(seat)
    if now.status is SeatStatus.EMPTY:
        return SeatView(seat=seat, player=None, stack=0, blinds=blinds, hand_number=table.hand_number)
    view = SeatView(seat=seat, player=now.player, stack=now.stack, status=now.status.value, blinds=blinds,
                    hand_number=table.hand_number, is_button=now.is_button, alert=alert)
    if not now.dealt_in:
        return view
    if table.between_hands:                      # the hand just finished: its board and what this seat won
        return replace(view, board=table.board(), won=now.won)
    legal = now.legal
    span = None if legal is None else legal.raise_span
    clock = table.clock if table.clock is not None and table.clock.seat == seat else None
    structure = legal.structure if legal is not None else config.game.structure if config else view.structure
    return replace(
        view, structure=structure, hole_cards=table.hole_cards(seat) if show_own_cards else (), board=table.board(),
        pot=table.pot_total(), bet=now.bet, to_call=0 if legal is None else (legal.call_to or now.bet) - now.bet,
        min_raise_to=None if span is None else span[0], max_raise_to=None if span is None else span[1],
        can_check=legal is not None and legal.check, your_action=legal is not None, blind=now.blind,
        clock=None if clock is None else clock.remaining, clock_final=clock is not None and clock.counting_down)


# Alerts that stop the deal until the dealer follows their procedure (rules-digest sections 1-3, the shoe, the
# journal, an internal error): shown before notes and refusals.
_PROCEDURES = ("DEAL-", "EXP-", "MIS-", "BRD-", "SHOE", "JOURNAL", "ERROR")


def alert_order(alerts: Sequence[Alert]) -> tuple[Alert, ...]:
    """``alerts`` (oldest first, as they came) in the order the dealer reads them (issue 14: old alerts hid the
    live one): the procedures first, then the rest, the newest first within each."""
    newest_first = list(reversed(alerts))
    return tuple(sorted(newest_first, key=lambda alert: not alert.rule.startswith(_PROCEDURES)))


def pause_words(reason: str) -> str:
    """The dealer's line while the table is paused (TRN-5): the room's reasons in the dealer's words; any other
    pause (the host's, a floor decision) with its reason, to wait for the resume."""
    if reason in DEALER_WORDS:
        return DEALER_WORDS[reason]
    return f"PAUSED: {reason}: wait for resume" if reason else "PAUSED: wait for resume"


def expect_words(table: Table) -> str:
    """What the table waits for, as the dealer reads it: between hands on a paused table, the pause and what to
    do (issue 15: the dealer saw "start", and learnt of the pause only when START was refused)."""
    waiting = table.expectation()
    paused = table.paused
    if paused is not None and waiting.waiting is Waiting.START:
        return pause_words(paused)
    return waiting.words()


def dealer_view(table: Table, alerts: Sequence[Alert] = (), *, shoe_online: bool = True) -> DealerView:
    """What the dealer's console shows; ``alerts`` are the recent ones the daemon keeps."""
    waiting = table.expectation()
    return DealerView(table.hand_number, expect_words(table), waiting.waiting,
                      pots=tuple(PotView(p.amount, p.eligible) for p in table.pots()), board=table.board(),
                      button=table.button(), alerts=tuple(alerts), payouts=table.payouts(), shoe_online=shoe_online)
