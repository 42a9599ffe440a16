"""Deals at the final table: what an ICM (Malmuth-Harville) and a chip-chop split would pay each player left.

A deal shares the prizes still to be paid among the players still in, by agreement of all of them: the rule
sources leave the terms to the players, so DealerPi takes a deal only when every player still in agrees, pays
each the amount agreed, and keeps the places as they are played out (issue 20). Two proposals are the field's
standard:

- **ICM, Malmuth-Harville.** A player finishes first with probability his share of the chips; given who
  finished above him, he finishes next with his share of the chips still in play. His ICM value is the sum over
  places of that place's prize times the probability he finishes there. Computed exactly (rational numbers),
  by a walk over the subsets of players already placed: 2^n x n steps, under 20 ms for 10 players.
- **Chip chop.** Everyone is guaranteed the lowest prize still to be paid; the rest of the money goes by the
  share of the chips.

Both pay at least the lowest remaining prize to everyone (ICM: every place pays at least that much; chip chop:
by construction). Amounts are whole units: each player gets his value rounded down, and the units left over go
one each to the largest remainders (ties: the bigger stack first, then the order given), so the amounts add up
to the prizes exactly. Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

MOST_PLAYERS = 10     # exact enumeration: 2^10 x 10 steps; a final table has at most 10 players


class DealError(ValueError):
    """A deal that cannot be proposed or made; the message says why."""


def icm_values(stacks: Sequence[int], prizes: Sequence[int]) -> tuple[Fraction, ...]:
    """Each stack's exact ICM value (Malmuth-Harville) for ``prizes`` (first place first; places beyond the list
    pay nothing)."""
    _check(stacks, prizes)
    n, total = len(stacks), sum(stacks)
    values = [Fraction(0)] * n
    reach: dict[int, Fraction] = {0: Fraction(1)}     # players placed so far (a bit mask) -> its probability
    for place in range(n):
        prize = prizes[place] if place < len(prizes) else 0
        after: dict[int, Fraction] = {}
        for placed, chance in reach.items():
            left = total - sum(stacks[i] for i in range(n) if placed >> i & 1)
            for i in range(n):
                if placed >> i & 1 or not stacks[i]:
                    continue
                p = chance * Fraction(stacks[i], left)
                values[i] += p * prize
                after[placed | 1 << i] = after.get(placed | 1 << i, Fraction(0)) + p
        reach = after
    return tuple(values)


def chip_chop_values(stacks: Sequence[int], prizes: Sequence[int]) -> tuple[Fraction, ...]:
    """Each stack's chip-chop value: the lowest prize still to be paid (place ``len(stacks)``), plus the rest of
    the money by share of the chips."""
    _check(stacks, prizes)
    n, total = len(stacks), sum(stacks)
    money = _money(prizes, n)
    floor = prizes[n - 1] if n <= len(prizes) else 0
    rest = money - n * floor
    return tuple(floor + Fraction(rest * stack, total) for stack in stacks)


def whole_units(values: Sequence[Fraction], stacks: Sequence[int]) -> tuple[int, ...]:
    """``values`` in whole units adding up to their (whole) sum: rounded down, then one unit each to the
    largest remainders; ties go to the bigger stack, then to the one named first."""
    total = sum(values, Fraction(0))
    if total.denominator != 1:
        raise DealError(f"the values add up to {total}, not a whole amount")
    amounts = [int(v) for v in values]                 # values are never negative: int() rounds down
    order = sorted(range(len(values)), key=lambda i: (-(values[i] - amounts[i]), -stacks[i], i))
    for i in order[: int(total) - sum(amounts)]:
        amounts[i] += 1
    return tuple(amounts)


def proposals(stacks: Mapping[str, int], prizes: Sequence[int]) -> dict[str, dict[str, int]]:
    """``{"icm": {player: amount}, "chip_chop": {...}}`` for the players left and the prizes still to pay."""
    names, chips = list(stacks), [stacks[name] for name in stacks]
    return {"icm": dict(zip(names, whole_units(icm_values(chips, prizes), chips), strict=True)),
            "chip_chop": dict(zip(names, whole_units(chip_chop_values(chips, prizes), chips), strict=True))}


def check_deal(amounts: Mapping[str, int], players: Sequence[str], prizes: Sequence[int]) -> None:
    """A deal the tournament can pay: every player still in named once and nobody else, the amounts adding up to
    the prizes still to be paid, and nobody below the lowest of them. ``DealError`` says what is wrong."""
    n = len(players)
    if sorted(amounts) != sorted(players):
        raise DealError(f"a deal names every player still in, and only them: {', '.join(players)}")
    money, floor = _money(prizes, n), (prizes[n - 1] if n <= len(prizes) else 0)
    if sum(amounts.values()) != money:
        raise DealError(f"the deal pays {sum(amounts.values())}; the prizes still to pay add up to {money}")
    short = [name for name, amount in amounts.items() if amount < floor]
    if short:
        raise DealError(f"{', '.join(short)} would get less than the lowest prize still to pay ({floor})")


def _money(prizes: Sequence[int], players: int) -> int:
    return sum(prizes[:players])


def _check(stacks: Sequence[int], prizes: Sequence[int]) -> None:
    if not 2 <= len(stacks) <= MOST_PLAYERS:
        raise DealError(f"a deal is for 2 to {MOST_PLAYERS} players, not {len(stacks)}")
    if any(stack <= 0 for stack in stacks):
        raise DealError("every player in a deal has chips")
    if any(prize < 0 for prize in prizes) or list(prizes) != sorted(prizes, reverse=True):
        raise DealError("prizes are listed from first place down, none negative")
