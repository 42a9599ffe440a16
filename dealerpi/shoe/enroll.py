"""``dealerpi enroll``: deal a deck through the shoe in a known order and save which tag is on which card.

    dealerpi enroll red-1 --port /dev/ttyACM0                    # a standard deck, in dealerpi's order
    dealerpi enroll blue --port /dev/ttyACM0 --deck hexadec      # the 64-card Hexadec deck
    dealerpi enroll red-1 --port /dev/ttyACM0 --order new-deck-order.txt --force
    dealerpi enroll --list                                       # check the folder, list its decks

The default order is the deck's own (``dealerpi.cards.STANDARD.cards``: 2s 2h 2d 2c 3s ... Ac;
``HEXADEC.cards``: 1s 1h ... 0c); ``--order`` takes a file listing the cards in the order they will be
dealt (e.g. a new deck straight from its box). Reads made before the command started are ignored. Any
problem (a tag scanned twice, a tag already in another deck, no read within ``--timeout``) stops the
enrollment with a message and saves nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from dealerpi.cards import DECKS
from dealerpi.shoe.decks import (
    DeckFileError,
    DeckLibrary,
    DeckMap,
    DuplicateTagError,
    check_name,
    deck_path,
    read_order,
    save,
)
from dealerpi.shoe.link import ShoeEvent, ShoeLink, ShoeOffline

_LOGGER = logging.getLogger(__name__)

DEFAULT_DECKS_DIR = Path("/var/lib/dealerpi/decks")


class EnrollError(Exception):
    """Enrollment stopped; nothing was saved. The message says why and what to do."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dealerpi enroll", description="Map a deck's RFID tags to its cards.")
    parser.add_argument("name", nargs="?", help="the deck's name, e.g. red-1 (its file is NAME.json)")
    parser.add_argument("--port", help="the shoe's serial port or pyserial URL, e.g. /dev/ttyACM0")
    parser.add_argument("--deck", choices=sorted(DECKS), default="standard", help="card set (default: standard)")
    parser.add_argument("--order", type=Path, help="file listing the cards in the order they will be dealt")
    parser.add_argument("--decks-dir", type=Path, default=DEFAULT_DECKS_DIR,
                        help=f"folder of deck files (default: {DEFAULT_DECKS_DIR})")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds to wait for each card, and for the shoe (default: 120)")
    parser.add_argument("--force", action="store_true", help="replace an existing deck of that name")
    parser.add_argument("--list", action="store_true", help="check the decks folder and list its decks")
    return parser


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.list:
            return _list(args.decks_dir)
        if not args.name or not args.port:
            parser.error("a deck NAME and --port are needed (or --list)")
        deck = DECKS[args.deck]
        order = read_order(args.order, deck) if args.order else deck.cards
        others = _other_decks(args.decks_dir, check_name(args.name), force=args.force)
        tags = asyncio.run(scan(args.port, order, others, timeout=args.timeout))
        path = save(DeckMap(args.name, deck, tags), args.decks_dir)
    except (EnrollError, DeckFileError) as err:
        print(f"dealerpi enroll: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("dealerpi enroll: interrupted; nothing saved", file=sys.stderr)
        return 130
    print(f"saved {len(tags)} tags of deck {args.name!r} ({deck.name}) to {path}")
    return 0


def _list(folder: Path) -> int:
    library = DeckLibrary.load(folder)  # raises DeckFileError naming the bad file
    if not library.decks:
        print(f"no decks in {folder}")
    for name, deck_map in library.decks.items():
        print(f"{name}: {len(deck_map.tags)} of {len(deck_map.deck)} {deck_map.deck.name} cards")
    return 0


def _other_decks(folder: Path, name: str, *, force: bool) -> DeckLibrary:
    """The decks already enrolled, minus the one being replaced; refuse to replace without --force."""
    if deck_path(folder, name).exists() and not force:
        raise EnrollError(f"deck {name!r} already exists in {folder}; use --force to enroll it again")
    library = DeckLibrary.load(folder)
    return DeckLibrary([d for d in library.decks.values() if d.name != name], folder)


async def scan(url: str, order: tuple[str, ...], others: DeckLibrary, *, timeout: float) -> dict[str, str]:
    """Prompt for each card in ``order`` and return tag UID -> card; EnrollError on any problem."""
    reads: asyncio.Queue[str] = asyncio.Queue()

    def on_event(event: ShoeEvent) -> None:
        if isinstance(event, ShoeOffline):
            print(f"  (shoe offline: {event.reason}; waiting for it)", file=sys.stderr)

    link = ShoeLink(url, on_card=reads.put_nowait, on_event=on_event, skip_backlog=True)
    await link.start()
    try:
        try:
            await asyncio.wait_for(link.wait_online(), timeout)
        except TimeoutError:
            raise EnrollError(f"no shoe answered on {url} within {timeout:g} s; nothing saved") from None
        tags: dict[str, str] = {}
        for number, card in enumerate(order, start=1):
            print(f"[{number}/{len(order)}] deal {card}", flush=True)
            try:
                uid = await asyncio.wait_for(reads.get(), timeout)
            except TimeoutError:
                raise EnrollError(f"no card read within {timeout:g} s (waiting for {card}); nothing saved") from None
            _check_new(uid, card, tags, others)
            tags[uid] = card
        return tags
    finally:
        await link.stop()


def _check_new(uid: str, card: str, tags: dict[str, str], others: DeckLibrary) -> None:
    if uid in tags:
        raise DuplicateTagError(f"tag {uid} was already read as {tags[uid]} and came again for {card}: the same "
                                "card passed twice, or two cards share a tag; nothing saved")
    known = others.card_for(uid)
    if known is not None:
        raise DuplicateTagError(f"tag {uid} (read for {card}) is already enrolled as {known[1]} in deck "
                                f"{known[0]!r}; nothing saved")
