"""Straddles (BLD-9) and bomb pots (POT-12) on top of a planned hand.

Straddles, by the ``straddles`` policy:

- ``multiple`` (seed 001): the first seat left of the big blind may straddle 2x the big blind, before any card
  is dealt; then each next seat in turn may re-straddle, each double the last. No button straddle.
- ``single`` (seed 002 B8): one straddle per deal, 2x the big blind, from the seat left of the last blind; no
  button straddle, no sleeper straddle (B8a, b, f, h).
- ``none``: refused.

The seat with last action (the button, or the player before a dead button) never straddles. A straddle is the
full amount: a stack too short for it is refused. A seat that already posts this hand (a new player's post, a
missed-blind make-up) does not straddle.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import replace

from dealerpi.engine.policies import Policies, StraddleRule
from dealerpi.engine.seating import HandPlan, PositionError

_LOGGER = logging.getLogger(__name__)


def straddle(plan: HandPlan, straddles: Sequence[tuple[int, int]], seat: int, policies: Policies, big_blind: int,
             *, cards_dealt: bool = False) -> int:
    """The amount ``seat`` posts as the next straddle after ``straddles`` (seat, amount) posted so far.

    Raises ``PositionError`` with the rule when the straddle is not allowed.
    """
    if policies.straddles is StraddleRule.NONE:
        raise PositionError("BLD-9: straddles are off under these house rules")
    if cards_dealt:
        raise PositionError("BLD-9: a straddle is posted before the first card is dealt (seed 001)")
    if seat not in plan.order or seat in plan.killed:
        raise PositionError(f"BLD-9: seat {seat} is not dealt in")
    if seat == plan.order[-1]:
        raise PositionError(f"BLD-9: seat {seat} has the button (last action) and may not straddle "
                            "(seed 001; seed 002 B8f)")
    if policies.straddles is StraddleRule.SINGLE and straddles:
        raise PositionError("BLD-9: only one straddle per deal (seed 002 B8a)")
    last = straddles[-1][0] if straddles else plan.bb
    if last is None or last not in plan.order:
        raise PositionError("BLD-9: there is no big blind to straddle")
    expected = plan.order[(plan.order.index(last) + 1) % len(plan.order)]
    if seat != expected:
        after = f"the straddle of seat {last}" if straddles else "the big blind"
        raise PositionError(f"BLD-9: the next straddle can only come from seat {expected}, left of {after} "
                            "(no sleeper straddle, seed 002 B8h)")
    if seat in plan.blinds or seat in plan.dead:
        raise PositionError(f"BLD-9: seat {seat} already posts this hand")
    amount = 2 * (straddles[-1][1] if straddles else big_blind)
    if plan.stacks[seat] < amount:
        raise PositionError(f"BLD-9: a straddle is {amount}; seat {seat} has only {plan.stacks[seat]}")
    return amount


def apply_straddles(plan: HandPlan, straddles: Sequence[tuple[int, int]], policies: Policies,
                    big_blind: int) -> HandPlan:
    """The plan with ``straddles`` checked and added as live blinds; pre-flop action starts left of the last one
    (seed 002 B8d, B9)."""
    done: list[tuple[int, int]] = []
    for seat, amount in straddles:
        expected = straddle(plan, done, seat, policies, big_blind)
        if amount != expected:
            raise PositionError(f"BLD-9: seat {seat}'s straddle is {expected}, not {amount}")
        done.append((seat, amount))
    if not done:
        return plan
    blinds = {**plan.blinds, **dict(done)}
    last = plan.order.index(done[-1][0])
    notes = plan.notes + tuple(("BLD-9", f"Seat {seat} straddles {amount}") for seat, amount in done)
    return replace(plan, blinds=blinds, preflop_first=plan.order[(last + 1) % len(plan.order)], notes=notes)


def plan_bomb(plan: HandPlan, ante: int, *, sitting_out: Collection[int] = ()) -> HandPlan:
    """A bomb pot dealt instead of ``plan`` (seed 001): every player in it antes ``ante``, nobody posts a blind,
    and the button does not move (``after`` is the bookkeeping from before, so the next hand is ``plan``'s).

    Players who agreed to the bomb but sit it out (seed 001) are left out, as are killed absent hands.
    """
    if ante <= 0:
        raise PositionError(f"POT-12: a bomb pot ante must be positive, not {ante}")
    order = tuple(s for s in plan.order if s not in sitting_out and s not in plan.killed)
    if len(order) < 2:
        raise PositionError("POT-12: a bomb pot needs two players")
    waiting = tuple(sorted({*plan.waiting, *(s for s in plan.order if s not in order)}))
    note = ("POT-12", f"Bomb pot: {len(order)} players ante {ante}, no blinds; the button stays on seat "
                      f"{plan.button}")
    return HandPlan(plan.button, order, {}, {}, dict.fromkeys(order, ante), None, None, order[0], (),
                    {s: plan.stacks[s] for s in order}, waiting, plan.before, plan.before, (note,))
