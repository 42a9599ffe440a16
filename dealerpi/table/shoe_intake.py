"""The card shoe's reads into the pipeline: each read becomes a ``card`` input, exactly once.

A card input carries its read's identity (boot, seq); the shoe link starts from the last identity in the
journal (``resume_from``) and a read already journaled is not applied again, so a read the shoe resends after
a crash between the journal's fsync and the ACK is never applied twice. A read is ACKed only once journaled.
An unknown tag is an alert naming it, never a card (DEAL-7). Shoe trouble (offline, a reader fault, lost
reads) reaches the dealer with one thing to do (shoe/alerts.py).
"""

from __future__ import annotations

import collections
import logging
from collections.abc import Mapping
from typing import Any, Protocol

from dealerpi.engine import Card, Outcome
from dealerpi.shoe.alerts import shoe_alert
from dealerpi.shoe.health import ShoeHealth
from dealerpi.shoe.link import ShoeEvent
from dealerpi.shoe.session import CardRead
from dealerpi.table.applied import Submitted
from dealerpi.table.durable import Durable
from dealerpi.views.model import Alert

_LOGGER = logging.getLogger(__name__)


class Decks(Protocol):
    """The deck library (shoe/decks.DeckLibrary; the simulator's, a test's): a tag's (deck, card), or None."""

    def card_for(self, uid: str) -> tuple[str, str] | None: ...


class IntakeSource(Protocol):
    """What the shoe's intake needs of the daemon: the deck library, the journal side and the pipeline."""

    decks: Decks | None
    durable: Durable
    alerts: collections.deque[Alert]

    def submit(self, entry: Submitted, tags: Mapping[str, Any] | None = None) -> Outcome: ...
    def refresh(self) -> None: ...
    def refresh_dealer(self) -> None: ...


class ShoeIntake:
    """Reads and link events from the shoe (module docstring); ``health`` is the status panel's."""

    def __init__(self, daemon: IntakeSource) -> None:
        self.daemon = daemon
        self.health = ShoeHealth()           # online or not, reader, reads lost, restarts (status panel)
        self._seen = False                   # the shoe was online once: before that, offline is no news

    def read(self, read: CardRead) -> bool:
        """A read from the shoe's link; True once it is durable (or needs no journal), so the link ACKs it.
        False (journal failing): not ACKed, the shoe sends it again."""
        position = self.daemon.durable.shoe_position
        if position is not None and position[0] == read.boot and read.seq <= position[1]:
            _LOGGER.info("shoe read %s/%d is in the journal already: not applied again", read.boot, read.seq)
            return True
        return self.card(read.uid, {"boot": read.boot, "seq": read.seq})

    def card(self, uid: str, read: dict[str, Any] | None) -> bool:
        """A tag read, with its identity (None: the simulator, tests). A read of an unknown tag is journaled
        all the same as ``{"type": "card", "card": null, "tag": UID, "shoe": ...}``, which the engine refuses:
        the journal then knows the shoe's position, so a restart does not report the read as lost."""
        daemon = self.daemon
        found = daemon.decks.card_for(uid) if daemon.decks is not None else None
        if found is None:
            if read is not None and not daemon.durable.append({"type": "card", "card": None, "tag": uid,
                                                               "shoe": read}):
                return False                  # not journaled: not ACKed either, the shoe sends it again
            daemon.alerts.append(Alert("DEAL-7", f"unknown tag {uid}: not in an enrolled deck; take the card "
                                                 "out and check the deck"))
            _LOGGER.warning("unknown tag %s read by the shoe", uid)
            daemon.refresh_dealer()
            return True
        _deck, card = found
        # the read's identity is the daemon's tag, not the card's: journaled after it (docs/journal.md)
        daemon.submit(Card("card", card), {"shoe": read} if read is not None else None)
        if daemon.durable.fault is not None:
            return False                      # not journaled (so not applied)
        daemon.refresh()
        return True

    def event(self, event: ShoeEvent) -> None:
        """Shoe trouble reaches the dealer, each with one thing to do."""
        was_online = self.health.online
        self.health.note(event)
        alert = shoe_alert(event, news=self._seen and self.health.online != was_online)
        self._seen |= self.health.online
        if alert is not None:
            self.daemon.alerts.append(alert)
        self.daemon.refresh_dealer()
