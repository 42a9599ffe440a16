"""``dealerpi equity``: the equities of hands, as pokenum prints them, so anyone can check a number.

    dealerpi equity [--game nlhe|plo|plo8|fileem] [--board CARDS] [--dead CARDS] HAND HAND ... [--json]

Cards are written together or apart ("AhKd", "Ah,Kd"). A bad card, a card twice or a hand of the wrong size
is one error line naming the argument, and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from typing import NoReturn

from dealerpi.equity.compute import compute_equities
from dealerpi.equity.result import EquityError, EquityResult
from dealerpi.equity.spots import game_def

_LOGGER = logging.getLogger(__name__)

GAMES = ("nlhe", "plo", "plo8", "fileem")


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is the same one line as a bad card (argparse prints the usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"dealerpi equity: {message} (see dealerpi equity --help)\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="dealerpi equity", description="Exact equities of poker hands "
                     "(File 'em early streets: Monte Carlo, with its standard error).")
    parser.add_argument("hands", nargs="+", metavar="HAND", help="a player's hole cards, e.g. AhAs")
    parser.add_argument("--game", choices=GAMES, default="nlhe", help="the game (default nlhe)")
    parser.add_argument("--board", default="", help="the board so far, e.g. 2c7d9h")
    parser.add_argument("--dead", default="", help="cards out of the deck: folded hands, burns")
    parser.add_argument("--samples", type=int, help="Monte Carlo with this many boards instead of exact")
    parser.add_argument("--seed", type=int, default=0, help="the Monte Carlo seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    return parser


def to_json(result: EquityResult) -> dict[str, object]:
    """``{"hands": [{"cards": "AhAs", "equity": 0.81...}, ...]}``; hi-lo adds high, low, scoop; Monte Carlo
    adds stderr (per hand), and the whole says whether it is exact and over how many boards."""
    hands: list[dict[str, object]] = []
    for hand in result.hands:
        entry: dict[str, object] = {"cards": "".join(hand.cards), "equity": hand.equity}
        if hand.high is not None:
            entry.update(high=hand.high, low=hand.low, scoop=hand.scoop)
        if hand.stderr is not None:
            entry["stderr"] = hand.stderr
        hands.append(entry)
    return {"game": result.game, "exact": result.exact, "boards": result.boards, "hands": hands}


def to_text(result: EquityResult, board: str, dead: str) -> str:
    """A table: one line per hand, percentages (hi-lo: high, low and scoop too; Monte Carlo: +/- stderr)."""
    title = game_def(result.game).title
    how = (f"exact, {result.boards:,} boards" if result.exact
           else f"Monte Carlo, {result.boards:,} boards, standard error shown")
    lines = [f"{title}: {how}" + (f"; board {board}" if board else "") + (f"; dead {dead}" if dead else "")]
    hi_lo = result.hands[0].high is not None
    header = f"{'cards':<14}{'equity':>10}"
    if hi_lo:
        header += f"{'high':>10}{'low':>10}{'scoop':>10}"
    lines.append(header)
    for hand in result.hands:
        line = f"{''.join(hand.cards):<14}{hand.equity:>10.4%}"
        if hand.high is not None and hand.low is not None and hand.scoop is not None:
            line += f"{hand.high:>10.4%}{hand.low:>10.4%}{hand.scoop:>10.4%}"
        if hand.stderr is not None:
            line += f"  +/- {hand.stderr:.4%}"
        lines.append(line)
    return "\n".join(lines)


_OPTION_NAMES = {"board": "--board", "dead": "--dead", "samples": "--samples"}


def main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    try:
        result = compute_equities(args.game, args.hands, args.board, args.dead, samples=args.samples, seed=args.seed)
    except EquityError as error:
        what, _, why = str(error).partition(": ")
        print(f"dealerpi equity: {_OPTION_NAMES.get(what, what)}: {why}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(to_json(result)))
    else:
        print(to_text(result, args.board, args.dead))
    return 0
