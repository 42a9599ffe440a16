"""One betting round: whose turn it is, what is legal, and applying an action (rules digest section 4).

All amounts are integers in the table's smallest chip unit. Bets are "to" amounts: a player's total bet on
this street, as PHH writes them. The round works on the hand's per-player lists (stacks, bets, contributions,
folded) and mutates them only through ``apply_*`` after the action was checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from dealerpi.engine.games import Structure

# Read through module names on every action (an enum member lookup costs about 0.1 us in Python 3.11).
_FIXED_LIMIT, _POT_LIMIT = Structure.FIXED_LIMIT, Structure.POT_LIMIT


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why. Nothing was changed."""


class Legal(NamedTuple):
    """The legal actions of the player to act (a named tuple: it is made on every decision).

    ``call_to`` is the to-amount of a call (an all-in for less when short), None when checking is possible.
    ``raise_min_to`` and ``raise_max_to`` bound a bet or raise (to-amounts); both None when none is legal.
    """

    fold: bool
    check: bool
    call_to: int | None
    raise_min_to: int | None
    raise_max_to: int | None


@dataclass(slots=True)
class Limits:
    """The betting structure of one street."""

    structure: Structure
    min_bet: int                 # no-limit/pot-limit minimum bet (BET-1); the fixed bet size in limit
    cap: int | None = None       # fixed-limit: bets plus raises allowed (BET-6); None = no cap
    cap_heads_up: bool = True    # fixed-limit: the cap holds heads-up too (TDA 48) or not (RRoP)


class BettingRound:
    """The state of one street's betting. ``stacks``, ``bets``, ``contributed`` and ``folded`` are the hand's
    own lists, shared, so the hand always sees the current numbers."""

    __slots__ = ("acted", "aggressor", "bets", "capped", "contributed", "current", "folded", "full_increment",
                 "last_full_level", "level_at_action", "limits", "n", "phantom", "raises", "stacks")

    def __init__(self, stacks: list[int], bets: list[int], contributed: list[int], folded: list[bool],
                 limits: Limits, *, opening_level: int = 0, opening_increment: int = 0, phantom: int = 0,
                 forced_bet_counts: bool = False) -> None:
        self.stacks, self.bets, self.contributed, self.folded = stacks, bets, contributed, folded
        self.n = len(stacks)
        self.limits = limits
        # BET-14: a short all-in blind leaves the level where the full blind would have put it.
        self.current = max(max(bets), opening_level)
        self.full_increment = max(limits.min_bet, opening_increment)
        self.last_full_level = self.current
        self.phantom = phantom                # chips of short blinds counted as posted (BET-8 pre-flop)
        # BET-6: pre-flop the big blind counts as the bet.
        self.raises = 1 if forced_bet_counts and self.current > 0 else 0
        self.capped = False
        self.acted = [False] * self.n
        self.level_at_action = [0] * self.n
        self.aggressor: int | None = None

    # --- queries -------------------------------------------------------------------------------------

    def others_with_chips(self, player: int) -> bool:
        folded, stacks = self.folded, self.stacks
        for j in range(self.n):  # noqa: SIM110 - a plain loop: this runs on every action (replay speed)
            if j != player and stacks[j] and not folded[j]:
                return True
        return False

    def someone_can_call_more(self, player: int) -> bool:
        """Whether a raise could be answered: another live player can put in more than the current bet.
        Raising beyond what every opponent can match is pointless, so it is not offered."""
        folded, stacks, bets, current = self.folded, self.stacks, self.bets, self.current
        for j in range(self.n):  # noqa: SIM110 - a plain loop: this runs on every decision (replay speed)
            if j != player and stacks[j] and not folded[j] and bets[j] + stacks[j] > current:
                return True
        return False

    def needs_action(self, player: int) -> bool:
        """A live player with chips who owes chips, or has not acted while someone could still answer him."""
        if self.folded[player] or self.stacks[player] == 0:
            return False
        if self.bets[player] < self.current:
            return True
        return not self.acted[player] and self.others_with_chips(player)

    def next_actor(self, after: int) -> int | None:
        """The first player clockwise after ``after`` who must act, or None when the round is over."""
        n, folded, stacks, bets, current, acted = self.n, self.folded, self.stacks, self.bets, self.current, self.acted
        for step in range(1, n + 1):
            player = (after + step) % n
            if folded[player] or not stacks[player]:
                continue
            if bets[player] < current:
                return player
            if not acted[player] and self.others_with_chips(player):   # someone else could answer him
                return player
        return None

    def pot_limit_max(self, player: int) -> int:
        """BET-8: the call plus the pot after the call (P + B + c on top of the current bet)."""
        call = self.current - self.bets[player]
        pot_after_call = sum(self.contributed) + self.phantom + call
        return self.current + pot_after_call

    def _raise_capped(self) -> bool:
        limits = self.limits
        if limits.cap is None or self.raises < limits.cap:
            return False
        if self.capped or limits.cap_heads_up:
            return True
        # RRoP: heads-up (two players with chips) the raises are unlimited unless the street was capped.
        return sum(1 for j in range(self.n) if not self.folded[j] and self.stacks[j] > 0) > 2

    def legal(self, player: int) -> Legal:
        owe = self.current - self.bets[player]
        stack = self.stacks[player]
        everything = self.bets[player] + stack
        check = owe <= 0
        call_to = None if check else min(self.current, everything)
        min_to = max_to = None
        # BET-4: a player who acted may raise again only if the raises since his action add up to a full raise.
        may_raise = stack > owe and not self.acted[player] and self.someone_can_call_more(player)
        if may_raise and not (self.limits.structure is _FIXED_LIMIT and self._raise_capped()):
            if self.limits.structure is _FIXED_LIMIT:
                min_to = max_to = self.last_full_level + self.limits.min_bet    # BET-7: complete
            else:
                min_to = self.current + self.full_increment                     # BET-1, BET-2
                max_to = everything
                if self.limits.structure is _POT_LIMIT:
                    max_to = min(max_to, max(self.pot_limit_max(player), min_to))
            if min_to >= everything:
                min_to = max_to = everything                                   # all-in for less
            else:
                max_to = min(max_to, everything)
        return Legal(True, check, call_to, min_to, max_to)

    def _no_raise_reason(self, player: int) -> str:
        if self.stacks[player] <= self.current - self.bets[player]:
            return "not enough chips to raise; call all-in or fold"
        if self.acted[player]:
            return "the action was not reopened by a full raise (BET-4, BET-7)"
        if not self.someone_can_call_more(player):
            return "no other player could call a raise"
        return "the betting is capped (BET-6)"

    # --- actions -------------------------------------------------------------------------------------

    def _put(self, player: int, to: int) -> None:
        chips = to - self.bets[player]
        self.stacks[player] -= chips
        self.bets[player] = to
        self.contributed[player] += chips

    def _mark_acted(self, player: int) -> None:
        self.acted[player] = True
        self.level_at_action[player] = self.current

    def apply_fold(self, player: int) -> None:
        self.folded[player] = True
        self._mark_acted(player)

    def apply_call(self, player: int) -> None:
        if self.bets[player] < self.current:
            self._put(player, min(self.current, self.bets[player] + self.stacks[player]))
        self._mark_acted(player)

    def apply_raise(self, player: int, to: int) -> None:
        legal = self.legal(player)
        if legal.raise_min_to is None or legal.raise_max_to is None:
            raise IllegalAction(f"cannot bet or raise now: {self._no_raise_reason(player)}")
        if not legal.raise_min_to <= to <= legal.raise_max_to:
            word = "bet" if self.current == 0 else "raise"
            span = (f"exactly {legal.raise_min_to}" if legal.raise_min_to == legal.raise_max_to
                    else f"from {legal.raise_min_to} to {legal.raise_max_to}")
            raise IllegalAction(f"a {word} to {to} is not legal: the {word} must be to {span}")
        before = self.current
        self._put(player, to)
        self.current = to
        self.aggressor = player
        if self.limits.structure is _FIXED_LIMIT:
            full = 2 * (to - self.last_full_level) >= self.limits.min_bet          # BET-7: half a bet or more
        else:
            full = to - before >= self.full_increment                            # BET-2, BET-4
        if full:
            if self.limits.structure is not _FIXED_LIMIT:
                self.full_increment = to - before
            self.last_full_level = to
            self.raises += 1
            if self.limits.cap is not None and self.raises >= self.limits.cap and self._raise_capped():
                self.capped = True
            for j in range(self.n):
                self.acted[j] = False
        else:
            # BET-4: several short all-ins that add up to a full raise reopen the betting for those behind them.
            for j in range(self.n):
                if self.acted[j] and to - self.level_at_action[j] >= self.full_increment:
                    self.acted[j] = False
        self._mark_acted(player)

    def return_uncalled(self) -> tuple[int, int] | None:
        """POT-2: give back the part of the top bet nobody matched. Returns (player, chips) or None."""
        if self.n < 2:
            return None
        bets = self.bets
        top, first, second = 0, -1, -1                   # the top bet, and the next highest, in one pass
        for j, bet in enumerate(bets):
            if bet > first:
                top, first, second = j, bet, first
            elif bet > second:
                second = bet
        excess = first - second
        if excess <= 0:
            return None
        self.bets[top] -= excess
        self.contributed[top] -= excess
        self.stacks[top] += excess
        return top, excess
