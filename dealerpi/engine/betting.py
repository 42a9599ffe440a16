"""The betting of the street in play: whose turn it is, what is legal, and the actions (rules digest section 4).

All amounts are integers in the table's smallest chip unit. Bets are "to" amounts: a player's total bet on
this street, as PHH writes them. ``Betting`` is the base class of ``Hand`` (hand.py): it holds the per-player
chips and one set of street fields that serves every street (``_open_betting`` resets them), because a replay
makes these calls for every action of every hand and each indirection costs time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from dealerpi.engine.games import Structure

_CLOCKWISE: dict[int, list[tuple[int, ...]]] = {}


def clockwise(n: int) -> list[tuple[int, ...]]:
    """For each player k of an n-player hand, every player in turn clockwise after k, k last (shared lists)."""
    orders = _CLOCKWISE.get(n)
    if orders is None:
        orders = _CLOCKWISE[n] = [tuple((k + step) % n for step in range(1, n + 1)) for k in range(n)]
    return orders


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


@dataclass(frozen=True, slots=True)
class Limits:
    """The betting structure of one street."""

    structure: Structure
    min_bet: int                 # no-limit/pot-limit minimum bet (BET-1); the fixed bet size in limit
    cap: int | None = None       # fixed-limit: bets plus raises allowed (BET-6); None = no cap
    cap_heads_up: bool = True    # fixed-limit: the cap holds heads-up too (TDA 48) or not (RRoP)


class Betting:
    """The chips of a hand's players and the betting of the street in play: the base class of ``Hand``
    (hand.py), which adds the cards, the phases and the actions. Every field is declared here once."""

    __slots__ = ("acted", "actions", "actions_before_street", "actor", "aggressor", "bets", "capped", "chip_actions",
                 "clockwise", "contributed", "current", "folded", "full_increment", "last_full_level",
                 "level_at_action", "limits_by_street", "live_count", "n", "opening_level", "phantom", "raises",
                 "stacks", "street", "street_limits", "street_phantom", "with_chips")

    # Per player (index 0 is the first seat left of the button).
    n: int
    stacks: list[int]
    bets: list[int]          # this street's bet
    contributed: list[int]   # everything put in this hand
    folded: list[bool]
    clockwise: list[tuple[int, ...]]     # clockwise(n)
    # The hand's progress, kept up to date by every change.
    street: int
    limits_by_street: list[Limits]
    opening_level: int       # pre-flop: the big blind's level
    phantom: int             # pre-flop: chips short blinds did not post, counted as posted (BET-8)
    actor: int | None
    live_count: int          # players not folded and not mucked
    with_chips: int          # of those, the ones with chips behind
    actions: int             # actions taken in this hand (MIS-5 substantial action)
    actions_before_street: int
    chip_actions: int        # of those, the ones that put chips in
    # The street's betting, reset by _open_betting.
    street_limits: Limits
    current: int             # the bet to match
    full_increment: int      # the last full bet or raise (BET-2), at least the minimum bet
    last_full_level: int     # the bet level after the last full bet or raise (BET-4, BET-7)
    street_phantom: int      # chips of short blinds counted as posted (BET-8 pre-flop)
    raises: int              # bets and full raises so far (BET-6)
    capped: bool
    acted: list[bool]        # acted since the last full raise (BET-4: may not raise again)
    level_at_action: list[int]
    aggressor: int | None

    def __init__(self, stacks: list[int], bets: list[int], contributed: list[int],
                 orders: list[tuple[int, ...]]) -> None:
        """The chips after the forced bets (lists the hand owns) and ``clockwise(n)``."""
        n = self.n = len(stacks)
        self.stacks = stacks
        self.bets = bets
        self.contributed = contributed
        self.folded = [False] * n
        self.clockwise = orders
        self.street = 0
        self.actor = None
        self.live_count = n
        self.with_chips = n
        self.actions = self.chip_actions = 0

    def _open_betting(self) -> None:
        """Reset the betting for the street in play. Pre-flop the blinds are the opening bet, at the big
        blind's level even when he is short (BET-14), and count as the first bet (BET-6)."""
        limits = self.street_limits = self.limits_by_street[self.street]
        preflop = self.street == 0
        opening = self.opening_level if preflop else 0
        top = max(self.bets) if preflop else 0              # after the pre-flop every street starts at 0
        current = self.current = top if top > opening else opening
        self.full_increment = limits.min_bet if limits.min_bet > opening else opening
        self.last_full_level = current
        self.street_phantom = self.phantom if preflop else 0
        self.raises = 1 if preflop and current > 0 else 0
        self.capped = False
        self.acted = [False] * self.n
        self.level_at_action = [0] * self.n
        self.aggressor = None
        self.actions_before_street = self.actions

    @property
    def street_actions(self) -> int:
        """Actions taken on the current street."""
        return self.actions - self.actions_before_street

    # --- queries -------------------------------------------------------------------------------------

    def _pass_turn(self, after: int) -> bool:
        """Give the turn to the first player clockwise after ``after`` who must act; False when nobody must
        (the betting round is over). Must act: a live player with chips who owes chips, or who has not acted
        while someone else could still answer him."""
        if self.live_count > 1:
            folded, stacks, bets, current, acted = self.folded, self.stacks, self.bets, self.current, self.acted
            answerable = self.with_chips > 1
            for player in self.clockwise[after]:
                if folded[player] or not stacks[player]:
                    continue
                if bets[player] < current or (answerable and not acted[player]):
                    self.actor = player
                    return True
        return False

    def _someone_can_call_more(self, player: int) -> bool:
        """Whether a raise could be answered: another live player can put in more than the current bet.
        Raising beyond what every opponent can match is pointless, so it is not offered."""
        folded, stacks, bets, current = self.folded, self.stacks, self.bets, self.current
        for j in range(self.n):  # noqa: SIM110 - a plain loop: this runs on every decision (replay speed)
            if j != player and stacks[j] and not folded[j] and bets[j] + stacks[j] > current:
                return True
        return False

    def _pot_limit_max(self, player: int) -> int:
        """BET-8: the call plus the pot after the call (P + B + c on top of the current bet)."""
        call = self.current - self.bets[player]
        return self.current + sum(self.contributed) + self.street_phantom + call

    def _raise_capped(self) -> bool:
        limits = self.street_limits
        if limits.cap is None or self.raises < limits.cap:
            return False
        if self.capped or limits.cap_heads_up:
            return True
        # RRoP: heads-up (two players with chips) the raises are unlimited unless the street was capped.
        return self.with_chips > 2

    def _legal(self, player: int) -> Legal:
        current, everything = self.current, self.bets[player] + self.stacks[player]
        check = current <= self.bets[player]
        span = self._raise_span(player)
        return Legal(True, check, None if check else min(current, everything),
                     None if span is None else span[0], None if span is None else span[1])

    def _raise_span(self, player: int) -> tuple[int, int] | None:
        """The smallest and largest to-amounts ``player`` may bet or raise to, or None (a plain pair: a bet
        asks only this, and a replay makes one for every bet)."""
        current, bet, stack = self.current, self.bets[player], self.stacks[player]
        # BET-4: a player who acted may raise again only if the raises since his action add up to a full raise.
        if stack <= current - bet or self.acted[player] or not self._someone_can_call_more(player):
            return None
        everything = bet + stack
        limits = self.street_limits
        structure = limits.structure
        if structure is Structure.FIXED_LIMIT:
            if self._raise_capped():
                return None
            min_to = max_to = self.last_full_level + limits.min_bet           # BET-7: complete
        else:
            min_to = current + self.full_increment                             # BET-1, BET-2
            max_to = everything
            if structure is Structure.POT_LIMIT:
                max_to = min(max_to, max(self._pot_limit_max(player), min_to))
        if min_to >= everything:
            return everything, everything                                      # all-in for less
        return min_to, min(max_to, everything)

    def _no_raise_reason(self, player: int) -> str:
        if self.stacks[player] <= self.current - self.bets[player]:
            return "not enough chips to raise; call all-in or fold"
        if self.acted[player]:
            return "the action was not reopened by a full raise (BET-4, BET-7)"
        if not self._someone_can_call_more(player):
            return "no other player could call a raise"
        return "the betting is capped (BET-6)"

    def _give_up(self, player: int, out: list[bool]) -> None:
        """A live hand is folded, killed or mucked: mark it in ``out`` (``folded`` or ``mucked``) and count
        one live hand less, and one less with chips behind if it had any."""
        out[player] = True
        self.live_count -= 1
        if self.stacks[player]:
            self.with_chips -= 1

    def _return_uncalled(self) -> tuple[int, int] | None:
        """POT-2: give back the part of the top bet nobody matched. Returns (player, chips) or None."""
        bets = self.bets
        ordered = sorted(bets)
        excess = ordered[-1] - ordered[-2]
        if excess <= 0:
            return None
        top = bets.index(ordered[-1])
        bets[top] -= excess
        self.contributed[top] -= excess
        if not self.stacks[top] and not self.folded[top]:
            self.with_chips += 1
        self.stacks[top] += excess
        return top, excess
