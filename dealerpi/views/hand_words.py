"""The words of a finished hand for the console's list: who won how much, and with what ("Ann wins 120 with a
flush, ace high").

The engine's deal record says who won each pot (``won``), the boards and the hands tabled at the showdown
(``shown``), not the name of the winning hand; the name is read here with the game's own evaluators and
their words (``dealerpi.evaluation.registry``, File 'em categories included), per board and per half as the
engine splits a pot (POT-4 high/low, POT-11/12 boards and runs). Only a tabled hand is named: a pot won when
everyone else folded or mucked without showing names none (POT-8), and no unshown card is looked at.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dealerpi.engine import DealRecord
from dealerpi.evaluation.registry import EVALUATORS, describe

_WITH_ARTICLE = ("flush", "straight", "full house")


def _phrase(words: str) -> str:
    """ "a flush, ace high", "two pair, kings and fives", "an 8-6-4-2-A low"."""
    if words.startswith(_WITH_ARTICLE):
        return "a " + words
    if words.endswith(" low"):
        return ("an " if words.startswith("8") else "a ") + words
    return words


def winning_hands(record: DealRecord, evaluators: Sequence[str]) -> dict[int, str]:
    """Seat -> the words for the tabled hand that won it chips, for each share it won (board, high or low)."""
    tabled = {seat: record.hole[seat] for seat in record.shown if "??" not in record.hole.get(seat, ["??"])}
    found: dict[int, list[str]] = {}
    for pot in record.pots:
        winners = {seat for seat, chips in pot.won if chips}
        contenders = [seat for seat in pot.eligible if seat in tabled]
        for board in record.boards:
            for name in evaluators:
                values = {}
                for seat in contenders:
                    try:
                        value = EVALUATORS[name](tabled[seat], board)
                    except ValueError:          # a board cut short (a hand killed before the river)
                        continue
                    if value is not None:       # no qualifying low (POT-4)
                        values[seat] = value
                if not values:
                    continue
                top = max(values.values())
                for seat in sorted(winners):
                    words = _phrase(describe(name, top))
                    if values.get(seat) == top and words not in found.setdefault(seat, []):
                        found[seat].append(words)
    return {seat: " and ".join(words) for seat, words in found.items() if words}


def summary(record: DealRecord, players: Mapping[int, str], evaluators: Sequence[str]) -> dict[str, Any]:
    """The list's line of a hand: the pot, and each winner's chips, name and hand, in words too."""
    won: dict[int, int] = {}
    for pot in record.pots:
        for seat, chips in pot.won:
            won[seat] = won.get(seat, 0) + chips
    names = winning_hands(record, evaluators)
    winners = []
    for seat, chips in sorted(won.items()):
        if not chips:
            continue
        player = players.get(seat) or f"Seat {seat}"
        hand = names.get(seat)
        winners.append({"seat": seat, "player": player, "chips": chips, "hand": hand,
                        "text": f"{player} wins {chips}" + (f" with {hand}" if hand else "")})
    return {"number": record.number, "button": record.button, "pot": sum(pot.amount for pot in record.pots),
            "boards": [list(board) for board in record.boards], "winners": winners}
