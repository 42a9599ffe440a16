"""Scripted tournament hands for the room's tests: a hand where chosen players go all in and lose to the
biggest stack's aces, everyone else folds (the tables' daemons on fake devices, cards entered as inputs)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dealerpi.engine.expectation import Waiting

WINNER = ("As", "Ah")
LOSERS = [("7c", "2d"), ("8c", "3d"), ("9c", "4d")]
OTHERS = [("Jc", "5h"), ("Qc", "6h"), ("Kc", "5s"), ("Tc", "6c"), ("Js", "4h"), ("Ts", "7h"), ("9s", "8s")]
BURNS = ["2h", "4s", "5c"]
BOARD = ["Kh", "Qd", "6s", "Jh", "3c"]   # aces win: no loser pairs above threes, no straight, no flush


def submit(controller: Any, entry: dict[str, Any]) -> None:
    outcome = controller.submit(entry)
    assert outcome.accepted, (entry, outcome.reason)
    controller.refresh()


def stacks(controller: Any) -> dict[str, int]:
    return {info.player: info.stack for info in controller.table.seats.values()}


def smallest(controller: Any) -> str:
    """The player with the fewest chips (the lowest seat among equals; not one out, at 0 until the room takes
    him off): he can be covered by the biggest."""
    return min((info for info in controller.table.seats.values() if info.stack),
               key=lambda info: (info.stack, info.seat)).player


def play(controller: Any, losers: Iterable[str] = (), walk: bool = False) -> str:
    """One hand: ``losers`` go all in, the biggest other stack calls with aces and wins; the rest fold (with
    ``walk`` everyone folds to the big blind). The winner's name (with ``walk``, the aces' holder)."""
    table = controller.table
    losing = set(losers)
    submit(controller, {"type": "start"})
    dealt = {seat: table.state.seat(seat) for seat in table.dealt_seats()}
    names = {seat: info.player for seat, info in dealt.items() if info is not None}
    assert losing <= set(names.values()), (losing, names)
    stack = {seat: info.stack for seat, info in dealt.items() if info is not None}
    winner_seat = max((s for s, p in names.items() if p not in losing), key=lambda s: (stack[s], -s))
    assert all(stack[s] <= stack[winner_seat] for s, p in names.items() if p in losing), "the winner must cover"
    cards: dict[int, list[str]] = {}
    spare = iter(OTHERS)
    lose = iter(LOSERS)
    for seat, name in names.items():
        cards[seat] = list(WINNER if seat == winner_seat else next(lose) if name in losing else next(spare))
    burns, board = iter(BURNS), iter(BOARD)
    while not table.between_hands:
        expect = table.expectation()
        if expect.waiting is Waiting.CARD and expect.street is None:
            assert expect.seat is not None
            submit(controller, {"type": "card", "card": cards[expect.seat].pop(0)})
        elif expect.waiting is Waiting.BURN:
            submit(controller, {"type": "card", "card": next(burns)})
        elif expect.waiting is Waiting.CARD:
            submit(controller, {"type": "card", "card": next(board)})
        elif expect.waiting is Waiting.ACTION:
            seat, legal = expect.seat, expect.legal
            assert seat is not None and legal is not None
            if walk:
                action = "fold"
            elif names[seat] in losing:
                action = "all_in"
            elif seat == winner_seat:
                action = "check" if legal.check else "call"
            else:
                action = "check" if legal.check and not losing else "fold"
            submit(controller, {"type": "act", "seat": seat, "action": action})
        elif expect.waiting is Waiting.SHOWDOWN:
            submit(controller, {"type": "show", "seat": expect.seats[0]})
        else:
            raise AssertionError(f"the scripted hand cannot go on: {expect.words()}")
    return names[winner_seat]
