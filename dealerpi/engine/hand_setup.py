"""What every hand of one game at one set of stakes shares, worked out once per structure.

A table deals hundreds of hands at the same blinds and antes, and a replayed corpus repeats a few hundred
structures over thousands of records. Everything a hand's set-up derives from the game and the stakes alone
(each street's betting limits, the blinds padded to the players, who acts first pre-flop, what each player
owes before the cards, the evaluators, the board size after each street) depends only on them, so
``hand_setup`` works it out once and every ``Hand`` of that structure reads it (cachegrind figures in
docs/replay.md, "Speed"). Only the stacks are the hand's own: a player who covers what he owes posts it all;
a short stack is posted step by step by the hand (BLD-10).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealerpi.engine.betting import IllegalAction, Limits, clockwise
from dealerpi.engine.games import GameDef, Structure
from dealerpi.evaluation.registry import EVALUATORS, Evaluator


@dataclass(frozen=True, slots=True)
class HandSetup:
    """The set-up shared by the hands of one game and structure. Per-player tuples are in position order."""

    blinds: tuple[int, ...]
    """Each player's blind, padded with zeros to the players (posted first, BLD-10)."""
    antes: tuple[int, ...]
    """Each player's ante, padded with zeros (posted last)."""
    dead: tuple[int, ...]
    """Each player's dead money (a made-up dead small blind), padded with zeros (posted after the blind)."""
    lone_ante: bool
    """A single player antes: a big-blind ante, paid for the table (BLD-10, TDA RP-11)."""
    forced: tuple[int, ...]
    """Blind, dead money and ante of each player: a stack of at least this posts all of it."""
    dead_paid: tuple[int, ...]
    """Dead money and ante of each player, as posted by a player who covers them."""
    table_dead: tuple[int, ...]
    """Of those, the table's own: dead blinds, and a lone ante (``Hand._post_dead``)."""
    opening_level: int
    """Pre-flop, the big blind's level (the largest blind)."""
    preflop_first: int
    """The first player to act pre-flop: left of the last largest blind, unless the caller said."""
    min_bet: int
    cap: int | None
    board_count: int
    hole_due: int
    """Hole cards to deal in the hand (every player's)."""
    limits_by_street: list[Limits]
    clockwise: list[tuple[int, ...]]
    evaluators: list[Evaluator]
    board_upto: list[int]
    """The board size reached after each street."""
    deck_cards: frozenset[str]


_SETUPS: dict[tuple[object, ...], HandSetup] = {}
_MAX_SETUPS = 4096
"""A daemon meets a handful of structures, a corpus a few hundred; beyond this many the cache starts again."""


def hand_setup(game: GameDef, n: int, blinds: Sequence[int], antes: Sequence[int], dead: Sequence[int],
               min_bet: int, limits: tuple[int, int] | None, cap: int | None, cap_heads_up: bool,
               boards: int | None, last_street_no_limit: bool, preflop_first: int | None) -> HandSetup:
    """The set-up of an ``n``-player hand of ``game`` (``Hand``'s arguments; a game is known by its key).
    Raises IllegalAction for a fixed-limit game without limits."""
    key = (game.key, n, tuple(blinds), tuple(antes), tuple(dead), min_bet, limits, cap, cap_heads_up, boards,
           last_street_no_limit, preflop_first)
    setup = _SETUPS.get(key)
    if setup is None:
        if len(_SETUPS) >= _MAX_SETUPS:
            _SETUPS.clear()
        setup = _SETUPS[key] = _work_out(game, n, blinds, antes, dead, min_bet, limits, cap, cap_heads_up, boards,
                                         last_street_no_limit, preflop_first)
    return setup


def _padded(amounts: Sequence[int], n: int) -> tuple[int, ...]:
    return (*amounts[:n], *(0,) * (n - len(amounts[:n])))


def _work_out(game: GameDef, n: int, blinds: Sequence[int], antes: Sequence[int], dead: Sequence[int],
              min_bet: int, limits: tuple[int, int] | None, cap: int | None, cap_heads_up: bool,
              boards: int | None, last_street_no_limit: bool, preflop_first: int | None) -> HandSetup:
    fixed_limit = game.structure is Structure.FIXED_LIMIT
    if fixed_limit and limits is None:
        raise IllegalAction(f"{game.title} needs limits (small bet, big bet)")
    nominal, ante, dead_money = _padded(blinds, n), _padded(antes, n), _padded(dead, n)
    lone_ante = n - ante.count(0) == 1
    opening_level = max(nominal)
    if preflop_first is None and opening_level:
        last_blind = n - 1 - nominal[::-1].index(opening_level)
        preflop_first = (last_blind + 1) % n
    bet_size = limits[0] if limits else min_bet
    cap = cap if fixed_limit else None
    return HandSetup(
        blinds=nominal, antes=ante, dead=dead_money, lone_ante=lone_ante,
        forced=tuple(b + d + a for b, d, a in zip(nominal, dead_money, ante, strict=True)),
        dead_paid=tuple(d + a for d, a in zip(dead_money, ante, strict=True)),
        table_dead=tuple(d + (a if lone_ante else 0) for d, a in zip(dead_money, ante, strict=True)),
        opening_level=opening_level, preflop_first=preflop_first or 0, min_bet=bet_size, cap=cap,
        board_count=boards or game.boards, hole_due=n * game.hole_cards,
        limits_by_street=_street_limits(game, bet_size, limits, cap, cap_heads_up, last_street_no_limit),
        clockwise=clockwise(n), evaluators=[EVALUATORS[name] for name in game.evaluators],
        board_upto=[sum(s.board_cards for s in game.streets[: k + 1]) for k in range(len(game.streets))],
        deck_cards=game.deck.card_set,
    )


def _street_limits(game: GameDef, bet_size: int, limits: tuple[int, int] | None, cap: int | None,
                   cap_heads_up: bool, last_street_no_limit: bool) -> list[Limits]:
    """The betting structure of each street (BET-5: the big bet on the fixed-limit turn and river)."""
    result = []
    last = len(game.streets) - 1
    for number, street in enumerate(game.streets):
        structure = game.structure
        if number == last and last_street_no_limit:
            structure = Structure.NO_LIMIT        # seed 001: the river of a double-board bomb pot
        size = bet_size
        if limits is not None:
            size = limits[1] if street.big_bet else limits[0]
        result.append(Limits(structure, size, cap, cap_heads_up))
    return result
