"""Players' statistics from one hand's PHH record: pure, no I/O (the room stores the results).

Definitions (the usual tracker ones):
- **VPIP**: the player put chips in pre-flop of his own will: a call of more than nothing (``cc`` facing a
  bet above his own: the big blind's check is not), a bet or a raise (``cbr``). Blinds and antes are forced.
- **PFR**: the player bet or raised pre-flop (``cbr`` before the first ``d db``).
- **showdown**: the hand ended with two or more players not folded; each of them went to showdown.
- **won**: at showdown, the player got chips from a pot: his finishing stack is above what he had left after
  his antes, blinds and bets that someone matched (``finishing - (starting - matched) > 0``; an uncalled bet
  comes back to him and is no pot won).

A player's **session** is PokerStat's (thsoftware.com/pokerstat/help/usersessions.htm): "from when you sit down
at a table till when you leave that table"; two hands are in one session "if both games are played at the
same table, and are no more than 'Max seconds between 2 hands for them to count as same session.' apart"
(``room.toml`` ``[room] session_gap_minutes``). A hand's time is the one its PHH carries (:func:`hand_time`).
"""

from __future__ import annotations

import datetime
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from dealerpi.history.phh import HandRecord, parse_action

Amount = int | Decimal


@dataclass(frozen=True)
class PlayerHand:
    player: str
    vpip: bool
    pfr: bool
    showdown: bool
    won: bool


def hand_stats(record: HandRecord) -> list[PlayerHand]:
    """One line per player dealt in (a record without names gives none)."""
    if record.players is None:
        return []
    n = len(record.starting_stacks)
    starting = list(record.starting_stacks)
    antes = [record.antes[i] if i < len(record.antes) else 0 for i in range(n)]
    blinds = [record.blinds_or_straddles[i] if i < len(record.blinds_or_straddles) else 0 for i in range(n)]
    stacks: list[Amount] = [max(starting[i] - antes[i], 0) for i in range(n)]
    bets: list[Amount] = [min(blinds[i], stacks[i]) for i in range(n)]
    stacks = [stacks[i] - bets[i] for i in range(n)]
    contributed: list[Amount] = [min(antes[i], starting[i]) + bets[i] for i in range(n)]
    top: Amount = max(bets, default=0)
    preflop = True
    vpip: set[int] = set()
    pfr: set[int] = set()
    folded: set[int] = set()
    for text in record.actions:
        action = parse_action(text)
        player = action.player
        if player is None:
            if action.verb == "db":                 # a new street: bets start again
                preflop, bets, top = False, [0] * n, 0
            continue
        if action.verb == "f":
            folded.add(player)
            continue
        if action.verb == "cc":
            pay = min(top - bets[player], stacks[player])
        elif action.verb == "cbr" and action.amount is not None:
            pay = min(action.amount - bets[player], stacks[player])
            if preflop:
                pfr.add(player)
        else:
            continue
        if preflop and pay > 0:
            vpip.add(player)
        bets[player] += pay
        stacks[player] -= pay
        contributed[player] += pay
        top = max(top, bets[player])
    live = [i for i in range(n) if i not in folded]
    showdown = len(live) >= 2
    finishing = record.finishing_stacks
    # issue 20: what nobody matched comes back uncalled (the most anyone else put in caps it): a returned bet
    # is not a pot won
    matched = [min(contributed[i], max((contributed[j] for j in range(n) if j != i), default=0)) for i in range(n)]
    return [PlayerHand(record.players[i], i in vpip, i in pfr, showdown and i in live,
                       showdown and i in live and finishing is not None
                       and finishing[i] - (starting[i] - matched[i]) > 0)
            for i in range(n)]


def hand_time(record: HandRecord) -> int | None:
    """When the hand began, in seconds since the epoch, from PHH's ``year``, ``month``, ``day`` and ``time``
    in ``time_zone`` (phh-std optional.rst, "Time": without a zone, and without the city, region and country
    that would name one, the time is UTC). None: the record has no such time, or one that is not a date."""
    extra = record.extra
    date = [n for n in (extra.get(key) for key in ("year", "month", "day"))
            if isinstance(n, int) and not isinstance(n, bool)]
    clock = extra.get("time")
    if len(date) != 3 or not isinstance(clock, datetime.time):
        return None
    name = extra.get("time_zone")
    zone: datetime.tzinfo
    if name == "UTC" or (name is None and not all(key in extra for key in ("city", "region", "country"))):
        zone = datetime.UTC
    elif isinstance(name, str):
        try:
            zone = zoneinfo.ZoneInfo(name)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
            return None
    else:
        return None                             # a place's local time (no zone to read it in), or not a name
    try:
        moment = datetime.datetime.combine(datetime.date(*date), clock.replace(tzinfo=zone))
    except ValueError:
        return None
    return int(moment.timestamp())


@dataclass(frozen=True)
class Session:
    """One player's hands at one table with no pause longer than the gap between two of them."""

    table: str
    start: int               # the first hand's time (seconds since the epoch)
    end: int                 # the last hand's
    hands: int
    vpip: int
    pfr: int
    showdowns: int
    won: int


def sessions(plays: Iterable[tuple[str, int, bool, bool, bool, bool]], gap: int) -> list[Session]:
    """One player's hands ``(table, time, vpip, pfr, showdown, won)``, in any order, as his sessions, the
    newest first: a hand more than ``gap`` seconds after the one before it at that table begins a new one."""
    found: list[Session] = []
    last: Session | None = None
    for table, time, vpip, pfr, showdown, won in sorted(plays, key=lambda play: (play[0], play[1])):
        if last is None or table != last.table or time - last.end > gap:
            if last is not None:
                found.append(last)
            last = Session(table, time, time, 0, 0, 0, 0, 0)
        last = Session(table, last.start, time, last.hands + 1, last.vpip + vpip, last.pfr + pfr,
                       last.showdowns + showdown, last.won + won)
    if last is not None:
        found.append(last)
    return sorted(found, key=lambda session: (-session.start, session.table))
