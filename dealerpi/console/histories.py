"""The console's hand histories: the finished hands of the journal, for each role, with a replay and PHH.

A hand is listed once it is final: :class:`~dealerpi.console.final_hands.FinalHands` hands on an input only
once the next ``start`` is accepted, and an undo never reaches back past that start (docs/journal.md). So no
hand in play is ever listed, nor a finished one that an undo could bring back into play (its folded cards
would then be a live hand's). The hand just finished is on the pages' live view until the next start.

Secrecy (issue 14): the host sees every hole card of a finished hand, mucked and folded ones too; the dealer
and the board only the cards tabled at the showdown (POT-5, POT-7), in the list, the replay and the PHH
download alike (an unshown hand is written ``????``, PHH's unknown card). The role is the page's, which the
console has already checked against the token (host > dealer > board).

Each hand keeps the table just before its ``start`` (``Table.snapshot()``) and its inputs, so its replay is
the engine's own, input by input, rebuilt when asked for (:mod:`dealerpi.console.hand_replay`). That is
about 65 KB a hand, so the console keeps the last :data:`PLAYED_KEPT` only, not a week of them; an older
hand is answered "no longer kept" by the pages (:mod:`dealerpi.console.history_routes`, docs/console.md).
"""

from __future__ import annotations

import dataclasses
import re
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealerpi.console.final_hands import FinalHands
from dealerpi.console.hand_words import summary
from dealerpi.engine.records import DealRecord
from dealerpi.history.phh import HandRecord, dumps, dumps_all

HOST = "host"
PLAYED_KEPT = 300      # hands the pages keep: two long evenings, ~20 MiB (bench/bench_console_memory.py)


@dataclass
class PlayedHand:
    """One finished hand: what the list, the replay and the PHH download are made of."""

    number: int
    at: str | None                      # the start's time as journaled ("at"), None in an old journal
    game: str
    before: dict[str, Any]              # Table.snapshot() just before its start
    inputs: list[dict[str, Any]]        # its accepted inputs, from its start to the one that finished it
    players: dict[int, str]
    record: DealRecord
    words: dict[str, Any]               # hand_words.summary
    phh: HandRecord | None
    phh_missing: str | None             # why PHH cannot write it (File 'em, several boards, a bomb pot)


@dataclass
class _Open:
    before: dict[str, Any]
    inputs: list[dict[str, Any]]
    players: dict[int, str]
    game: str
    evaluators: tuple[str, ...]


class HandHistories(FinalHands):
    """Follows the journal (FinalHands); :meth:`poll` brings :attr:`played` up to date."""

    def __init__(self, path: Path, memo: Path | None = None, keep: int = 1,
                 keep_played: int = PLAYED_KEPT) -> None:
        # ``keep``: FinalHands' hands are the room's resend; the pages have ``played`` and keep one of those
        self.keep_played = keep_played
        super().__init__(path, memo, keep)

    def _reset(self) -> None:
        super()._reset()
        self.played: deque[PlayedHand] = deque(maxlen=self.keep_played)   # the newest, oldest first
        self._open: _Open | None = None

    def gone(self, number: int) -> bool:
        """Hand ``number`` was played and listed but is no longer kept (older than the last ``keep_played``)."""
        return bool(self.played) and 0 < number < self.played[0].number

    def _final_input(self, item: dict[str, Any]) -> list[HandRecord]:
        table = self._recorder.table
        finishing = self._open
        if item.get("type") == "start":
            self._open = _Open(table.snapshot(), [], {}, "", ())
        if self._open is not None:
            self._open.inputs.append(item)
        skipped = len(self._recorder.skipped)
        records = super()._final_input(item)
        if item.get("type") == "start" and self._open is not None and table.config is not None:
            self._open.players = {seat: info.player for seat, info in table.seats.items()}
            self._open.game, self._open.evaluators = table.config.game.key, tuple(table.config.game.evaluators)
        by_number = {int(record.extra.get("hand", 0)): record for record in records}
        reasons = {int(m.group(1)): m.group(2) for line in self._recorder.skipped[skipped:]
                   if (m := re.match(r"hand (\d+): (.*)", line, re.S))}
        for deal in self._recorder.new_deals:
            # a start that settles a showdown left open finishes the hand before it (POT-7)
            hand = finishing if item.get("type") == "start" and finishing is not None else self._open
            if deal.misdeal or hand is None:
                continue
            inputs = hand.inputs if hand is self._open else [*hand.inputs, item]
            phh = by_number.get(deal.number)
            self.played.append(PlayedHand(
                deal.number, str(hand.inputs[0].get("at")) if hand.inputs[0].get("at") else None, hand.game,
                hand.before, list(inputs), hand.players, deal, summary(deal, hand.players, hand.evaluators),
                phh, None if phh is not None else reasons.get(deal.number, "PHH cannot write this hand")))
        return records


def visible_cards(hand: PlayedHand, role: str) -> dict[int, list[str]]:
    """Each seat's hole cards this role may see: all for the host, the tabled ones for the others."""
    record = hand.record
    return {seat: list(cards) for seat, cards in record.hole.items() if role == HOST or seat in record.shown}


def listing(hand: PlayedHand, role: str) -> dict[str, Any]:
    """The list's entry of a hand for ``role``."""
    cards = visible_cards(hand, role)
    seats = {str(seat): {"player": hand.players.get(seat), "cards": cards.get(seat, []),
                         "shown": seat in hand.record.shown} for seat in hand.record.seats}
    return {**hand.words, "at": hand.at, "game": hand.game, "seats": seats,
            "phh": hand.phh is not None, "phh_missing": hand.phh_missing}


def phh_for(hand: PlayedHand, role: str) -> HandRecord | None:
    """The hand's PHH record for ``role``: an unshown hand's cards written unknown (``????``) but the host's."""
    record = hand.phh
    if record is None or role == HOST:
        return record
    seats = record.extra.get("seats") or list(hand.record.seats)
    hidden = {f"p{index + 1}" for index, seat in enumerate(seats) if seat not in hand.record.shown}
    actions = []
    for action in record.actions:
        words = action.split()
        if words[:2] == ["d", "dh"] and words[2] in hidden:
            words[3] = "??" * (len(words[3]) // 2)
        elif len(words) > 2 and words[0] in hidden and words[1] == "sm":
            words = words[:2]
        actions.append(" ".join(words))
    return dataclasses.replace(record, actions=tuple(actions))


def phh_text(hand: PlayedHand, role: str) -> str | None:
    record = phh_for(hand, role)
    return None if record is None else dumps(record)


def session_phh(hands: list[PlayedHand], role: str) -> str:
    """The ``.phhs`` of every listed hand for ``role``; the hands PHH cannot write are named in comments."""
    notes = "".join(f"# hand {hand.number} not written: {hand.phh_missing}\n" for hand in hands if hand.phh is None)
    return notes + dumps_all(record for hand in hands if (record := phh_for(hand, role)) is not None)
