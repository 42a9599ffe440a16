"""Players' statistics from one hand's PHH record: pure, no I/O (the room stores the results).

Definitions (the usual tracker ones):
- **VPIP**: the player put chips in pre-flop of his own will: a call of more than nothing (``cc`` facing a
  bet above his own: the big blind's check is not), a bet or a raise (``cbr``). Blinds and antes are forced.
- **PFR**: the player bet or raised pre-flop (``cbr`` before the first ``d db``).
- **showdown**: the hand ended with two or more players not folded; each of them went to showdown.
- **won**: at showdown, the player got chips from a pot: his finishing stack is above what he had left after
  his antes, blinds and bets (``finishing - (starting - contributed) > 0``).
"""

from __future__ import annotations

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
    return [PlayerHand(record.players[i], i in vpip, i in pfr, showdown and i in live,
                       showdown and i in live and finishing is not None
                       and finishing[i] - (starting[i] - contributed[i]) > 0)
            for i in range(n)]
