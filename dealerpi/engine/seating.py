"""The records the between-hands logic passes around, and seats on a ring (BLD-1).

Seats are numbered ``1..table_seats`` clockwise, so "left of" a seat is the next seat clockwise. These types are
re-exported by ``dealerpi.engine.positions``; they live here so the small modules that plan a hand (missed
blinds, straddles) can share them without importing each other.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

_LOGGER = logging.getLogger(__name__)

# Missed-blind markers (BLD-7): which blinds passed a seat while its player was not dealt in.
MISSED_SB, MISSED_BB, MISSED_BOTH = "sb", "bb", "both"


class PositionError(ValueError):
    """A hand cannot be planned, or a post, straddle or buy-in is refused; the message names the rule."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """What the table knows of an occupied seat before a hand.

    ``new``: the player sat down and has not been dealt a hand yet (the table clears it once the seat was dealt
    in). ``wants_to_post``: a new or returning player asks to post now instead of waiting (BLD-6, BLD-7).
    """

    seat: int
    stack: int
    away: bool = False
    new: bool = False
    wants_to_post: bool = False


@dataclass(frozen=True, slots=True)
class Lineup:
    """Button and blind bookkeeping kept between hands; a table starts with ``Lineup()``.

    ``button``, ``sb`` and ``bb`` are the seats of the last hand's positions, even when dead (an empty seat can
    hold the dead small blind or the dead button). ``missed`` maps a seat to its missed-blind marker.
    ``no_button`` holds seats that made up a blind between the blinds at big-bet poker and may not have the
    button this round (seed 002 B16). ``start`` is the seat the dealer put the button on for the next hand.
    ``bb_poster`` is the seat that posted the last big blind: ``bb``, unless a player bought the blinds left
    of the button (seed 001), when the bookkeeping big blind stays where it was. ``passing`` holds seats whose
    player moved there and lets the blinds pass without penalty until they have gone by (BLD-8, B21).
    """

    button: int | None = None
    sb: int | None = None
    bb: int | None = None
    missed: Mapping[int, str] = field(default_factory=dict)
    no_button: frozenset[int] = frozenset()
    start: int | None = None
    bb_poster: int | None = None
    passing: frozenset[int] = frozenset()


class HandLists(NamedTuple):
    """A plan as the ``Hand`` takes it: one entry per player index (``order``)."""

    stacks: list[int]
    blinds: list[int]
    dead: list[int]
    antes: list[int]
    preflop_first: int


@dataclass(frozen=True, slots=True)
class HandPlan:
    """Who is dealt in and what each seat posts; ``after`` is the bookkeeping to keep once the hand is played.

    ``order`` is the Hand's player index order: the first dealt seat left of the button first, the seat with
    last action last (heads-up: big blind, then the button). ``blinds`` are live amounts (small blind, big
    blind, live posts of new and returning players); ``dead`` is dead money (a made-up small blind); ``antes``
    are antes (with a big-blind ante, the big blind pays for the table). ``sb`` and ``bb`` are the seats that
    post those blinds, None when nobody does. ``killed`` are absent seats dealt in and killed (tournaments).
    ``waiting`` are occupied seats not dealt in. ``before`` is the bookkeeping the plan was made from.
    """

    button: int
    order: tuple[int, ...]
    blinds: Mapping[int, int]
    dead: Mapping[int, int]
    antes: Mapping[int, int]
    sb: int | None
    bb: int | None
    preflop_first: int
    killed: tuple[int, ...]
    stacks: Mapping[int, int]
    waiting: tuple[int, ...]
    after: Lineup
    before: Lineup
    notes: tuple[tuple[str, str], ...]

    def hand_lists(self) -> HandLists:
        """Stacks, blinds, dead money and antes per player index, and the pre-flop first actor's index."""
        return HandLists(
            [self.stacks[s] for s in self.order],
            [self.blinds.get(s, 0) for s in self.order],
            [self.dead.get(s, 0) for s in self.order],
            [self.antes.get(s, 0) for s in self.order],
            self.order.index(self.preflop_first))


class Ring:
    """Seat arithmetic on a table of ``size`` seats numbered 1..size clockwise."""

    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        self.size = size

    def step(self, seat: int, k: int = 1) -> int:
        """The seat ``k`` places clockwise (negative: counter-clockwise)."""
        return (seat - 1 + k) % self.size + 1

    def distance(self, a: int, b: int) -> int:
        """Clockwise steps from ``a`` to ``b`` (0 when equal)."""
        return (b - a) % self.size

    def clockwise(self, seat: int) -> Iterator[int]:
        """Every seat once, starting left of ``seat`` and ending on ``seat`` itself."""
        for k in range(1, self.size + 1):
            yield self.step(seat, k)

    def next_in(self, seat: int, members: Collection[int]) -> int | None:
        """The first member clockwise after ``seat`` (``seat`` itself comes last), or None."""
        return next((s for s in self.clockwise(seat) if s in members), None)

    def prev_in(self, seat: int, members: Collection[int]) -> int | None:
        """The first member counter-clockwise before ``seat`` (``seat`` itself comes last), or None."""
        return next((self.step(seat, -k) for k in range(1, self.size + 1) if self.step(seat, -k) in members), None)

    def between(self, a: int, b: int) -> list[int]:
        """Seats strictly between ``a`` and ``b`` going clockwise (none when ``a == b``)."""
        return [self.step(a, k) for k in range(1, self.distance(a, b))]

    def order_after(self, button: int, members: Collection[int]) -> tuple[int, ...]:
        """``members`` in position order: first left of ``button``, ``button`` (if a member) last."""
        return tuple(s for s in self.clockwise(button) if s in members)


def merge_missed(old: str | None, missed: str) -> str:
    """Add a missed blind to a seat's marker: sb + bb = both."""
    if old is None or old == missed:
        return missed
    return MISSED_BOTH
