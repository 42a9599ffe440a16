"""Plain records the table keeps: an alert, one deal for the record (its posts and pots). An input's outcome,
which carries events, is in events.py (so this module imports none of them: no circle)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Alert:
    """An irregularity or refusal: the rule id of ``rules-digest.md`` and one short sentence for the dealer.
    It lives in the engine, which makes it; the views re-export it for the displays."""

    rule: str
    message: str


@dataclass(frozen=True, slots=True)
class Posted:
    """What one seat put in before the cards: a live blind (a straddle included, BLD-9), a dead blind
    (BLD-7) and an ante (BLD-10); a short stack posts less than the nominal amounts."""

    live: int = 0
    dead: int = 0
    ante: int = 0

    def as_json(self) -> dict[str, int]:
        return {"live": self.live, "dead": self.dead, "ante": self.ante}


@dataclass(frozen=True, slots=True)
class PotPaid:
    """One pot of a finished hand: its chips, the seats that could win it (POT-1), and the chips each winner
    took, as (seat, chips) in the hand's order (first left of the button)."""

    amount: int
    eligible: tuple[int, ...]
    won: tuple[tuple[int, int], ...]

    def as_json(self) -> dict[str, Any]:
        return {"amount": self.amount, "eligible": list(self.eligible),
                "won": {str(seat): chips for seat, chips in self.won}}


@dataclass(slots=True)
class DealRecord:
    """One deal for the record: pots and who won them, boards, irregularities; seats, not indices."""

    number: int
    button: int
    seats: tuple[int, ...]
    boards: list[list[str]] = field(default_factory=list)
    pots: list[PotPaid] = field(default_factory=list)
    irregularities: list[Alert] = field(default_factory=list)
    misdeal: bool = False
    fouled: bool = False
    posts: dict[int, Posted] = field(default_factory=dict)     # seat -> chips posted, for the seats that posted
    hole: dict[int, list[str]] = field(default_factory=dict)
    shown: list[int] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """The deal in the replay's JSON (docs/journal.md, ``hands``)."""
        return {"number": self.number, "button": self.button,
                "posts": {str(seat): post.as_json() for seat, post in sorted(self.posts.items())},
                "boards": self.boards, "pots": [pot.as_json() for pot in self.pots],
                "irregularities": [{"rule": a.rule, "message": a.message} for a in self.irregularities],
                "misdeal": self.misdeal}
