"""Games as data: deck, hole cards, streets, betting structure, evaluators and boards.

Adding a variant is adding a ``GameDef`` here; the hand machinery has no branch per game.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dealerpi.cards import HEXADEC, STANDARD, Deck


class Structure(StrEnum):
    """How big a bet may be."""

    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"


@dataclass(frozen=True, slots=True)
class StreetDef:
    """One street: a burn (or not), then ``board_cards`` to each board, then a betting round.

    ``big_bet`` marks the fixed-limit streets played with the upper limit (BET-5: turn and river).
    """

    name: str
    board_cards: int
    burn: bool
    big_bet: bool = False


@dataclass(frozen=True, slots=True)
class GameDef:
    """A game: everything the hand, the dealing and the showdown need to know about it."""

    key: str
    title: str
    deck: Deck
    hole_cards: int
    streets: tuple[StreetDef, ...]
    structure: Structure
    evaluators: tuple[str, ...]        # ("high",) or a high-low pair such as ("omaha_high", "omaha_low8")
    boards: int = 1

    @property
    def board_size(self) -> int:
        """Cards on one complete board."""
        return sum(street.board_cards for street in self.streets)

    @property
    def hi_lo(self) -> bool:
        return len(self.evaluators) == 2


# DEAL-3, DEAL-4: one burn before the flop, the turn and the river; none before the hole cards.
HOLDEM_STREETS = (
    StreetDef("preflop", 0, burn=False),
    StreetDef("flop", 3, burn=True),
    StreetDef("turn", 1, burn=True, big_bet=True),
    StreetDef("river", 1, burn=True, big_bet=True),
)
# DEAL-6, seed 000: flop of 4, turn of 2, river of 1, a burn before each.
FILEEM_STREETS = (
    StreetDef("preflop", 0, burn=False),
    StreetDef("flop", 4, burn=True),
    StreetDef("turn", 2, burn=True, big_bet=True),
    StreetDef("river", 1, burn=True, big_bet=True),
)

_NL, _PL, _FL = Structure.NO_LIMIT, Structure.POT_LIMIT, Structure.FIXED_LIMIT
_HILO = ("omaha_high", "omaha_low8")

GAMES: dict[str, GameDef] = {
    game.key: game
    for game in (
        GameDef("nlhe", "No-limit hold'em", STANDARD, 2, HOLDEM_STREETS, _NL, ("high",)),
        GameDef("plhe", "Pot-limit hold'em", STANDARD, 2, HOLDEM_STREETS, _PL, ("high",)),
        GameDef("flhe", "Fixed-limit hold'em", STANDARD, 2, HOLDEM_STREETS, _FL, ("high",)),
        GameDef("plo", "Pot-limit Omaha", STANDARD, 4, HOLDEM_STREETS, _PL, ("omaha_high",)),
        GameDef("plo8", "Pot-limit Omaha hi-lo 8-or-better", STANDARD, 4, HOLDEM_STREETS, _PL, _HILO),
        GameDef("flo8", "Fixed-limit Omaha hi-lo 8-or-better", STANDARD, 4, HOLDEM_STREETS, _FL, _HILO),
        GameDef("fileem-nl", "No-limit Silicon Valley File 'em", HEXADEC, 3, FILEEM_STREETS, _NL, ("fileem",)),
        GameDef("fileem-pl", "Pot-limit Silicon Valley File 'em", HEXADEC, 3, FILEEM_STREETS, _PL, ("fileem",)),
        # seed 001: double-board PLO bomb pot (started with a bomb; the table can also ask for 2 boards).
        GameDef("plo-double", "Double-board pot-limit Omaha", STANDARD, 4, HOLDEM_STREETS, _PL,
                ("omaha_high",), boards=2),
    )
}
