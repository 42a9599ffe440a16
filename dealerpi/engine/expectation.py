"""What the table waits for next: one typed record, read by the dealer's display, the console, the simulator
and ``dealerpi replay --journal --json`` (which prints ``as_json()``, the format of docs/journal.md).

Readers compare ``waiting`` (an enum), never the display words.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from dealerpi.engine.betting import Legal


class Waiting(StrEnum):
    """The kind of input the table needs next; the value is the journal's ``"expect"`` word."""

    TABLE = "table"                # no table yet: the first input is {"type": "table", ...}
    START = "start"                # between hands
    CARD = "card"                  # a hole card for ``seat``, or a board card for ``street``
    BURN = "burn"
    BURN_CHOICE = "burn choice"    # BRD-1: the dealer picks the burn among ``cards``
    ACTION = "action"              # ``seat`` is to act; ``legal`` says what it may do
    SHOWDOWN = "showdown"          # ``seats`` still have to show or muck


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the seat to act may do: ``call_to`` None when it can check; ``raise_span`` None when it cannot
    bet or raise, else the smallest and largest to-amounts."""

    fold: bool
    check: bool
    call_to: int | None
    raise_span: tuple[int, int] | None

    @classmethod
    def of(cls, legal: Legal) -> LegalActions:
        """The hand's ``Legal`` (betting.py) as the face shows it."""
        low, high = legal.raise_min_to, legal.raise_max_to
        return cls(legal.fold, legal.check, legal.call_to, None if low is None or high is None else (low, high))


@dataclass(frozen=True, slots=True)
class Expectation:
    """What the table waits for. Only the fields of ``waiting``'s kind are set (see ``Waiting``)."""

    waiting: Waiting
    seat: int | None = None
    street: str | None = None           # "flop", "turn board 2", ... for a board card
    cards: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()
    legal: LegalActions | None = None

    def as_json(self) -> dict[str, Any]:
        """The journal format's ``next`` object (docs/journal.md)."""
        data: dict[str, Any] = {"expect": self.waiting.value}
        if self.waiting is Waiting.CARD:
            data["for"] = f"seat {self.seat}" if self.street is None else self.street
        elif self.waiting is Waiting.BURN_CHOICE:
            data["cards"] = list(self.cards)
        elif self.waiting is Waiting.ACTION and self.legal is not None:
            legal = self.legal
            data["seat"] = self.seat
            data["legal"] = {"fold": legal.fold, "check": legal.check, "call": legal.call_to,
                             "raise": None if legal.raise_span is None else list(legal.raise_span)}
        elif self.waiting is Waiting.SHOWDOWN:
            data["seats"] = list(self.seats)
        return data

    def words(self) -> str:
        """A short line for the dealer: "burn", "card to seat 4", "action on seat 5", "start"."""
        if self.waiting is Waiting.CARD:
            return f"card to seat {self.seat}" if self.street is None else f"{self.street} card"
        if self.waiting is Waiting.ACTION:
            return f"action on seat {self.seat}"
        if self.waiting is Waiting.SHOWDOWN:
            return "showdown: " + " ".join(f"seat {s}" for s in self.seats)
        if self.waiting is Waiting.BURN_CHOICE:
            return "pick the burn: " + " ".join(self.cards)
        return self.waiting.value
