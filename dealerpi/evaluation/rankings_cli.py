"""``dealerpi rankings --game fileem|holdem``: print a game's hand categories, best first, with exact counts."""

from __future__ import annotations

import argparse
import logging

from dealerpi.cards import HEXADEC, STANDARD
from dealerpi.evaluation.rankings import Ranking, ranking_for

_LOGGER = logging.getLogger(__name__)

_GAMES: dict[str, tuple[str, Ranking]] = {
    "fileem": ("Silicon Valley File 'em (seed 000): seven-card hands of the 64-card Hexadec deck",
               ranking_for(HEXADEC, 7)),
    "holdem": ("Standard poker: five-card hands of the 52-card deck", ranking_for(STANDARD, 5)),
}


def format_rankings(game: str = "fileem") -> str:
    """The title and category table of ``game`` (a key of ``_GAMES``), best category first."""
    title, ranking = _GAMES[game]
    return f"{title}, best first\n\n{ranking.format_table()}"


def main(argv: list[str]) -> int:
    """Print the table; exit status 0, or 2 for bad arguments (argparse's usage message)."""
    parser = argparse.ArgumentParser(
        prog="dealerpi rankings", description="Print a game's hand categories, best first, with exact counts.")
    parser.add_argument("--game", choices=sorted(_GAMES), default="fileem",
                        help="which game's table (default: fileem)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    print(format_rankings(args.game))
    return 0
