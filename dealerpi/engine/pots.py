"""Pots: contributions to main and side pots, and splitting a pot among winners.

Pure functions over lists indexed by player (index 0 is the first seat left of the button).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Pot(NamedTuple):
    """A pot: its chips and the players who can win it (POT-1). (A named tuple: a replay makes one or more
    for every hand, and a frozen dataclass is several times dearer to make.)"""

    amount: int
    eligible: tuple[int, ...]


def build_pots(contributed: Sequence[int], live: Sequence[bool], all_in: Sequence[bool], dead: int = 0) -> list[Pot]:
    """Main pot first, then side pots, one layer per distinct all-in amount of a live player (POT-1).

    ``contributed`` is each player's chips: blinds, bets and his own ante (a partial ante makes a layer like
    any short contribution, POT-1); ``dead`` is the table's dead money (a big-blind ante, made-up dead small
    blinds), which belongs to the main pot whole (BLD-10). Folded players' chips count toward
    the layers they reach, but a folded player is never eligible. Chips above every live player's level (only
    possible when the top contributor folded) join the top pot.
    """
    n = len(contributed)
    if not any(all_in[i] and live[i] for i in range(n)):             # the usual case: one pot
        total = sum(contributed) + dead
        return [Pot(total, tuple(i for i in range(n) if live[i]))] if total else []
    levels = sorted({contributed[i] for i in range(n) if live[i] and all_in[i]})
    top = max((contributed[i] for i in range(len(contributed)) if live[i]), default=0)
    if not levels or levels[-1] < top:
        levels.append(top)
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributed)
        # a live player who is not all-in can still match every level (mid-round he may not have yet)
        eligible = tuple(i for i, c in enumerate(contributed) if live[i] and (c >= level or not all_in[i]))
        if amount:
            if pots and pots[-1].eligible == eligible:
                pots[-1] = Pot(pots[-1].amount + amount, eligible)
            else:
                pots.append(Pot(amount, eligible))
        previous = level
    leftover = sum(c - min(c, previous) for c in contributed)
    if leftover and pots:
        pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
    if dead:
        if pots:
            pots[0] = Pot(pots[0].amount + dead, pots[0].eligible)
        else:
            pots.append(Pot(dead, tuple(i for i in range(len(contributed)) if live[i])))
    return pots


def split_evenly(amount: int, winners: Sequence[int]) -> dict[int, int]:
    """Split ``amount`` among ``winners`` (player indices); odd chips one each to the first winners
    clockwise from the button, i.e. in increasing index (POT-3)."""
    ordered = sorted(winners)
    share, odd = divmod(amount, len(ordered))
    return {player: share + (1 if k < odd else 0) for k, player in enumerate(ordered)}


def split_shares(amount: int, parts: int) -> list[int]:
    """Cut a pot into ``parts`` equal shares for several boards or runs; remainder chips go to the earlier
    shares (the digest's decision for POT-11 and POT-12: the first run, the top board)."""
    share, odd = divmod(amount, parts)
    return [share + (1 if k < odd else 0) for k in range(parts)]


def best_players(strengths: dict[int, int]) -> list[int]:
    """The players holding the highest strength."""
    top = max(strengths.values())
    return [player for player, value in strengths.items() if value == top]
