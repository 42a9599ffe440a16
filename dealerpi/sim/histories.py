"""The evening's hand histories (PHH), rebuilt from the table's accepted inputs.

The inputs are replayed into a fresh ``Table``; each hand that finishes is written by
``dealerpi.history.from_hand.record_from_hand`` with the forced bets, names and seats the table dealt it
with. Rebuilding from the inputs rather than collecting hands as they end keeps the histories right after an
undo. Misdealt deals are not hands. A hand PHH cannot write (File 'em, several boards or runs, a bomb pot)
is named in a comment at the top of the file instead.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from dealerpi.engine.hand import Hand
from dealerpi.engine.play import HandPlay
from dealerpi.engine.records import Outcome
from dealerpi.engine.table import Table
from dealerpi.history.from_hand import record_from_hand
from dealerpi.history.phh import HandRecord, PHHError, dumps_all

_LOGGER = logging.getLogger(__name__)


class JournalTable(Table):
    """A table that keeps the inputs it accepted, less those undone: the evening's, which the simulator's
    PHH download and tournament clock read (the engine's ``Table`` keeps only the current hand's)."""

    def __init__(self) -> None:
        super().__init__()
        self.accepted: list[dict[str, Any]] = []

    def apply(self, entry: Mapping[str, Any]) -> Outcome:
        outcome = super().apply(entry)
        if outcome.accepted and entry.get("type") == "undo":
            self.accepted.pop()
        elif outcome.accepted:
            self.accepted.append(dict(entry))
        return outcome


def _setup(table: Table, play: HandPlay) -> dict[str, Any]:
    """What ``record_from_hand`` needs besides the hand, read from the hand's play as it is dealt."""
    plan, straddles = play.plan, dict(play.straddles)
    order = plan.order
    return {
        "blinds": [plan.blinds.get(s, 0) + straddles.get(s, 0) for s in order],
        "antes": [plan.antes.get(s, 0) for s in order],
        "dead": [plan.dead.get(s, 0) for s in order],
        "players": [table.seats[s].player for s in order],
        "extra": {"hand": play.number, "seats": list(order), "seat_count": play.config.seats},
    }


def _hand(table: Table) -> Hand | None:
    return None if table.play is None else table.play.hand


class HandRecorder:
    """:func:`hand_records` one input at a time, for a reader that follows a journal as it grows (the room
    bridge, :mod:`dealerpi.console.final_hands`)."""

    def __init__(self, table: Table | None = None) -> None:
        self.table = Table() if table is None else table      # a table from a checkpoint: go on from there
        self._setups: dict[int, tuple[Hand, dict[str, Any]]] = {}   # by id(hand); the hand kept so its id stays
        self.skipped: list[str] = []

    def feed(self, entry: Mapping[str, Any]) -> list[HandRecord]:
        """Apply one accepted input; the PHH records of the hands it finished."""
        table, setups = self.table, self._setups
        before_hand, before_count = _hand(table), len(table.records)
        accepted = table.apply(entry).accepted
        play = table.play
        if play is not None and id(play.hand) not in setups:
            setups[id(play.hand)] = (play.hand, _setup(table, play))   # a refusal rebuilds the hand: a new id
        if not accepted:
            return []
        now = _hand(table)
        records: list[HandRecord] = []
        for deal in table.records[before_count:]:
            finished = before_hand if before_hand is not None and before_hand is not now else now
            if deal.misdeal or finished is None or id(finished) not in setups:
                continue
            try:
                records.append(record_from_hand(finished, **setups[id(finished)][1]))
            except PHHError as exc:
                self.skipped.append(f"hand {deal.number}: {exc}")
        return records


def hand_records(inputs: Iterable[Mapping[str, Any]]) -> tuple[list[HandRecord], list[str]]:
    """Every hand finished by ``inputs`` (a table's accepted inputs) as PHH, and the hands PHH cannot write."""
    recorder = HandRecorder()
    records = [record for entry in inputs for record in recorder.feed(entry)]
    return records, recorder.skipped


def phh_text(inputs: Iterable[Mapping[str, Any]]) -> str:
    """The ``.phhs`` text of every finished hand, the unwritable ones named in comments."""
    records, skipped = hand_records(inputs)
    notes = "".join(f"# not written: {line}\n" for line in skipped)
    return notes + dumps_all(records)
