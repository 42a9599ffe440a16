"""TRN-6 colour-up and chip race (TDA 24, 25-B): the table keeps the books of a procedure the dealer runs.

The smallest chip (``remove``) leaves play. Each player's chips of it are exchanged at equal value for the next
chip in play (``chip``); what is left, his odd amount (his stack modulo ``chip``), is raced: the odd amounts of
the table together buy whole chips (a remainder below one chip is removed), the dealer races them from seat 1
with one card per odd chip, and no player wins more than one. Nobody is raced out: a player whose chips were all
odd and who won none gets one chip of the smallest denomination still in play. Pure: the dealer reports the
winners; this module plans the race and checks and applies its result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dealerpi.engine.betting import IllegalAction


@dataclass(frozen=True, slots=True)
class RacePlan:
    """``odd``: each seat's number of odd chips of ``remove`` (seats with none left out); ``raced``: the chips of
    ``chip`` they buy together; ``removed``: the value left over, taken off the table."""

    remove: int
    chip: int
    odd: dict[int, int]
    raced: int
    removed: int


def plan_race(stacks: Mapping[int, int], remove: int, chip: int) -> RacePlan:
    """The race for these stacks; ``IllegalAction`` (TRN-6) when the chips do not fit."""
    if remove <= 0 or chip <= remove or chip % remove:
        raise IllegalAction(f"TRN-6: the next chip ({chip}) must be a whole number of {remove}s")
    for seat, stack in sorted(stacks.items()):
        if stack % remove:
            raise IllegalAction(f"TRN-6: seat {seat} has {stack}, not a whole number of {remove}s")
    odd = {seat: stack % chip // remove for seat, stack in sorted(stacks.items()) if stack % chip}
    total = sum(odd.values()) * remove
    return RacePlan(remove, chip, odd, total // chip, total % chip)


def race_result(stacks: Mapping[int, int], plan: RacePlan, won: Sequence[int]) -> tuple[dict[int, int], list[int]]:
    """The stacks after the race the dealer ran (``won``: the seats that won a chip), and the seats that were
    not raced out (one chip each); ``IllegalAction`` (TRN-6) for a result the race cannot give."""
    if len(won) != plan.raced:
        raise IllegalAction(f"TRN-6: {plan.raced} chip{'s' if plan.raced != 1 else ''} of {plan.chip} "
                            f"{'is' if plan.raced == 1 else 'are'} raced, so {plan.raced} seat"
                            f"{'s win' if plan.raced != 1 else ' wins'} one, not {len(won)}")
    if len(set(won)) != len(won):
        raise IllegalAction("TRN-6: no player wins more than one chip in a race")
    for seat in won:
        if seat not in plan.odd:
            raise IllegalAction(f"TRN-6: seat {seat} has no odd {plan.remove}s to race")
    after: dict[int, int] = {}
    saved: list[int] = []
    for seat, stack in stacks.items():
        left = stack - stack % plan.chip + (plan.chip if seat in won else 0)
        if left == 0 and stack > 0:            # nobody is raced out of the tournament
            left = plan.chip
            saved.append(seat)
        after[seat] = left
    return after, sorted(saved)


def race_words(plan: RacePlan, won: Sequence[int], saved: Sequence[int]) -> str:
    """The dealer's instruction for what the race decided."""
    chips = f"{plan.raced} chip{'s' if plan.raced != 1 else ''} of {plan.chip} raced"
    winners = ", ".join(str(seat) for seat in sorted(won))
    words = [f"Colour-up: take every {plan.remove} off the table; {chips}"
             + (f": seat{'s' if len(won) > 1 else ''} {winners} win{'s' if len(won) == 1 else ''} "
                f"{'it' if len(won) == 1 else 'one each'}" if won else "")]
    words += [f"seat {seat} is not raced out: give him one {plan.chip}" for seat in saved]
    if plan.removed:
        words.append(f"{plan.removed} in {plan.remove}s is removed")
    return "; ".join(words)


def plan_words(plan: RacePlan) -> str:
    """TRN-6: the dealer's instruction before the race: the chips to remove, each seat's odd chips, the chips
    raced (the room sends it to each table at a colour-up break; the dealer then reports the winners)."""
    odd = ", ".join(f"seat {seat} {count}" for seat, count in plan.odd.items()) or "none"
    return (f"Colour-up: every {plan.remove} leaves play for {plan.chip}s; odd {plan.remove}s: {odd}; "
            f"{plan.raced} chip{'s' if plan.raced != 1 else ''} of {plan.chip} raced from seat 1, one card per odd "
            "chip, at most one chip a player, nobody raced out (TDA 24); then report the winners")
