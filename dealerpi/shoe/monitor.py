"""Watch a shoe from a terminal: ``python -m dealerpi.shoe.monitor /dev/ttyACM0 [--decks-dir DIR]``.

For bring-up and checks (firmware/README.md): prints each read as it is delivered (UID, and the card if
the deck is enrolled), the link's events, and the link's counters when it stops (Ctrl-C or ``--seconds``).
It prints cards, so it is a bench tool, not something to leave running at a live table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from pathlib import Path

from dealerpi.shoe.decks import DeckFileError, DeckLibrary
from dealerpi.shoe.link import ShoeEvent, ShoeLink


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dealerpi.shoe.monitor", description=__doc__.splitlines()[0])
    parser.add_argument("port", help="serial port or pyserial URL, e.g. /dev/ttyACM0")
    parser.add_argument("--decks-dir", type=Path, help="enrolled decks, to name the cards")
    parser.add_argument("--seconds", type=float, help="stop after this long (default: until Ctrl-C)")
    args = parser.parse_args(argv)
    try:
        library = DeckLibrary.load(args.decks_dir) if args.decks_dir else None
    except DeckFileError as err:
        print(f"monitor: {err}", file=sys.stderr)
        return 1
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(watch(args.port, library, args.seconds))
    return 0


async def watch(port: str, library: DeckLibrary | None, seconds: float | None) -> None:
    link: ShoeLink

    def on_card(uid: str) -> None:
        found = library.card_for(uid) if library else None
        where = f"{found[1]} of deck {found[0]}" if found else ("unknown tag" if library else "")
        print(f"read {link.position}: {uid} {where}".rstrip(), flush=True)

    def on_event(event: ShoeEvent) -> None:
        print(f"event: {event}", flush=True)

    link = ShoeLink(port, on_card=on_card, on_event=on_event)
    await link.start()
    try:
        await asyncio.sleep(seconds if seconds is not None else float("inf"))
    finally:
        await link.stop()
        print("counters: " + ", ".join(f"{k}={v}" for k, v in link.counters().items()), flush=True)


if __name__ == "__main__":
    sys.exit(main())
