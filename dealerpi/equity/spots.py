"""A spot checked and laid out: the game's deck and evaluator, the hands, each board to finish, the stub.

Game names are the engine's (:data:`dealerpi.engine.games.GAMES`: ``nlhe``, ``plo``, ``plo8``, ``plo-double``,
``fileem-nl`` ...) plus ``fileem``, the command line's short name for either File 'em. Boards and runs follow
the engine's deal (dealing.py ``sync``; POT-11 runs, each 1/N of the pot; POT-12 double boards): every board
of every run starts from the cards already common to it and is finished from one stub, runs one after
another (with their own burns), so a card on any board is out of the deck for every other board. Each
board's unseen cards are therefore a uniformly random subset of the cards no board, hand or dead pile holds,
whatever order they come out in: each board is enumerated on its own against that stub.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from dealerpi.cards import CardError, Deck
from dealerpi.engine import GAMES, GameDef
from dealerpi.equity.result import Card, EquityError

_LOGGER = logging.getLogger(__name__)

ALIASES = {"fileem": "fileem-nl"}
"""Command-line names that are not engine keys."""


class Kind(StrEnum):
    """How a game's hands are valued: the evaluator names of :mod:`dealerpi.evaluation.registry`."""

    HOLDEM = "high"
    OMAHA = "omaha_high"
    OMAHA8 = "omaha_low8"
    FILEEM = "fileem"


@dataclass(frozen=True, slots=True)
class Spot:
    """A checked spot: hands, the distinct boards to finish (with how many parts of the pot each is), the
    cards out of the deck for each, and the game's shape."""

    game: GameDef
    kind: Kind
    hands: tuple[tuple[Card, ...], ...]
    boards: tuple[tuple[tuple[Card, ...], int], ...]   # (known cards, parts of the pot it plays for)
    parts: int                                         # parts of the pot in all (boards x runs)
    dead: frozenset[Card]                              # folded hands, burns: out of the deck for every board

    def stub(self, board: Sequence[Card]) -> tuple[Card, ...]:
        """The cards that can still come on ``board``: the deck less hands, dead cards and every board's cards."""
        out = set(self.dead).union(*self.hands, board)
        for other, _ in self.boards:
            out.update(other)
        return tuple(card for card in self.game.deck.cards if card not in out)


def game_def(name: str) -> GameDef:
    """The engine's definition of a game named by its key or command-line alias."""
    key = ALIASES.get(name, name)
    if key not in GAMES:
        known = ", ".join(sorted({*GAMES, *ALIASES}))
        raise EquityError(f"game: {name!r} is not a game DealerPi deals (one of {known})")
    return GAMES[key]


def kind_of(game: GameDef) -> Kind:
    return Kind.OMAHA8 if game.hi_lo else Kind(game.evaluators[0])


def _cards(deck: Deck, cards: Sequence[Card], what: str) -> tuple[Card, ...]:
    """Canonical cards; a plain string ("AhKd", "Ah Kd") is read as the cards written together."""
    try:
        parsed = deck.parse_many(cards) if isinstance(cards, str) else tuple(deck.parse(card) for card in cards)
    except CardError as error:
        raise EquityError(f"{what}: {error}") from None
    return parsed


def make_spot(game_name: str, hands: Sequence[Sequence[Card]], board: Sequence[Card], dead: Sequence[Card],
              boards: Sequence[Sequence[Card]] | None, runs: int) -> Spot:
    """Check every card and size, naming the argument at fault, and lay the spot out."""
    game = game_def(game_name)
    deck = game.deck
    if not hands:
        raise EquityError("hands: give at least one hand")
    if runs < 1:
        raise EquityError(f"runs: {runs} is not a number of runs (1 or more)")
    parsed_hands = tuple(_cards(deck, hand, f"hand {i + 1}") for i, hand in enumerate(hands))
    for i, hand in enumerate(parsed_hands):
        if len(hand) != game.hole_cards:
            raise EquityError(f"hand {i + 1}: {game.title} hands have {game.hole_cards} cards, "
                              f"got {len(hand)} ({''.join(hand) or 'none'})")
    if boards is None:
        listed = [_cards(deck, board, "board")] * game.boards
        names = ["board"] * game.boards
    else:
        if board:
            raise EquityError("board: give either one board or the list of boards, not both")
        if not boards:
            raise EquityError("boards: give at least one board")
        listed = [_cards(deck, b, f"board {i + 1}") for i, b in enumerate(boards)]
        names = [f"board {i + 1}" for i in range(len(listed))]
    for cards, name in zip(listed, names, strict=True):
        if len(cards) > game.board_size:
            raise EquityError(f"{name}: a {game.title} board has at most {game.board_size} cards, got {len(cards)}")
    parsed_dead = _cards(deck, dead, "dead")
    _check_distinct(parsed_hands, listed, names, parsed_dead)
    counted: dict[tuple[Card, ...], int] = {}
    for cards in listed:
        counted[cards] = counted.get(cards, 0) + runs
    spot = Spot(game, kind_of(game), parsed_hands, tuple(counted.items()), len(listed) * runs, frozenset(parsed_dead))
    for cards, parts in spot.boards:
        missing = game.board_size - len(cards)
        if len(spot.stub(cards)) < missing * parts:
            raise EquityError(f"dead: too few cards left in the deck to finish the board{'s' * (runs > 1)}")
    return spot


def _check_distinct(hands: Sequence[tuple[Card, ...]], boards: Sequence[tuple[Card, ...]], names: Sequence[str],
                    dead: Sequence[Card]) -> None:
    """A card may appear on several boards only where they share it (the cards dealt before the runs)."""
    owner: dict[Card, str] = {}
    for what, cards in [*((f"hand {i + 1}", h) for i, h in enumerate(hands)), ("dead", tuple(dead))]:
        for card in cards:
            if card in owner:
                where = "appears twice" if owner[card] == what else f"is already in {owner[card]}"
                raise EquityError(f"{what}: {card} {where}")
            owner[card] = what
    for name, cards in zip(names, boards, strict=True):
        if len(set(cards)) != len(cards):
            twice = next(card for card in cards if cards.count(card) > 1)
            raise EquityError(f"{name}: {twice} appears twice")
        for card in cards:
            if card in owner and not owner[card].startswith("board"):
                raise EquityError(f"{name}: {card} is already in {owner[card]}")
            owner.setdefault(card, name)
