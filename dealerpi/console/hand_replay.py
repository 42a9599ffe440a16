"""A finished hand step by step, for the console's replayer: the engine replays the hand's own inputs from
the table just before its start, and after each one the page gets the board, the bets, the stacks, the pots
and the cards the role may see, with a line saying what happened.

The host sees every hole card as it was dealt; the dealer and the board see a hole card only once it is
tabled at the showdown (POT-5, POT-7), and read "a hole card to seat 3" and "burn" without the card. Cards
seen face up by everyone (an exposed or boxed card, EXP-1, EXP-6; the board) are named for every role.
The clock's ticks change nothing a replay shows and are not steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealerpi.console.histories import HOST, PlayedHand
from dealerpi.engine import Expectation, Table, Waiting

_VERBS = {"fold": "folds", "check": "checks", "call": "calls", "bet": "bets", "raise": "raises to",
          "all_in": "is all in"}


def _who(table: Table, seat: object) -> str:
    info = table.seats.get(seat) if isinstance(seat, int) else None
    return f"seat {seat}" + (f" ({info.player})" if info is not None and info.player else "")


def _words(entry: Mapping[str, Any], after: Table, expected: Expectation, board: tuple[tuple[str, ...], ...],
           reveal: bool) -> str:
    """What one input did, in the role's words (names from the between-hands record: they hold all hand)."""
    kind, seat = entry.get("type"), entry.get("seat")
    if kind == "start":
        extra = " (bomb pot)" if entry.get("bomb") else ""
        return f"hand #{after.hand_number}{extra}: button seat {after.button()}"
    if kind == "act":
        verb = _VERBS.get(str(entry.get("action")), str(entry.get("action")))
        amount = f" {entry['to']}" if entry.get("to") is not None and verb.endswith(("to", "bets")) else ""
        return f"{_who(after, seat)} {verb}{amount}"
    if kind == "card":
        seen = {card for cards in board for card in cards}
        new_board = list(dict.fromkeys(card for cards in after.board() for card in cards if card not in seen))
        if new_board:
            return "board: " + " ".join(new_board)
        if expected.waiting is Waiting.CARD and expected.seat is not None:
            card = f"{entry.get('card')} " if reveal else "a hole card "
            return f"{card}to {_who(after, expected.seat)}"
        return f"burn {entry.get('card')}" if reveal else "burn"
    if kind in ("exposed", "boxed"):
        return f"{kind} card {entry.get('card')}"
    if kind == "show":
        return f"{_who(after, seat)} shows " + " ".join(after.shown_cards().get(int(str(seat)), ()))
    if kind == "muck":
        return f"{_who(after, seat)} mucks"
    if kind == "run":
        return f"the board is run {entry.get('times')} times (POT-11)"
    if kind == "straddle":
        return f"{_who(after, seat)} straddles (BLD-9)"
    if kind == "dead":
        return f"{_who(after, seat)}'s hand is dead"
    if kind == "burn":
        return f"burn card chosen{' ' + str(entry.get('card')) if reveal else ''} (BRD-1)"
    return f"{kind}" + (f" {_who(after, seat)}" if seat is not None else "")


def _state(table: Table, reveal: bool, done: bool) -> dict[str, Any]:
    shown = table.shown_cards()
    seats = {}
    for seat in table.dealt_seats():
        now = table.seat(seat)
        cards = table.hole_cards(seat) if reveal else shown.get(seat, ())
        seats[str(seat)] = {"player": now.player, "stack": now.stack, "bet": now.bet, "status": now.status.value,
                            "cards": list(cards), "shown": seat in shown}
    return {"board": [list(board) for board in table.board()],
            "pots": [pot.amount for pot in table.pots()], "payouts": [list(p) for p in table.payouts()] if done else [],
            "seats": seats}


def steps(hand: PlayedHand, role: str) -> list[dict[str, Any]]:
    """The hand input by input for ``role``: ``{"what", "board", "pots", "payouts", "seats"}`` each."""
    reveal = role == HOST
    table = Table.from_snapshot(hand.before)
    out: list[dict[str, Any]] = []
    for entry in hand.inputs:
        if entry.get("type") == "tick":
            table.apply(entry)
            continue
        expected, board, count = table.expectation(), table.board(), len(table.records)
        table.apply(entry)
        finished = any(deal.number == hand.number and not deal.misdeal for deal in table.records[count:])
        if finished and entry.get("type") == "start":        # the next start settled a showdown left open
            last = dict(out[-1]) if out else _state(table, reveal, False)
            shown = set(hand.record.shown)
            seats = {s: {**v, "shown": int(s) in shown,
                         "cards": list(hand.record.hole.get(int(s), [])) if reveal or int(s) in shown else []}
                     for s, v in last.get("seats", {}).items()}
            won: dict[int, int] = {}
            for pot in hand.record.pots:
                for seat, chips in pot.won:
                    won[seat] = won.get(seat, 0) + chips
            out.append({**last, "seats": seats, "payouts": [[s, c] for s, c in sorted(won.items()) if c],
                        "what": "the showdown left open is settled from the cards tabled (POT-7)"})
            break
        out.append({"what": _words(entry, table, expected, board, reveal), **_state(table, reveal, finished)})
        if finished:
            break
    return out
