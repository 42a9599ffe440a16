"""The one recorder of finished hands: the engine's events in, hand records (PHH) out (issue 22).

Every reader of a table's finished hands (the console's room bridge, whose records the room's books read,
and hand-history pages, the simulator's, which are the console's, ``dealerpi replay --journal``, and the
tests' untrimmed reference) applies the journal's inputs to a ``Table`` and hands each outcome to a
:class:`Recorder`. The recorder does not decide when a hand is final: the engine
does (``HandFinal``, engine/events.py), once no undo can reach the hand. It adds what the engine ignores, the
start's time (``"at"``), and writes the PHH record with the forced bets, names and seats the hand was dealt
with (``dealerpi.history.from_hand.record_from_hand``). A misdealt deal (MIS-6, MIS-7) is final too, and is
no hand: it has no PHH. A hand PHH cannot write (File 'em, several boards or runs, a bomb pot) has the reason
instead.

A hand's time is its ``start``'s ``"at"`` (the daemon journals every start with it, dealerpi/table/controller.py),
written as PHH's optional ``year``, ``month``, ``day``, ``time`` (a TOML local time) and ``time_zone =
"UTC"`` (github.com/uoftcprg/phh-std, optional.rst, "Time": the time is in ``time_zone``). A start without
a good ``"at"`` (an old journal, a simulated table) gives a hand without these keys.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from dealerpi.engine import DealRecord, DealtHand, HandFinal, HandStarted, Outcome, Undone
from dealerpi.history.from_hand import record_from_hand
from dealerpi.history.phh import HandRecord, PHHError

_LOGGER = logging.getLogger(__name__)


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


def phh_record(dealt: DealtHand, at: object = None) -> HandRecord:
    """The PHH record of a finished hand, with the forced bets, names, seats and time it was dealt with;
    ``PHHError`` when PHH has no notation for it."""
    return record_from_hand(dealt.hand, blinds=dealt.blinds, antes=dealt.antes, dead=dealt.dead,
                            players=dealt.players,
                            extra={"hand": dealt.number, **phh_time(at), "seats": list(dealt.seats),
                                   "seat_count": dealt.seat_count})


@dataclass(frozen=True)
class FinishedHand:
    """A final deal: the engine's record, the start's time, and its PHH (None for a misdealt deal, or with
    ``phh_missing`` saying why PHH cannot write it). The PHH is written when first asked for: ``dealerpi
    replay --journal`` wants the records only, and writing every hand's PHH would slow it down."""

    record: DealRecord
    at: object
    dealt: DealtHand | None = field(default=None, repr=False, compare=False)
    inputs: tuple[Mapping[str, Any], ...] = ()     # with ``Recorder(keep_inputs=True)``: see Recorder

    @property
    def number(self) -> int:
        return self.record.number

    @property
    def misdeal(self) -> bool:
        return self.record.misdeal

    @property
    def phh(self) -> HandRecord | None:
        return self._written[0]

    @property
    def phh_missing(self) -> str | None:
        return self._written[1]

    @cached_property
    def _written(self) -> tuple[HandRecord | None, str | None]:
        if self.dealt is None:                        # a misdealt deal: its redeal (same number) is the hand
            return None, None
        try:
            return phh_record(self.dealt, self.at), None
        except PHHError as exc:
            _LOGGER.info("hand %d is not written as PHH: %s", self.record.number, exc)
            return None, str(exc)


class Recorder:
    """Follows one table's outcomes; :meth:`note` returns the deals each input made final, in order.

    ``keep_inputs``: each hand played out also carries its inputs (the console's replay of a hand, input by
    input: console/hand_replay.py), the accepted ones from the start that dealt it up to the one before the
    input that made it final, less those undone (``Undone``: an undo takes back the last accepted input).
    The ``start`` that settles a showdown left open is the hand's too (POT-7: the engine takes it within the
    hand), and so are ticks after its end."""

    def __init__(self, *, keep_inputs: bool = False) -> None:
        self._started: dict[int, object] = {}        # hand number -> the "at" of the start that dealt it
        self._inputs: dict[int, list[Mapping[str, Any]]] | None = {} if keep_inputs else None   # hands open

    def note(self, entry: Mapping[str, Any], outcome: Outcome) -> list[FinishedHand]:
        """``outcome`` is what applying ``entry`` (a journal input) to the table gave."""
        finished: list[FinishedHand] = []
        inputs = self._inputs
        for event in outcome.events:
            if isinstance(event, HandStarted):
                self._started[event.number] = entry.get("at")
                if inputs is not None:
                    inputs[event.number] = []        # a fouled deal's replay (MIS-7) starts its hand again
            elif isinstance(event, HandFinal):
                record, dealt = event.record, event.dealt
                if dealt is None:                    # a misdealt deal: its redeal (same number) is the hand
                    finished.append(FinishedHand(record, self._started.get(record.number)))
                    continue
                kept = inputs.pop(record.number, []) if inputs is not None else []
                finished.append(FinishedHand(record, self._started.pop(record.number, None), dealt, tuple(kept)))
            elif isinstance(event, Undone) and inputs is not None:
                for number, kept in list(inputs.items()):
                    del kept[len(kept) - event.inputs:]
                    if not kept:                     # its start taken back
                        del inputs[number]
        if inputs is not None and outcome.accepted and entry.get("type") != "undo":
            for kept in inputs.values():
                kept.append(entry)
        return finished
