"""The console's hand histories: the finished hands of the journal, for each role, with a replay and PHH.

A hand is listed once the engine says it is final (``HandFinal``, engine/events.py, through the one recorder
of finished hands, dealerpi/history/recorder.py): no undo can reach it any more. So no hand in play is ever
listed, nor a finished one that an undo could bring back into play (its folded cards would then be a live
hand's). The hand just finished is on the pages' live view until then.

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
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealerpi.engine import DealRecord, HandStarted, Outcome
from dealerpi.history.final_hands import FinalHands
from dealerpi.history.phh import HandRecord, dumps, dumps_all
from dealerpi.history.recorder import FinishedHand
from dealerpi.views.hand_words import summary

HOST = "host"
PLAYED_KEPT = 300      # hands the pages keep: two long evenings, ~20 MiB (bench/bench_console_memory.py)


@dataclass
class PlayedHand:
    """One finished hand: what the list, the replay and the PHH download are made of."""

    number: int
    at: str | None                      # the start's time as journaled ("at"), None in an old journal
    game: str
    before: dict[str, Any]              # Table.snapshot() just before its start
    inputs: tuple[Mapping[str, Any], ...]   # its accepted inputs from its start (the recorder's)
    players: dict[int, str]
    record: DealRecord
    words: dict[str, Any]               # hand_words.summary
    phh: HandRecord | None
    phh_missing: str | None             # why PHH cannot write it (File 'em, several boards, a bomb pot)


@dataclass
class _Open:
    """A hand dealt and not final yet: the table before its start, its players and game (its inputs are the
    recorder's: ``FinishedHand.inputs``)."""

    before: dict[str, Any]
    players: dict[int, str]
    game: str
    evaluators: tuple[str, ...]


class HandHistories(FinalHands):
    """Follows the journal (FinalHands); :meth:`poll` brings :attr:`played` up to date."""

    keeps_inputs = True

    def __init__(self, path: Path, memo: Path | None = None, keep: int = 1,
                 keep_played: int = PLAYED_KEPT) -> None:
        # ``keep``: FinalHands' hands are the room's resend; the pages have ``played`` and keep one of those
        self.keep_played = keep_played
        super().__init__(path, memo, keep)

    def _reset(self) -> None:
        super()._reset()
        self.played: deque[PlayedHand] = deque(maxlen=self.keep_played)   # the newest, oldest first
        self._open: dict[int, _Open] = {}    # by hand number: at most the hand in play and the one before it
        self._before: dict[str, Any] = {}

    def gone(self, number: int) -> bool:
        """Hand ``number`` was played and listed but is no longer kept (older than the last ``keep_played``)."""
        return bool(self.played) and 0 < number < self.played[0].number

    def _applying(self, entry: dict[str, Any]) -> None:
        if entry.get("type") == "start":
            self._before = self._table.snapshot()

    def _applied(self, entry: dict[str, Any], outcome: Outcome, finished: list[FinishedHand]) -> None:
        for hand in finished:
            opened = self._open.pop(hand.number, None) if not hand.misdeal else None
            if opened is None or not hand.inputs:
                continue
            self.played.append(PlayedHand(
                hand.number, str(hand.at) if hand.at else None, opened.game,
                opened.before, hand.inputs, opened.players, hand.record,
                summary(hand.record, opened.players, opened.evaluators), hand.phh,
                None if hand.phh is not None else hand.phh_missing or "PHH cannot write this hand"))
        table = self._table
        for event in outcome.events:
            if isinstance(event, HandStarted) and table.config is not None:
                self._open[event.number] = _Open(
                    self._before, {seat: info.player for seat, info in table.seats.items()},
                    table.config.game.key, tuple(table.config.game.evaluators))


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
