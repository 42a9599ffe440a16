"""What the table daemon makes of the shoe for the dealer: an alert per shoe event, and the deck library.

Each alert says what happened and the one thing to do (issue 12). Lost reads name the digest's procedure:
the shoe's reads follow the deal order (DEAL-4), so the dealer counts each hand's cards; a wrong count
before substantial action is a misdeal (MIS-1), after it that hand is dead (MIS-4).
"""

from __future__ import annotations

import logging
from pathlib import Path

from dealerpi.engine import Alert
from dealerpi.shoe.decks import DeckFileError, DeckLibrary
from dealerpi.shoe.link import ShoeEvent, ShoeOffline, ShoeOnline
from dealerpi.shoe.session import ReaderFault, ReadsLost, ShoeRestarted

_LOGGER = logging.getLogger(__name__)


def load_decks(folder: Path) -> DeckLibrary | None:
    """The enrolled decks; None (every tag unknown, said in the log) if the folder cannot be read."""
    try:
        library = DeckLibrary.load(folder)
    except (OSError, DeckFileError) as exc:
        _LOGGER.error("decks in %s: %s; every tag will be reported as unknown", folder, exc)
        return None
    if not len(library):
        _LOGGER.warning("no enrolled deck in %s (dealerpi enroll); every tag will be reported as unknown", folder)
    return library


def shoe_alert(event: ShoeEvent, *, news: bool) -> Alert | None:
    """The dealer's alert for a shoe event: what happened and the one thing to do. Going offline or online
    is ``news`` only once the shoe has been online (at start-up the header's "shoe offline" says it)."""
    if isinstance(event, ReadsLost):
        return Alert("DEAL-4", f"the shoe lost {event.count} card read{'s' if event.count > 1 else ''}: "
                               "count each hand's cards against the deal order; wrong before action is a "
                               "misdeal (MIS-1), after action that hand is dead (MIS-4)")
    if isinstance(event, ShoeRestarted):
        return Alert("SHOE", "the shoe restarted (power or reset): check that the last card dealt shows here")
    if isinstance(event, ReaderFault):
        if event.active:
            return Alert("SHOE", "the shoe's card reader does not answer: stop dealing, check the reader cable")
        return Alert("SHOE", "the shoe's card reader works again: deal on")
    if isinstance(event, ShoeOffline) and news:
        return Alert("SHOE", f"shoe offline ({event.reason}): stop dealing, check the shoe's USB cable")
    if isinstance(event, ShoeOnline) and news:
        return Alert("SHOE", "shoe back online: deal on")
    return None
