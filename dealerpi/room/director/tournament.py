"""Multi-table tournament pieces for the room: pure functions, no I/O, no clock (randomness comes in as a
``random.Random`` the caller seeds and keeps). The room's director (:mod:`dealerpi.room.director.mtt`) runs a
tournament with them (docs/room.md, "A multi-table tournament").

- TRN-9 (TDA 7): seats are drawn at random; the tables come out even (their sizes differ by one at most).
- TRN-8 (TDA 11, R11-D): tables three or more players short of the fullest halt until balanced (who moves
  where: dealerpi.room.director.seating).
- TRN-5 (TDA RP-8): hand-for-hand: the next hand starts at any table only when every table finished the
  current one; at most two minutes a hand come off the level clock.
- TRN-4 (TDA RP-8-A): players busted in the same hand-for-hand round, at any tables, share the places at
  stake (:meth:`dealerpi.engine.payouts.Standings.bust` without starting stacks); outside hand-for-hand
  each table's busts are settled in the order they came, by starting stacks (more chips, better place).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dealerpi.engine import Standings, parse_config
from dealerpi.room.director.mtt_config import TournamentSettings


def hand_for_hand_cap(settings: TournamentSettings) -> int:
    """TRN-5 (TDA RP-8): at most 3 minutes, preferably 2, off the clock per hand. The room's clock follows the
    tables' own cap: the policy of the very ``table`` input the room sends them (the tournament preset's
    ``hand_for_hand_seconds``, which room.toml cannot override), so the two never disagree."""
    return parse_config(settings.table_input(0)).policies.hand_for_hand_seconds


def draw_seats(players: Sequence[str], tables: Mapping[str, int], rng: random.Random) -> dict[str, tuple[str, int]]:
    """TRN-9: each player's (table, seat), drawn at random; table sizes differ by one at most."""
    if len(set(players)) != len(players):
        raise ValueError("each player registers once")
    if len(players) > sum(tables.values()):
        raise ValueError(f"{len(players)} players do not fit in {sum(tables.values())} seats")
    order = list(players)
    rng.shuffle(order)
    seats = {name: rng.sample(range(1, count + 1), count) for name, count in tables.items()}
    names = sorted(tables)
    drawn: dict[str, tuple[str, int]] = {}
    used = dict.fromkeys(names, 0)
    for player in order:                      # the next player to the emptiest table that has a seat left
        table = min((t for t in names if used[t] < tables[t]), key=lambda t: (used[t], t))
        drawn[player] = (table, seats[table][used[table]])
        used[table] += 1
    return drawn


@dataclass(frozen=True)
class Layout:
    """One table between hands: its seat count, who sits where, and where the last hand's blinds were."""

    name: str
    seats: int
    players: Mapping[int, str]
    small_blind: int
    big_blind: int


def halted(tables: Sequence[Layout]) -> list[str]:
    """TRN-8: the tables three or more players short of the fullest: they wait until balanced."""
    most = max((len(t.players) for t in tables), default=0)
    return [t.name for t in tables if most - len(t.players) >= 3]


def hand_for_hand_due(remaining: int, paid: int) -> bool:
    """TRN-5: on the bubble, one player from the money, hands are dealt hand-for-hand."""
    return remaining == paid + 1


def next_hand_may_start(tables: Sequence[str], finished: set[str]) -> bool:
    """TRN-5: hand-for-hand: a table deals the next hand only when every table finished this one."""
    return set(tables) <= finished


def clock_off(seconds_taken: float, cap: int) -> float:
    """TRN-5: what one hand-for-hand hand takes off the level clock: what it took, ``cap`` at most."""
    return max(0.0, min(seconds_taken, cap))


def settle_round(standings: Standings, busts: Sequence[tuple[Sequence[str], Mapping[str, int]]],
                 hand_for_hand: bool) -> Standings:
    """TRN-4: the players busted in one round, hand by hand in the order the hands were read (each named
    clockwise from its button, with their stacks at the start of the hand). Hand-for-hand at several tables:
    all share the places at stake (TDA RP-8-A); otherwise each hand's busts in turn, more chips at its start
    finishing higher."""
    if hand_for_hand:
        everyone = [player for players, _stacks in busts for player in players]
        return standings.bust(everyone) if everyone else standings
    for players, stacks in busts:
        if players:
            standings = standings.bust(players, stacks)
    return standings
