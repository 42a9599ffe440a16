"""The card shoe: frame codec (shared with the firmware), host link, deck enrollment.

    link = ShoeLink("/dev/ttyACM0", on_card=handle_uid, on_event=handle_event)   # link.py
    library = DeckLibrary.load(Path("/var/lib/dealerpi/decks"))                   # decks.py
    library.card_for(uid) -> (deck name, card) | None
"""

from dealerpi.shoe.decks import DeckFileError, DeckLibrary, DeckMap, DuplicateTagError, UnknownTagError
from dealerpi.shoe.link import Backoff, LinkState, ShoeEvent, ShoeLink, ShoeOffline, ShoeOnline
from dealerpi.shoe.session import CardRead, ReaderFault, ReadsLost, ShoeRestarted

__all__ = [
    "Backoff",
    "CardRead",
    "DeckFileError",
    "DeckLibrary",
    "DeckMap",
    "DuplicateTagError",
    "LinkState",
    "ReaderFault",
    "ReadsLost",
    "ShoeEvent",
    "ShoeLink",
    "ShoeOffline",
    "ShoeOnline",
    "ShoeRestarted",
    "UnknownTagError",
]
