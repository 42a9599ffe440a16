"""Seat changes at one table, between hands (BLD-8): what a player who moves to an empty seat owes.

The ``seat_change`` policy decides:

- ``by_position`` (home, casino; seed 002 B20-B22): the move is measured by *due*, the number of active players
  (present, with chips) the big blind passes before it reaches a seat, counted clockwise from the last big
  blind. A player whose due grows by three or more has moved past three or more active players clockwise
  from the blinds: he posts a big blind or waits for it, as a new player (B20). A player who just took the
  big blind escapes the small blind he owes next; if he moves three or more active players past the next big
  blind, he makes the small blind up or waits for the big blind (B22: a missed small blind marker, where the
  ``missed_blinds`` policy keeps one). A player who just had the small blind or the button and moves to the
  seat due for the big blind, or to either of the two seats on its left, may let the blinds pass without
  penalty (B21, ``wait``): he is not dealt in, no missed blind is marked, and he plays again once both
  blinds have gone by him (the small blind moved over or onto his new seat). Any other move costs nothing
  (his position to the blinds did not improve).
- ``as_new`` (online, tournament): the player is a new player at his new seat (BLD-6, the preset's
  ``new_player`` rule; TDA 8-A for a tournament's moved players). Seed 003 and the TDA have no seat change
  at one table; leaving and sitting again is what an online room does.

Missed-blind markers and the B16 no-button bar go with the player to his new seat: they are his debts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import NamedTuple

from dealerpi.engine import missed_blinds as mb
from dealerpi.engine.policies import Policies, SeatChange
from dealerpi.engine.seating import MISSED_SB, Lineup, PositionError, Ring, SeatInfo, merge_missed


class Move(NamedTuple):
    """What a seat change gives: the bookkeeping to keep, whether the player is new (B20, ``as_new``), and
    the notes for the dealer's console."""

    lineup: Lineup
    new: bool
    notes: tuple[tuple[str, str], ...]


def move_seat(lineup: Lineup, seats: Mapping[int, SeatInfo], seat: int, to: int, *, table_seats: int,
              policies: Policies, wait: bool = False) -> Move:
    """Move the player on ``seat`` to the empty seat ``to``; ``wait``: he lets the blinds pass (B21).
    Raises ``PositionError`` naming the rule when the move or the wait is refused."""
    if seat not in seats:
        raise PositionError(f"BLD-8: seat {seat} is empty")
    if not 1 <= to <= table_seats or to in seats:
        raise PositionError(f"BLD-8: seat {to} is not an empty seat of this table (1 to {table_seats})")
    lineup = _carry(lineup, seat, to)
    moved = f"Seat {seat} moves to seat {to}"
    if policies.seat_change is SeatChange.AS_NEW:
        if wait:
            raise PositionError("BLD-8: letting the blinds pass is seed 002 B21's rule (seat_change by_position)")
        return Move(lineup, True, (("BLD-8", f"{moved}: a new player there (BLD-6)"),))
    ring = Ring(table_seats)
    active = {s for s, info in seats.items() if s != seat and not info.away and info.stack > 0}
    last_bb = lineup.bb
    if last_bb is None:                                  # no hand yet: no blind is due anywhere
        if wait:
            raise PositionError("BLD-8: no blinds to let pass before the first hand (seed 002 B21)")
        return Move(lineup, False, (("BLD-8", moved),))

    def due(s: int) -> int:
        """Active players the big blind passes before it reaches seat ``s`` (the last big blind's seat last)."""
        if s == last_bb:
            return len(active)
        return sum(1 for x in ring.between(last_bb, s) if x in active)

    if wait:
        next_bb = ring.next_in(last_bb, active) or last_bb
        b21_seats = ring.between(last_bb, ring.step(next_bb, 3))    # due for the big blind, or 2 seats left of it
        if seat not in (lineup.sb, lineup.button) or to not in b21_seats:
            raise PositionError("BLD-8: only a player who just had the small blind or the button and moves to the "
                                "seat due for the big blind, or one of the two on its left, may let the blinds "
                                "pass (seed 002 B21)")
        lineup = replace(lineup, passing=lineup.passing | {to})
        return Move(lineup, False, (("BLD-8", f"{moved} and lets the blinds pass without penalty; plays again "
                                              "once they have gone by (seed 002 B21)"),))
    if seat == last_bb:                                  # B22: he owed the small blind next
        if due(to) < 3:
            return Move(lineup, False, (("BLD-8", f"{moved}: no penalty (seed 002 B22)"),))
        if not mb.marks_small_blind(policies.missed_blinds):
            return Move(lineup, False, (("BLD-8", f"{moved} past {due(to)} players and escapes the small blind: "
                                                  f"this house does not mark a missed small blind (BLD-7)"),))
        missed = dict(lineup.missed)
        missed[to] = merge_missed(missed.get(to), MISSED_SB)
        return Move(replace(lineup, missed=missed), False, (
            ("BLD-8", f"{moved} past {due(to)} players: makes up the small blind or waits for the big blind "
                      "(seed 002 B22)"),))
    passed = due(to) - due(seat)
    if passed >= 3:
        return Move(lineup, True, (("BLD-8", f"{moved} past {_players(passed)}: posts a big blind or waits "
                                             "for it (seed 002 B20)"),))
    return Move(lineup, False, (("BLD-8", f"{moved}: no penalty, {_players(max(passed, 0))} passed "
                                          "(seed 002 B20 needs 3)"),))


def _players(count: int) -> str:
    return f"{count} active player{'' if count == 1 else 's'}"


def _carry(lineup: Lineup, seat: int, to: int) -> Lineup:
    """The player's missed-blind marker, no-button bar and B21 pass go with him from ``seat`` to ``to``."""
    missed = {(to if s == seat else s): m for s, m in lineup.missed.items()}
    no_button = frozenset(to if s == seat else s for s in lineup.no_button)
    passing = frozenset(to if s == seat else s for s in lineup.passing)
    return replace(lineup, missed=missed, no_button=no_button, passing=passing)
