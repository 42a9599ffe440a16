"""``dealerpi deal``: the ICM and chip-chop proposals for a final table, so a director (or a player) can check
the numbers a table's deal is made from (engine/deals.py says how each is computed).

    dealerpi deal --prizes 500,300,200 Ann=5000 Bob=3000 Cy=2000 [--json]
"""

from __future__ import annotations

import argparse
import json
import sys

from dealerpi.engine import DealError, icm_values, proposals


def _stack(text: str) -> tuple[str, int]:
    name, _, chips = text.partition("=")
    if not name or not chips.isdigit() or int(chips) <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: write a player as NAME=CHIPS, e.g. Ann=5000")
    return name, int(chips)


def _prizes(text: str) -> list[int]:
    parts = text.split(",")
    if not all(part.strip().isdigit() for part in parts):
        raise argparse.ArgumentTypeError(f"{text!r}: the prizes still to pay, first place first, e.g. 500,300,200")
    return [int(part) for part in parts]


def main(argv: list[str]) -> int:
    """Print both proposals; exit 0, or 2 with one line naming what is wrong."""
    parser = argparse.ArgumentParser(prog="dealerpi deal",
                                     description="ICM (Malmuth-Harville) and chip-chop deals for the players left.")
    parser.add_argument("--prizes", type=_prizes, required=True,
                        help="the prizes still to pay, first place first: 500,300,200")
    parser.add_argument("players", nargs="+", type=_stack, help="each player left as NAME=CHIPS")
    parser.add_argument("--json", action="store_true", help="print JSON")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    stacks = dict(args.players)
    if len(stacks) != len(args.players):
        print("dealerpi deal: name each player once", file=sys.stderr)
        return 2
    try:
        offers = proposals(stacks, args.prizes)
        exact = icm_values(list(stacks.values()), args.prizes)
    except DealError as error:
        print(f"dealerpi deal: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({**offers, "icm_exact": {name: str(value) for name, value in zip(stacks, exact,
                                                                                        strict=True)}}))
        return 0
    width = max(len("player"), *(len(name) for name in stacks))
    print(f"{'player':<{width}}  {'chips':>9}  {'ICM':>9}  {'chip chop':>9}")
    for name, chips in stacks.items():
        print(f"{name:<{width}}  {chips:>9}  {offers['icm'][name]:>9}  {offers['chip_chop'][name]:>9}")
    return 0
