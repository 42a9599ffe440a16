"""Tournament prizes and finishing places (TRN-4).

Prizes come from a payout table of whole percentages per place (seed 001's example: 10 players, $30 each,
3 places paid 50/30/20 = $150/$90/$60). Amounts are whole units of the prize pool's currency; a pool that
does not divide exactly leaves remainder units, given one each to the best places from first.

Players who bust on the same hand at one table (digest TRN-4; PokerStars Live, WPT): the player who started
that hand with more chips finishes higher; players who started it with equal stacks share the places at
stake: the prizes of those places are added and split evenly, remainder units one each to the players in the
order the table names them (clockwise from the button, like odd chips in a pot, POT-3). The table passes the
starting stacks. Without them, everyone busted on the hand shares: hand-for-hand play across tables (TDA
RP-8-A: 52 left, 50 paid, 3 bust on one hand, all 3 share 50th place).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

_LOGGER = logging.getLogger(__name__)

DEFAULT_PAYOUT_PERCENTS = (50, 30, 20)          # seed 001: 10 players, 3 places paid


def prizes(pool: int, percents: Sequence[int]) -> tuple[int, ...]:
    """Prize per place (index 0 = first) from ``pool`` and whole ``percents`` that add up to 100."""
    if pool < 0:
        raise ValueError(f"a prize pool cannot be negative ({pool})")
    if not percents or any(p <= 0 for p in percents) or sum(percents) != 100:
        raise ValueError(f"payout percentages must be positive and add up to 100, not {list(percents)}")
    amounts = [pool * p // 100 for p in percents]
    for place in range(pool - sum(amounts)):
        amounts[place % len(amounts)] += 1
    return tuple(amounts)


def percents_for(by_field: Sequence[tuple[int, Sequence[int]]], entrants: int) -> tuple[int, ...]:
    """TRN-4 (seed 001: "the number of paid places depends on the field"): the payout row of a table of rows
    ``(players, percents)`` in increasing ``players``: the first row for fields of up to ``players``, the last row
    for any larger field."""
    if not by_field:
        raise ValueError("a payout table by field size needs at least one row")
    row = next((percents for players, percents in by_field if entrants <= players), by_field[-1][1])
    return tuple(row)


@dataclass(frozen=True, slots=True)
class Finish:
    """One player's result: ``place`` (shared places give everyone the best of them) and ``prize``."""

    player: str
    place: int
    prize: int


@dataclass(frozen=True, slots=True)
class Standings:
    """Who is left and who finished where. ``remaining`` players are still in; ``pool`` is the prize pool."""

    pool: int
    remaining: int
    percents: tuple[int, ...] = DEFAULT_PAYOUT_PERCENTS
    finishes: tuple[Finish, ...] = ()
    deal: tuple[tuple[str, int], ...] = ()   # a deal (engine/deals.py): what each player still in was paid instead

    @property
    def prizes(self) -> tuple[int, ...]:
        return prizes(self.pool, self.percents)

    def prize_for(self, place: int) -> int:
        table = self.prizes
        return table[place - 1] if place <= len(table) else 0

    def enter(self, buy_in: int) -> Standings:
        """A late entrant (or a player taking over a reserved stack) pays ``buy_in`` into the pool. He is
        still in, so everyone who finished already ranks one place lower (TRN-4: places count the whole
        field, TRN-9: a late entrant is part of it), and every finish is priced again from the larger pool."""
        entered = replace(self, pool=self.pool + buy_in, remaining=self.remaining + 1)
        return entered.priced(tuple(replace(f, place=f.place + 1) for f in self.finishes))

    def with_percents(self, percents: Sequence[int]) -> Standings:
        """The payout table changed (a row by field size, as entries come): every finish priced again."""
        return replace(self, percents=tuple(percents)).priced(self.finishes)

    def still_to_pay(self) -> tuple[int, ...]:
        """The prizes of the places still to be played for (first place first): what a deal shares."""
        return tuple(self.prize_for(place) for place in range(1, self.remaining + 1))

    def with_deal(self, amounts: Mapping[str, int]) -> Standings:
        """A deal the players still in agreed (engine/deals.py checks it): each is paid his amount whatever place
        he then finishes in; the places are still played out and kept."""
        return replace(self, deal=tuple(amounts.items())).priced(self.finishes)

    def priced(self, finishes: Sequence[Finish]) -> Standings:
        """``finishes`` with their prizes from this pool: players on one place share the prizes of the places
        they span (that place and the ones below it), remainder units one each in the order they are named; a
        player in a deal gets what the deal gives him."""
        groups: dict[int, list[int]] = {}          # place -> the indexes of the finishes on it, in order
        for index, finish in enumerate(finishes):
            groups.setdefault(finish.place, []).append(index)
        priced = list(finishes)
        for best, group in groups.items():
            share, extra = divmod(sum(self.prize_for(p) for p in range(best, best + len(group))), len(group))
            for k, index in enumerate(group):
                priced[index] = replace(finishes[index], prize=share + (1 if k < extra else 0))
        dealt = dict(self.deal)
        priced = [replace(f, prize=dealt[f.player]) if f.player in dealt else f for f in priced]
        return replace(self, finishes=tuple(priced))

    def bust(self, players: Sequence[str], start_stacks: Mapping[str, int] | None = None) -> Standings:
        """``players`` were eliminated on one hand, named clockwise from the button (odd units go that way).
        ``start_stacks``: each one's chips when the hand started (one table: more chips, a better place);
        None: they all share (hand-for-hand across tables, TDA RP-8-A)."""
        if not players or len(set(players)) != len(players):
            raise ValueError("name each eliminated player once")
        if len(players) >= self.remaining:
            raise ValueError(f"{len(players)} players cannot bust: only {self.remaining} are left")
        if any(f.player in players for f in self.finishes):
            raise ValueError("a player can only finish once")
        stacks = start_stacks or {}
        groups: dict[int, list[str]] = {}
        for player in players:                      # more chips at the start of the hand: a better place
            groups.setdefault(stacks.get(player, 0), []).append(player)
        finishes = list(self.finishes)
        worst = self.remaining
        for stack in sorted(groups):                # the smallest stacks take the worst places first
            group = groups[stack]
            best = worst - len(group) + 1
            finishes += [Finish(player, best, 0) for player in group]
            worst = best - 1
        return replace(self, remaining=self.remaining - len(players)).priced(finishes)

    def win(self, player: str) -> Standings:
        """The last player left takes first place."""
        if self.remaining != 1:
            raise ValueError(f"{self.remaining} players are still in: nobody has won yet")
        prize = dict(self.deal).get(player, self.prize_for(1))
        return replace(self, remaining=0, finishes=(*self.finishes, Finish(player, 1, prize)))

    def results(self) -> list[Finish]:
        """Finishes from first place down."""
        return sorted(self.finishes, key=lambda f: (f.place, -f.prize))
