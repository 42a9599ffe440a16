"""What the table waits for next: one typed record, read by the dealer's display, the console, the simulator
and ``dealerpi replay --journal --json`` (which prints ``as_json()``, the format of docs/journal.md).

Readers compare ``waiting`` (an enum), never the display words.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from dealerpi.engine.betting import Legal
from dealerpi.engine.games import Structure


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
    bet or raise, else the smallest and largest to-amounts. ``structure`` is this street's (a bomb pot's river
    may be no-limit in a pot-limit game), ``bet`` the seat's chips in front on this street, ``all_in_to`` its
    bet plus its chips behind: what the words need to say "adds 5" and "all-in"."""

    fold: bool
    check: bool
    call_to: int | None
    raise_span: tuple[int, int] | None
    structure: Structure = Structure.NO_LIMIT
    bet: int = 0
    all_in_to: int = 0

    @classmethod
    def of(cls, legal: Legal, *, structure: Structure, bet: int, stack: int) -> LegalActions:
        """The hand's ``Legal`` (betting.py) as the face shows it."""
        low, high = legal.raise_min_to, legal.raise_max_to
        return cls(legal.fold, legal.check, legal.call_to, None if low is None or high is None else (low, high),
                   structure, bet, bet + stack)

    def words(self) -> tuple[str, str, str]:
        """The three buttons' words, e.g. ("FOLD", "CALL 6 (adds 5)", "RAISE 12-300 (all-in)")."""
        low, high = self.raise_span if self.raise_span is not None else (None, None)
        return ("FOLD", call_words(self.call_to, self.bet, self.all_in_to),
                raise_words(self.structure, low, high, bet=self.bet, facing=not self.check or self.bet > 0,
                            all_in_to=self.all_in_to))


def call_words(call_to: int | None, bet: int, all_in_to: int, *, adds: bool = True) -> str:
    """The CHECK/CALL button's words. A call is said as the total it makes, as a dealer announces bets
    ("Raise, X" means a total of X: BET-2), with the chips it adds when the seat has some in already: the small
    blind 1 facing 6 reads "CALL 6 (adds 5)" (docs/seat-panel.md). ``adds`` False leaves that part out (a
    narrow screen)."""
    if call_to is None:
        return "CHECK"
    text = f"CALL {call_to}" + (" all-in" if call_to >= all_in_to else "")
    return text + (f" (adds {call_to - bet})" if adds and bet else "")


def raise_words(structure: Structure, low: int | None, high: int | None, *, bet: int, facing: bool,
                all_in_to: int, tag: bool = True) -> str:
    """The BET/RAISE button's words in the street's own structure, to-amounts as in BET-2: no-limit "BET 3-297
    (all-in)" (BET-1: any amount from the minimum to all-in); pot-limit "RAISE 12-40 (pot)" (BET-8: the pot
    is the most); fixed-limit one size, "BET 10", "RAISE 20" (BET-5), "RAISE 15 (all-in)" when short (BET-7).
    ``tag`` False leaves the bracket out (a narrow screen)."""
    if low is None or high is None:
        return "no raise"
    verb = "RAISE" if facing else "BET"
    amounts = str(low) if low == high else f"{low}-{high}"
    if high >= all_in_to:
        name = "all-in"
    elif structure is Structure.POT_LIMIT:
        name = "pot"
    else:
        name = ""
    return f"{verb} {amounts}" + (f" ({name})" if tag and name else "")


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
