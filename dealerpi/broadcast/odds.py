"""Equities and outs for the delayed feed, from :mod:`dealerpi.equity`, computed in the broadcast process.

Counted out of the deck: every card the table has seen that is not in a live hand or on a board (folded
hands, burns, exposed cards; :func:`dealerpi.broadcast.frames.dead_cards`), the "true outs" of issue 21.
An answer depends on the game, the live hands, the boards and the dead cards only, so it is kept by that key:
an action (which changes none of them) costs nothing, and a restart that rebuilds the delayed hour computes
each spot once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from dealerpi.broadcast.frames import dead_cards, hands_complete, live_hands
from dealerpi.engine import Table
from dealerpi.equity import EquityError, compute_equities, compute_outs, warm_up
from dealerpi.equity.result import HandEquity

_LOGGER = logging.getLogger(__name__)

KEPT = 512          # spots remembered (an hour of hands is a few hundred)

Key = tuple[str, tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...], tuple[str, ...]]


class Odds:
    """Adds ``equity`` to each live seat of a broadcast frame, and ``outs`` when two hands are live.

    A spot not computed yet goes to one worker thread, so the venue feed and the events never wait for an
    enumeration; its frames are filled on the event loop when the answer comes (a frame leaves the process
    the delay later, so the answer is there by then). ``clock`` stamps when each spot's answer was ready.
    """

    def __init__(self, clock: Callable[[], int]) -> None:
        self._clock = clock
        self._known: OrderedDict[Key, dict[str, Any]] = OrderedDict()
        self._waiting: dict[Key, tuple[Future[dict[str, Any]], list[tuple[dict[str, Any], list[int]]]]] = {}
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="equity")
        self._worker.submit(_warm_up)                 # the tables first, so the first hand's equity is not late
        self.ready: list[tuple[int, int]] = []       # (table ms of the input that asked, ms the answer came)
        self._asked: dict[Key, int] = {}

    def add(self, table: Table, frame: dict[str, Any] | None = None, ms: int | None = None) -> None:
        """Fill ``frame`` for ``table``'s spot, now if known, else when its worker is done. Without a frame
        (the live table's input at the table's time ``ms``), only start computing the spot, so that the
        delayed frame finds it done; :attr:`ready` says when it was."""
        if not hands_complete(table) or table.config is None:
            return
        hands = live_hands(table)
        seats = sorted(hands)
        boards = tuple(tuple(board) for board in table.board())
        key: Key = (table.config.game.key, tuple(hands[s] for s in seats), boards, tuple(sorted(dead_cards(table))))
        answer = self._known.get(key)
        if answer is not None:
            if frame is not None:
                _fill(frame, seats, answer)
            return
        if key not in self._waiting:
            if ms is not None:
                self._asked[key] = ms
            future = self._worker.submit(self._compute, key)
            self._waiting[key] = (future, [])
            with contextlib.suppress(RuntimeError):         # no running loop: collect() is called by hand
                loop = asyncio.get_running_loop()
                future.add_done_callback(lambda _f: _call_soon(loop, self.collect))
        if frame is not None:
            self._waiting[key][1].append((frame, seats))

    def collect(self) -> None:
        """Fill the frames whose spots are computed (on the event loop's thread)."""
        for key, (future, frames) in list(self._waiting.items()):
            if not future.done():
                continue
            del self._waiting[key]
            if future.cancelled():                       # the process is stopping
                continue
            answer = future.result()
            self._known[key] = answer
            while len(self._known) > KEPT:
                self._known.popitem(last=False)
            if key in self._asked:
                self.ready.append((self._asked.pop(key), self._clock()))
            for frame, seats in frames:
                _fill(frame, seats, answer)

    def pending(self) -> list[Future[dict[str, Any]]]:
        """The spots being computed (a test waits for them in a thread, then calls :meth:`collect`)."""
        return [future for future, _ in self._waiting.values()]

    def close(self) -> None:
        """The process stops: the spots not started are dropped (one being computed runs to its end)."""
        for future in self.pending():
            future.cancel()
        self._worker.shutdown(wait=False)

    @staticmethod
    def _compute(key: Key) -> dict[str, Any]:
        game, hands, boards, dead = key
        try:
            if len(boards) == 1:
                result = compute_equities(game, hands, boards[0], dead)
            else:                                   # several boards or runs (POT-11): each an equal part
                result = compute_equities(game, hands, (), dead, boards=boards)
            outs = None
            if len(hands) == 2 and len(boards) == 1:
                found = compute_outs(game, hands, boards[0], dead)
                outs = None if found is None else [sorted(cards) for cards in found.cards]
        except EquityError:
            # never the message in the log: it names cards of a live hand
            _LOGGER.error("equity: a spot of game %s could not be computed; no equity shown for it", game)
            return {"hands": [None] * len(hands), "exact": False, "outs": None}
        return {"hands": [_shares(hand) for hand in result.hands], "exact": result.exact, "outs": outs}


def _warm_up() -> None:
    began = time.perf_counter()
    warm_up()
    _LOGGER.info("equity tables built in %.0f ms", (time.perf_counter() - began) * 1000)


def _call_soon(loop: asyncio.AbstractEventLoop, job: Callable[[], None]) -> None:
    with contextlib.suppress(RuntimeError):              # the loop closed first: the process is stopping
        loop.call_soon_threadsafe(job)


def _fill(frame: dict[str, Any], seats: list[int], answer: dict[str, Any]) -> None:
    for seat, equity in zip(seats, answer["hands"], strict=True):
        frame["seats"][str(seat)]["equity"] = equity
    frame["exact"] = answer["exact"]
    frame["outs"] = ({str(seat): outs for seat, outs in zip(seats, answer["outs"], strict=True)}
                     if answer["outs"] is not None else None)


def _shares(hand: HandEquity) -> dict[str, Any]:
    """One hand's result as JSON: equity, and for hi-lo the high, low and scoop shares; a Monte Carlo stderr."""
    found: dict[str, Any] = {"equity": hand.equity}
    for name in ("high", "low", "scoop", "stderr"):
        value = getattr(hand, name)
        if value is not None:
            found[name] = value
    return found
