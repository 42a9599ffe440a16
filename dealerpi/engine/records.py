"""Plain records the table keeps: an alert, an input's outcome, one deal for the record."""

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
class Outcome:
    """What came of one input."""

    accepted: bool
    reason: str | None = None
    alerts: tuple[Alert, ...] = ()


@dataclass(slots=True)
class DealRecord:
    """One deal for the record: pots and who won them, boards, irregularities; seats, not indices."""

    number: int
    button: int
    seats: tuple[int, ...]
    boards: list[list[str]] = field(default_factory=list)
    pots: list[dict[str, Any]] = field(default_factory=list)
    irregularities: list[Alert] = field(default_factory=list)
    misdeal: bool = False
    fouled: bool = False
    posts: dict[int, dict[str, int]] = field(default_factory=dict)   # seat -> live / dead / ante chips posted
    hole: dict[int, list[str]] = field(default_factory=dict)
    shown: list[int] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"number": self.number, "button": self.button,
                "posts": {str(seat): post for seat, post in sorted(self.posts.items())},
                "boards": self.boards, "pots": self.pots,
                "irregularities": [{"rule": a.rule, "message": a.message} for a in self.irregularities],
                "misdeal": self.misdeal}
