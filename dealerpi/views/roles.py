"""Each role's view of the table, as plain JSON-ready dicts: pure functions of the table and the daemon's state.

Secrecy by construction: the views are built from :func:`dealerpi.views.build.seat_view` without the seat's
own cards and from :func:`dealerpi.views.build.dealer_view`, neither of which carries a hole card, and no
card the shoe read is added here. The board (a public TV screen) also gets no alerts and no dealer notes:
an alert may name a card (a duplicate read, an exposed card), and the board never receives a card of a live
hand nor a mucked or folded one (issue 14). Board cards and the hole cards tabled at the showdown (POT-5)
are public and are sent to every role.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealerpi.engine import Table
from dealerpi.views.build import dealer_view, expect_words, seat_view
from dealerpi.views.hand_result import board_labels, bomb_pot, break_in, hand_result, next_input
from dealerpi.views.tournament import blinds_in_force, tournament_view


def _seat(table: Table, seat: int, tabled: tuple[str, ...]) -> dict[str, Any]:
    view = seat_view(table, seat)       # without show_own_cards: hole_cards stays empty
    info = table.seats.get(seat)
    return {"player": view.player, "stack": view.stack, "status": view.status, "bet": view.bet,
            "blind": view.blind, "button": view.is_button, "turn": view.your_action, "won": view.won,
            "cards": list(tabled) if view.player is not None else [],     # not on a seat its player left
            # away from the next hand on: between hands the status is still the last hand's (issue 19, item 12)
            "away": bool(info is not None and info.away)}


def public_view(table: Table) -> dict[str, Any]:
    """What anyone at the table may see: seats, board, pots, whose turn (the board role's whole view), and the
    hole cards tabled at the showdown: shown face up, they are public (POT-5); a mucked or folded hand is not
    tabled, so it is not here (``Table.shown_cards``, the engine's one query for the public's hole cards)."""
    config = table.config
    dealer = dealer_view(table)
    tabled = table.shown_cards()
    seats = range(1, config.seats + 1) if config is not None else range(0)
    return {
        "hand": table.hand_number,
        "game": config.game.key if config is not None else None,
        "blinds": blinds_in_force(table),            # a tournament's level's, not the table input's first
        "board": [list(cards) for cards in dealer.board],
        "pots": [{"amount": pot.amount, "eligible": list(pot.eligible)} for pot in dealer.pots],
        "payouts": [[seat, chips] for seat, chips in dealer.payouts],
        "seats": {str(seat): _seat(table, seat, tabled.get(seat, ())) for seat in seats},
        # for the room's tournament (TRN-4, TRN-5, TRN-8): between hands or not, a pause, blinds, starting stacks
        "in_hand": not table.between_hands,
        "paused": table.paused,                      # the reason while the pause holds
        "pausing": _pausing(table),                  # a pause asked for, held once a hand is over
        "last_blinds": list(table.blind_seats()),
        "next_hand": _next_hand(table),
        "starting_stacks": [list(pair) for pair in table.starting_stacks()],   # the room's TRN-4 (director/books.py)
        "bust_by": {str(seat): by for seat, by in table.bust_by().items()},   # the room's PKO (director/knockouts.py)
        "tournament": tournament_view(table),        # the level clock and the standings (TRN-1, TRN-4)
        "action": _action(table),
        "board_labels": board_labels(table),         # two boards, runs (issue 19: the board's labels)
        "bomb": bomb_pot(table),
        "result": hand_result(table),                # the hand just over: winners in words, pots named
        "break_in": break_in(table),                 # the director's clock: seconds to the next break
    }


def _pausing(table: Table) -> dict[str, Any] | None:
    pausing = table.pausing
    return None if pausing is None else {"reason": pausing[0], "after_hand": pausing[1]}


def _next_hand(table: Table) -> dict[str, int | None] | None:
    """Between hands, the seats of the button and blinds a START would deal now (the engine's plan): before a
    table's first hand the room's balancing knows from it who is due the big blind (TRN-8)."""
    roles = table.next_blind_seats()
    return None if roles is None else dict(zip(("button", "sb", "bb"), roles, strict=True))


def _action(table: Table) -> dict[str, Any] | None:
    """The seat to act and its three buttons' words, as its own screen says them (``LegalActions.words``:
    "CALL 6 (adds 5)", "RAISE 9-21 (pot)"), or None when no one is to act."""
    expectation = table.expectation()
    if expectation.legal is None:
        return None
    return {"seat": expectation.seat, "words": list(expectation.legal.words())}


def role_view(role: str, table: Table, status: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """The view for ``role``: the public view; the dealer adds what the table expects and the alerts; the host
    adds the status panel and ``extra`` (the session ledger)."""
    view = public_view(table)
    if role == "board":
        return view
    view["expect"] = expect_words(table)            # a paused table says so, and what to do (issue 15)
    view["next"] = next_input(table)                 # the Waiting kind: the phone's bar picks its control by it
    view["alerts"] = [{"rule": rule, "message": message} for rule, message in status.get("alerts", ())]
    view["shoe"] = bool(status.get("shoe_online"))
    if role == "host":
        view["status"] = {key: value for key, value in status.items() if key != "alerts"}
        view.update(extra)
    return view
