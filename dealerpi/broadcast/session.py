"""The broadcast's table: the daemon's inputs applied to its own :class:`Table`, frames for both feeds, kept
for the delay in memory and in the state folder, and caught up from the journal after a gap.

Why its own table: the engine is pure, so the daemon's inputs (hole cards included) give exactly the
daemon's table, and from it everything the broadcast shows (every hand, the dead cards, the action), with no
new query on the daemon. The venue frame goes out at once; the broadcast frame goes into the
:class:`~dealerpi.broadcast.delay.DelayLine`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealerpi.broadcast.catch_up import Gap, missed
from dealerpi.broadcast.clips import Clips
from dealerpi.broadcast.delay import DelayLine
from dealerpi.broadcast.frames import broadcast_frame, on_break, player_stats, venue_frame
from dealerpi.broadcast.odds import Odds
from dealerpi.broadcast.store import Session, Stamped, Store
from dealerpi.engine import Table

_LOGGER = logging.getLogger(__name__)

Listener = Callable[[dict[str, Any]], None]
MARGIN_MS = 60_000       # kept on disk past the delay (and the board-sync) before a session is compacted


@dataclass
class _Reset:
    """In the delay line: from here the delayed table is this snapshot (the daemon's, after a gap)."""

    snapshot: dict[str, Any]


@dataclass
class _Stats:
    """In the delay line: the room's statistics as fetched at ``ms`` (player -> counts), shown at the delayed time."""

    ms: int
    players: dict[str, dict[str, int]]


@dataclass
class _Start:
    """A hand's start in the session: where a compacted session may begin."""

    ms: int
    index: int                        # events before it, itself included
    snapshot: dict[str, Any]
    position: list[int] | None


class BroadcastSession:
    """See the module docstring. ``clock`` is the wall clock in ms (injected by the tests)."""

    def __init__(self, store: Store, journal_folder: Path | None, delay_ms: int, sync_ms: int,
                 clock: Callable[[], int], floor_ms: int | None = None) -> None:
        self.store = store
        self.journal_folder = journal_folder
        self.delay_ms = delay_ms                 # as configured; the line's shrinks by the breaks skipped
        self.floor_ms = floor_ms
        self.clock = clock
        self.line = DelayLine(delay_ms, sync_ms, floor_ms=floor_ms)
        self.stats: dict[str, dict[str, int]] = {}          # the room's statistics at the delayed time
        self.odds = Odds(clock)
        self.clips = Clips(store.folder / "clips.json")
        self.table: Table | None = None
        self.session: Session | None = None
        self.events: list[Stamped] = []
        self.position: list[int] | None = None
        self.last_ms = 0
        self.venue: dict[str, Any] | None = None
        self.delayed: Table | None = None                  # the table as the delayed feed shows it
        self.current: dict[str, Any] | None = None         # the last frame let out: what a new client sees
        self._starts: list[_Start] = []
        self.venue_listeners: list[Listener] = []

    # --- start-up and the daemon's hello ------------------------------------------------------------

    def load(self) -> None:
        """The stored session, if its delay is not shorter than this one's (a shorter delay drops it: the
        feed must not show sooner what it was going to show later)."""
        found = self.store.load()
        if found is None:
            return
        session, events = found
        stored_floor = session.delay_ms if session.floor_ms is None else session.floor_ms
        floor = self.delay_ms if self.floor_ms is None else self.floor_ms
        if self.delay_ms < session.delay_ms or floor < stored_floor:
            _LOGGER.warning("the delay is now %d s (at least %d s), shorter than the stored session's %d s (%d s): "
                            "the session's buffer is dropped and the delayed feed waits a full delay again",
                            self.delay_ms // 1000, floor // 1000, session.delay_ms // 1000, stored_floor // 1000)
            self.store.drop()
            self.clips.drop()
            return
        if (session.delay_ms, session.floor_ms) != (self.delay_ms, self.floor_ms):
            session.delay_ms, session.floor_ms = self.delay_ms, self.floor_ms
            self.store.save_session(session)
        self._begin(session)
        for stamped in events:
            self._apply(stamped, live=False)
        self._release(every_frame=False)            # what the feed has shown already: only its last frame
        _LOGGER.info("broadcast session resumed: %d inputs kept, first hand at %s", len(events),
                     session.first_hand_ms)

    def connected(self, hello: dict[str, Any]) -> None:
        """The daemon's hello: a new session, or the inputs missed since the last one read from the journal."""
        snapshot, position, ms = hello["snapshot"], hello.get("position"), int(hello["ms"])
        said = False
        if self.table is not None and self.position is not None and position is not None \
                and self.journal_folder is not None:
            try:
                for stamped in missed(self.journal_folder, self.position, position, self.last_ms):
                    self._follow(stamped)
            except Gap as gap:
                _LOGGER.warning("broadcast: %s; the table is taken from the daemon as it is now", gap)
                said = True
        if self.table is not None and _same(self.table.snapshot(), snapshot):
            self.position = position
            self.venue = venue_frame(self.table, self.last_ms)
            return
        if self.table is not None and not said:
            _LOGGER.warning("broadcast: the table differs from the daemon's after the catch-up; taken from the "
                            "daemon as it is now (inputs in between are not on the delayed feed)")
        first = self.session.first_hand_ms if self.session is not None else None
        skipped = self.session.skipped_ms if self.session is not None else 0
        session = Session(self.delay_ms, {"snapshot": snapshot, "position": position, "ms": ms}, first,
                          self.floor_ms, skipped)
        self.store.start(session)
        self.events = []
        self._starts = []
        if self.delayed is None:
            self._begin(session)
        else:                                       # the delayed table takes it when the delay reaches it
            self._begin(session, delayed=False)
            self.line.add(ms, _Reset(snapshot))
        assert self.table is not None
        self.venue = venue_frame(self.table, self.last_ms)

    def _begin(self, session: Session, *, delayed: bool = True) -> None:
        self.session = session
        self.table = Table.from_snapshot(session.base["snapshot"])
        if delayed:
            self.delayed = Table.from_snapshot(session.base["snapshot"])
        self.position = session.base.get("position")
        self.last_ms = max(self.last_ms, int(session.base["ms"]))
        self.line.first_hand_ms = session.first_hand_ms
        self.line.delay_ms = max(self.line.floor, self.delay_ms - session.skipped_ms)   # the breaks skipped before

    # --- events ----------------------------------------------------------------------------------------

    def on_event(self, params: dict[str, Any]) -> None:
        """An accepted input pushed by the daemon: applied, then kept on disk."""
        self._follow(Stamped(dict(params["entry"]), params.get("position"), int(params["ms"])))

    def _follow(self, stamped: Stamped) -> None:
        """A live input: applied (its equity asked for, the venue told) before it is synced to this disk, so
        the disk's latency (fdatasync: up to 90 ms here under load) is not on the path from the card to its
        equity. A crash in between loses nothing: the stored position is still the one before it, and the
        catch-up reads it from the table's journal (:mod:`dealerpi.broadcast.catch_up`)."""
        started = self._apply(stamped, live=True)
        self.store.append(stamped)
        if started:
            self._compact()

    def _apply(self, stamped: Stamped, *, live: bool) -> bool:
        """Apply one input to the live table; True when it started a hand."""
        table, session = self.table, self.session
        assert table is not None and session is not None
        self.events.append(stamped)
        self.last_ms = max(self.last_ms, stamped.ms)
        if stamped.position is not None:
            self.position = stamped.position
        was_between, board = table.between_hands, table.board()
        outcome = table.apply(stamped.entry)
        if not outcome.accepted:
            return False
        self.line.add(stamped.ms, stamped, board_changed=table.board() != board, on_break=on_break(table))
        if live or stamped.ms + self.line.delay_ms + self.line.sync_ms > self.clock():
            self.odds.add(table, ms=stamped.ms)           # its spot computed now, for the frame the delay makes
        if stamped.entry.get("type") == "start" and not table.between_hands and session.first_hand_ms is None:
            session.first_hand_ms = stamped.ms            # the auto delay counts from the first hand
            self.line.first_hand_ms = stamped.ms
            self.store.save_session(session)
        started = stamped.entry.get("type") == "start" and not table.between_hands
        if started:
            self._starts.append(_Start(stamped.ms, len(self.events), table.snapshot(), self.position))
        self.clips.follow(table, stamped.ms, was_between)
        if live:
            self.venue = venue_frame(table, stamped.ms)
            for listener in list(self.venue_listeners):
                listener(self.venue)
        return started

    def _compact(self) -> None:
        """Start the stored session at the last hand that began before the delayed feed's moment (less
        :data:`MARGIN_MS`): the inputs before it, and the hole cards in them, leave this disk. A hand's
        start holds the table between hands only, no card."""
        horizon = self.clock() - self.line.delay_ms - self.line.sync_ms - MARGIN_MS
        usable = [start for start in self._starts if start.ms <= horizon and start.index > 0]
        if not usable or self.session is None:
            return
        base = usable[-1]
        self.events = self.events[base.index:]
        self._starts = [_Start(s.ms, s.index - base.index, s.snapshot, s.position)
                        for s in self._starts if s.index > base.index]
        self.session.base = {"snapshot": base.snapshot, "position": base.position, "ms": base.ms}
        self.store.start(self.session, self.events)

    def add_stats(self, players: dict[str, dict[str, int]]) -> None:
        """The room's statistics, fetched now: shown when the delay reaches now (the delayed frames then carry
        the figures of the hands aired, not of hands still to come)."""
        if self.table is not None:
            now = self.clock()
            self.line.add(now, _Stats(now, players), on_break=on_break(self.table))

    def release(self) -> list[dict[str, Any]]:
        """The frames of the inputs the delay lets out now, drawn from the delayed table."""
        return self._release(every_frame=True)

    def _release(self, *, every_frame: bool) -> list[dict[str, Any]]:
        self.odds.collect()
        frames = []
        due = self.line.release(self.clock())
        if self.session is not None and self.session.skipped_ms != self.delay_ms - self.line.delay_ms:
            self.session.skipped_ms = self.delay_ms - self.line.delay_ms     # a break skipped: kept for a restart
            self.store.save_session(self.session)
            _LOGGER.info("broadcast: a break's dead air skipped, the delay is now %d s", self.line.delay_ms // 1000)
        for index, item in enumerate(due):
            if isinstance(item, _Reset):
                self.delayed = Table.from_snapshot(item.snapshot)
                continue
            assert self.delayed is not None
            if isinstance(item, _Stats):              # drawn again with the new figures
                self.stats = item.players
            else:
                was_between = self.delayed.between_hands
                self.delayed.apply(item.entry)
                if was_between and not self.delayed.between_hands:     # a hand on air: when, for the clip list
                    self.clips.aired(self.delayed.hand_number, item.ms, self.delay_ms - self.line.delay_ms)
            first = self.line.first_hand_ms
            if first is None or item.ms < first or not (every_frame or index == len(due) - 1):
                continue                                  # nothing before the first hand is broadcast
            frame = broadcast_frame(self.delayed, item.ms)
            player_stats(frame, self.stats)
            self.odds.add(self.delayed, frame)            # known by now (computed when it happened)
            frames.append(frame)
        if frames:
            self.current = frames[-1]
        return frames

    def status(self) -> dict[str, Any]:
        return self.line.status(self.clock())


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
