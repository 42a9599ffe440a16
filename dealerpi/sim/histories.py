"""The evening's hand histories (PHH), rebuilt from the table's accepted inputs.

The inputs are replayed into a fresh ``Table`` and every hand that finishes is written from the engine's own
``Hand``: its starting stacks, its log of cards and actions (PHH's verbs: ``dh``, ``db``, ``f``, ``cc``,
``cbr``, ``sm``) and its final stacks. Rebuilding from the inputs rather than collecting hands as they end
keeps the histories right after an undo. Misdealt deals are not hands and are left out.

This belongs in dealerpi/history next to the reader and writer (``phh.dumps_all`` writes the text); it lives
here until it moves. PHH has no variant code for File 'em or a double board: those hands carry the engine's
game key as their variant, which ``dealerpi replay`` reports as unsupported.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, cast

from dealerpi.engine.hand import Hand
from dealerpi.engine.inputs import TableConfig
from dealerpi.engine.table import Table
from dealerpi.history.phh import HandRecord, dumps_all
from dealerpi.history.replay import VARIANTS

_LOGGER = logging.getLogger(__name__)

PHH_VARIANT = {game: code for code, game in VARIANTS.items()}


@dataclass(frozen=True)
class _Deal:
    """What the table knew when a hand was dealt: its config, seats in order, forced bets, names."""

    config: TableConfig
    number: int
    order: tuple[int, ...]
    blinds: tuple[int, ...]
    antes: tuple[int, ...]
    players: tuple[str, ...]


def _deal_of(table: Table) -> _Deal:
    config, plan = table.config, table.plan
    assert config is not None and plan is not None
    order = tuple(plan.order)
    if table.bomb is not None:
        blinds = (0,) * len(order)
        antes = (int(table.bomb["ante"]),) * len(order)
    else:
        straddles = dict(table.straddles)
        blinds = tuple(plan.blinds.get(s, 0) + straddles.get(s, 0) for s in order)
        antes = tuple(plan.antes.get(s, 0) + plan.dead.get(s, 0) for s in order)
    players = tuple(table.seats[s].player for s in order)
    return _Deal(config, table.hand_number, order, blinds, antes, players)


def _actions(hand: Hand) -> list[str]:
    """The hand's log as PHH actions: the final hole cards first, then board cards and actions in order.

    The engine takes board cards one by one as the shoe reads them; PHH writes a street's cards in one
    ``d db``, so the cards of one street of one board are joined.
    """
    actions = [f"d dh p{i + 1} {''.join(cards)}" for i, cards in enumerate(hand.hole)]
    ends = set(accumulate(street.board_cards for street in hand.game.streets))   # 3, 4, 5 in hold'em
    dealt: dict[int, int] = {}            # board -> cards on it so far
    open_line: dict[int, int] = {}        # board -> index of its street's unfinished "d db" line
    line_board: dict[int, int] = {}       # index of a "d db" line -> its board
    for event in hand.log:
        verb, args = event[0], cast(tuple[Any, ...], event[1:])
        if verb in ("f", "cc", "kill"):
            actions.append(f"p{args[0] + 1} {'cc' if verb == 'cc' else 'f'}")
        elif verb == "cbr":
            actions.append(f"p{args[0] + 1} cbr {args[1]}")
        elif verb == "db":
            board, cards = args[0], "".join(args[1])
            if board in open_line:
                actions[open_line[board]] += cards
            else:
                open_line[board] = len(actions)
                line_board[len(actions)] = board
                actions.append(f"d db {cards}")
            dealt[board] = dealt.get(board, 0) + len(args[1])
            if dealt[board] in ends:
                del open_line[board]
        elif verb == "retract":                      # BRD-1: the void flop's cards were taken back
            while actions and actions[-1].startswith("d db"):
                board = line_board.pop(len(actions) - 1)
                dealt[board] -= len(actions.pop().removeprefix("d db ")) // 2
            open_line.clear()
        elif verb == "sm":
            actions.append(f"p{args[0] + 1} sm {''.join(args[1]) if args[1] else '-'}")
    return actions


def hand_record(hand: Hand, deal: _Deal) -> HandRecord:
    """One finished hand as a PHH record (players in position order: p1 is left of the button)."""
    blinds, antes = deal.blinds, deal.antes
    if len(deal.order) == 2:
        # PHH lists heads-up forced bets as [small blind, big blind]; p1 is the big blind (BLD-4)
        blinds, antes = blinds[::-1], antes[::-1]
    config = deal.config
    limits = config.limits
    extra: dict[str, Any] = {"hand": deal.number, "seats": list(deal.order), "seat_count": config.seats}
    return HandRecord(
        variant=PHH_VARIANT.get(config.game.key, config.game.key),
        starting_stacks=tuple(hand.starting), actions=tuple(_actions(hand)), antes=antes,
        blinds_or_straddles=blinds, min_bet=None if limits else config.min_bet,
        small_bet=limits[0] if limits else None, big_bet=limits[1] if limits else None,
        players=deal.players, finishing_stacks=tuple(hand.stacks), extra=extra)


def hand_records(inputs: Iterable[Mapping[str, Any]]) -> list[HandRecord]:
    """Every hand finished by ``inputs`` (a table's accepted inputs), in order."""
    table = Table()
    deals: dict[int, tuple[Hand, _Deal]] = {}       # by id(hand); the hand is kept so its id stays its own
    records: list[HandRecord] = []
    for entry in inputs:
        before_hand, before_count = table.hand, len(table.records)
        accepted = table.apply(entry).accepted
        if table.hand is not None and id(table.hand) not in deals and table.plan is not None:
            deals[id(table.hand)] = (table.hand, _deal_of(table))   # a refusal restores a copy: a new id
        if not accepted:
            continue
        for record in table.records[before_count:]:
            finished = before_hand if before_hand is not None and before_hand is not table.hand else table.hand
            if record.misdeal or finished is None or id(finished) not in deals:
                continue
            records.append(hand_record(finished, deals[id(finished)][1]))
    return records


def phh_text(inputs: Iterable[Mapping[str, Any]]) -> str:
    """The ``.phhs`` text of every finished hand."""
    return dumps_all(hand_records(inputs))
