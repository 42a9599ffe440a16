"""Missed blinds, per the ``missed_blinds`` policy (BLD-7): what is marked, what is owed, and when it is paid.

A marker records which blinds passed a seat while its player was not dealt in (``sb``, ``bb``, ``both``). The
player clears it by taking the big blind when it reaches him, by making the blinds up, or (``buy_blinds``
only) by sitting out until the button has passed his seat.

- ``buy_blinds`` (seed 001, home): only a missed big blind is marked ("if you post BB but then miss the SB, we
  usually don't care"). Coming back costs the small blind dead plus the big blind live ("buy the blinds"),
  allowed anywhere, or nothing once the button has passed ("wait until the button is on your immediate left").
- ``by_structure`` (seed 002 B13-B16, casino): every missed blind is marked. Limit: the sum of the blinds, the
  part over the big blind dead (B14a); big-bet: the big blind only, live (B15). A missed small blind alone is
  posted as dead money (B15 does not say; this is the common card-room rule). Limit: never between the blinds
  (B16). Big-bet: allowed between the blinds, and then no button that round (B16).
- ``online`` (seed 003): missed small blind only: a live big blind; missed big blind or both: a live big blind
  plus a dead small blind. Not between the blinds (seed 003 is limit: B16 read the same way).
- ``none``: nothing is marked (tournaments post every blind, DEAL-9).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from dealerpi.engine.games import Structure
from dealerpi.engine.policies import MissedBlinds
from dealerpi.engine.seating import MISSED_BB, MISSED_BOTH, MISSED_SB

_LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MakeUp:
    """What a returning player posts: ``live`` counts toward his bet, ``dead`` goes to the pot."""

    live: int
    dead: int
    source: str


def marks(policy: MissedBlinds) -> bool:
    """Does this policy keep missed-blind markers at all?"""
    return policy is not MissedBlinds.NONE


def marks_small_blind(policy: MissedBlinds) -> bool:
    """Is a missed small blind marked? Seed 001 ignores it; seeds 002 and 003 do not."""
    return policy in (MissedBlinds.BY_STRUCTURE, MissedBlinds.ONLINE)


def cleared_by_button(policy: MissedBlinds) -> bool:
    """Seed 001: a marked player who waits until the button has passed his seat comes back for free."""
    return policy is MissedBlinds.BUY_BLINDS


def may_post_between_blinds(policy: MissedBlinds, structure: Structure) -> bool:
    """May a marked player make up his blinds while between the button and the big blind (B16)?"""
    if policy is MissedBlinds.BUY_BLINDS:
        return True                                  # seed 001's own example buys the blinds there
    if policy is MissedBlinds.BY_STRUCTURE:
        return structure is not Structure.FIXED_LIMIT
    return False


def no_button_after_posting_between_blinds(policy: MissedBlinds, structure: Structure) -> bool:
    """B16 big-bet: a player who makes up between the blinds does not get the button that round."""
    return policy is MissedBlinds.BY_STRUCTURE and structure is not Structure.FIXED_LIMIT


def make_up(marker: str, policy: MissedBlinds, structure: Structure, small_blind: int, big_blind: int) -> MakeUp:
    """The post that clears ``marker`` under ``policy``."""
    if policy is MissedBlinds.BUY_BLINDS:
        return MakeUp(big_blind, small_blind, "seed 001: buy the blinds")
    if policy is MissedBlinds.ONLINE:
        if marker == MISSED_SB:
            return MakeUp(big_blind, 0, "seed 003: missed small blind, a live big blind")
        return MakeUp(big_blind, small_blind, "seed 003: missed big blind, a live big blind and a dead small blind")
    if policy is MissedBlinds.BY_STRUCTURE:
        if marker == MISSED_SB:
            return MakeUp(0, small_blind, "seed 002: a missed small blind is made up dead")
        if structure is Structure.FIXED_LIMIT and marker == MISSED_BOTH:
            return MakeUp(big_blind, small_blind, "seed 002 B14: the sum of the blinds, the excess dead")
        return MakeUp(big_blind, 0, "seed 002 B15: the big blind, live" if structure is not Structure.FIXED_LIMIT
                      else "seed 002 B14: the big blind, live")
    raise ValueError(f"missed_blinds policy {policy!r} keeps no markers")


def describe(marker: str) -> str:
    """A marker in words, for dealer notes."""
    return {MISSED_SB: "the small blind", MISSED_BB: "the big blind", MISSED_BOTH: "both blinds"}[marker]
