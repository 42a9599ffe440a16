"""The evening's hand histories (PHH), rebuilt from the table's accepted inputs.

The inputs are replayed into a fresh ``Table``; each hand that finishes is written by
``dealerpi.history.from_hand.record_from_hand`` with the forced bets, names and seats the table dealt it
with. Rebuilding from the inputs rather than collecting hands as they end keeps the histories right after an
undo. Misdealt deals are not hands. A hand PHH cannot write (File 'em, several boards or runs, a bomb pot)
is named in a comment at the top of the file instead.

A hand's time is its ``start``'s ``"at"`` (the daemon journals every start with it, dealerpi/controller.py),
written as PHH's optional ``year``, ``month``, ``day``, ``time`` (a TOML local time) and ``time_zone =
"UTC"`` (github.com/uoftcprg/phh-std, optional.rst, "Time": the time is in ``time_zone``). A start without
a good ``"at"`` (an old journal, a simulated table) gives a hand without these keys.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable, Mapping
from typing import Any

from dealerpi.engine import DealtHand, Outcome, Table
from dealerpi.engine.records import DealRecord
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


def phh_time(at: object) -> dict[str, Any]:
    """PHH's time keys for a journaled ``"at"`` (``2026-11-24T21:05:09Z``); none when it is not one."""
    try:
        moment = datetime.datetime.fromisoformat(at) if isinstance(at, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        return {}
    moment = moment.astimezone(datetime.UTC)
    return {"year": moment.year, "month": moment.month, "day": moment.day,
            "time": moment.time().replace(microsecond=0), "time_zone": "UTC"}


def _record(dealt: DealtHand, at: object = None) -> HandRecord:
    """The PHH record of a finished hand, with the forced bets, names, seats and time it was dealt with."""
    return record_from_hand(dealt.hand, blinds=dealt.blinds, antes=dealt.antes, dead=dealt.dead,
                            players=dealt.players,
                            extra={"hand": dealt.number, **phh_time(at), "seats": list(dealt.seats),
                                   "seat_count": dealt.seat_count})


def deals_after(records: list[DealRecord], last: DealRecord | None) -> list[DealRecord]:
    """The deals recorded after ``last`` (the newest one before an input; None: there was none).

    Found by the record itself, not by counting: a table with ``records_kept`` set drops its oldest records
    when a ``start`` is accepted between hands (Table._forget_old_records), so the list's length before an
    input is no index into it after. (Today such a start records no deal, a start that settles a showdown
    being taken within the hand, so a count would come out right by luck; this does not rely on it.) The
    drop takes deals from before that start only, so when ``last`` is gone (``records_kept`` 0) every deal
    left is new. A deal number is not enough on its own: a misdealt deal and its redeal share one (MIS-6)."""
    for index in range(len(records) - 1, -1, -1):
        if records[index] is last:
            return records[index + 1:]
    return list(records)


class HandRecorder:
    """:func:`hand_records` one input at a time, for a reader that follows a journal as it grows (the room
    bridge, :mod:`dealerpi.console.final_hands`)."""

    def __init__(self, table: Table | None = None) -> None:
        self.table = Table() if table is None else table      # a table from a checkpoint: go on from there
        self.skipped: list[str] = []
        self.started: dict[int, object] = {}               # hand number -> the "at" of the start that dealt it
        self.new_deals: list[DealRecord] = []               # the deals the last input recorded

    def feed(self, entry: Mapping[str, Any]) -> list[HandRecord]:
        """Apply one accepted input; the PHH records of the hands it finished."""
        table = self.table
        before, last = table.dealt_hand(), table.records[-1] if table.records else None
        self.new_deals = []
        if not table.apply(entry).accepted:
            return []
        self.new_deals = deals_after(table.records, last)
        now = table.dealt_hand()
        if entry.get("type") == "start" and now is not None:
            self.started[now.number] = entry.get("at")
        records: list[HandRecord] = []
        for deal in self.new_deals:
            # The hand in play before the input (a START settles an open showdown, then deals), or the one
            # in play after it (it ended the hand); a misdeal's redeal has its number but is not a hand.
            finished = next((d for d in (now, before) if d is not None and d.number == deal.number), None)
            if deal.misdeal or finished is None:
                continue
            try:
                records.append(_record(finished, self.started.pop(deal.number, None)))
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
