"""Scripted tournament hands for the room's tests: a hand where chosen players go all in and lose to the
biggest stack's aces, everyone else folds (the tables' daemons on fake devices, cards entered as inputs)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dealerpi.engine import Waiting

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
    player: str = min((info for info in controller.table.seats.values() if info.stack),
                      key=lambda info: (info.stack, info.seat)).player
    return player


def play(controller: Any, losers: Iterable[str] = (), walk: bool = False) -> str:
    """One hand: ``losers`` go all in, the biggest other stack calls with aces and wins; the rest fold (with
    ``walk`` everyone folds to the big blind). The winner's name (with ``walk``, the aces' holder)."""
    hand = Hand(controller, losers, walk)
    hand.until(lambda: False)
    return hand.winner


class Hand:
    """:func:`play`'s hand, played input by input: :meth:`until` stops when a condition holds (the room looks
    at the table mid-hand, e.g. while a player is all in), and goes on to the hand's end when called again."""

    def __init__(self, controller: Any, losers: Iterable[str] = (), walk: bool = False,
                 shove: bool = False) -> None:
        """``shove``: the first to act goes all in and everyone else folds (nobody busts)."""
        table = self.table = controller.table
        self.controller, self.walk, self.shove = controller, walk, shove
        self.shover: int | None = None
        self.losing = set(losers)
        submit(controller, {"type": "start"})
        dealt = {seat: table.state.seat(seat) for seat in table.dealt_seats()}
        names: dict[int, str] = {seat: info.player for seat, info in dealt.items() if info is not None}
        self.names = names
        assert self.losing <= set(names.values()), (self.losing, names)
        stack = {seat: info.stack for seat, info in dealt.items() if info is not None}
        self.winner_seat = max((s for s, p in names.items() if p not in self.losing), key=lambda s: (stack[s], -s))
        assert all(stack[s] <= stack[self.winner_seat] for s, p in names.items() if p in self.losing), \
            "the winner must cover"
        self.cards: dict[int, list[str]] = {}
        spare = iter(OTHERS)
        lose = iter(LOSERS)
        for seat, name in names.items():
            self.cards[seat] = list(WINNER if seat == self.winner_seat else next(lose) if name in self.losing
                                    else next(spare))
        self.burns, self.board = iter(BURNS), iter(BOARD)

    @property
    def winner(self) -> str:
        return self.names[self.winner_seat]

    def until(self, stop: Any) -> bool:
        """Inputs until ``stop()`` holds (True) or the hand is over (False)."""
        table, controller = self.table, self.controller
        while not table.between_hands:
            if stop():
                return True
            expect = table.expectation()
            if expect.waiting is Waiting.CARD and expect.street is None:
                assert expect.seat is not None
                submit(controller, {"type": "card", "card": self.cards[expect.seat].pop(0)})
            elif expect.waiting is Waiting.BURN:
                submit(controller, {"type": "card", "card": next(self.burns)})
            elif expect.waiting is Waiting.CARD:
                submit(controller, {"type": "card", "card": next(self.board)})
            elif expect.waiting is Waiting.ACTION:
                seat, legal = expect.seat, expect.legal
                assert seat is not None and legal is not None
                if self.shove:
                    self.shover = seat if self.shover is None else self.shover
                    action = "all_in" if seat == self.shover else "fold"
                elif self.walk:
                    action = "fold"
                elif self.names[seat] in self.losing:
                    action = "all_in"
                elif seat == self.winner_seat:
                    action = "check" if legal.check else "call"
                else:
                    action = "check" if legal.check and not self.losing else "fold"
                submit(controller, {"type": "act", "seat": seat, "action": action})
            elif expect.waiting is Waiting.SHOWDOWN:
                submit(controller, {"type": "show", "seat": expect.seats[0]})
            else:
                raise AssertionError(f"the scripted hand cannot go on: {expect.words()}")
        return False
