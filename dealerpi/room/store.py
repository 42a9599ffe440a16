"""The room's database: every finished hand, each player's line of it, the commands sent to tables and the
waiting lists, in SQLite or PostgreSQL (:mod:`dealerpi.room.store_sql`: the same SQL on both). A commit is
not fsync'd: hands a power cut takes are asked from the tables again by the re-sync, their journals being the
durable copy.

A hand is keyed by ``(table, session, seq)`` (:mod:`dealerpi.history.final_hands`; ``session`` there names
the table's journal), so a hand the table sends again after an outage is stored once; hands the table can no
longer send (older than its journal keeps) are recorded as ``lost`` ranges, counted as held by the re-sync.

Statistics are sums over the players' lines: overall, per journal, and per player's session
(:func:`dealerpi.room.director.stats.sessions`) by each hand's ``played_at``: the time its PHH carries, so a hand sent
again after an outage counts when it was played, not when it came. A hand whose PHH has no time (a journal
from before the daemon wrote ``"at"`` into each ``start``, a hand stored by a room from before this column)
counts at the time the room stored it. The time is a column rather than read from the PHH at each look: a
player's sessions are one indexed query over his lines, not a parse of every hand he played. The overall sums
are kept in ``totals``, added to with each hand in its transaction: the page shows them, and summing every
line again took a second on 50,000 hands (bench/bench_sessions.py).
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

from dealerpi.history.phh import HandRecord, PHHError, loads
from dealerpi.room.director.books import LOST, Lost
from dealerpi.room.director.stats import Session, hand_stats, hand_time, sessions
from dealerpi.room.store_sql import connect

COUNTS = ("hands", "vpip", "pfr", "showdowns", "won")


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _played_at(record: HandRecord | None, stored_at: str) -> int:
    """The hand's time from its PHH, else the time the room stored it (module docstring)."""
    played = None if record is None else hand_time(record)
    return played if played is not None else int(datetime.datetime.fromisoformat(stored_at).timestamp())


def _record(phh: str, where: str) -> HandRecord | None:
    try:
        return loads(phh, where)
    except PHHError:
        return None


class Store:
    """One interface over both databases; ``database`` is an SQLite file's path or a ``postgresql://`` URL."""

    def __init__(self, database: Path | str) -> None:
        self.db = connect(database)
        self._fill_played_at()
        self._fill_totals()

    def close(self) -> None:
        self.db.close()

    def _fill_played_at(self) -> None:
        """A database from before ``played_at``: each hand's time from its stored PHH, a thousand hands a
        transaction (a big database's PHH need not fit in memory; one stopped half-way goes on at the next
        opening: the partial index finds the rest)."""
        while rows := list(self.db.execute("SELECT tbl, session, seq, phh, stored_at FROM hands "
                                           "WHERE played_at IS NULL LIMIT 1000")):
            with self.db.transaction():
                self.db.executemany(
                    "UPDATE hands SET played_at = ? WHERE tbl = ? AND session = ? AND seq = ?",
                    [(_played_at(_record(phh, f"{table}/{session}/{seq}"), stored_at), table, session, seq)
                     for table, session, seq, phh, stored_at in rows])

    def _fill_totals(self) -> None:
        """A database from before ``totals``: the sums of its lines, once (totals is empty only then: every
        hand adds to it in the transaction that stores its lines)."""
        if (self.db.execute("SELECT 1 FROM totals LIMIT 1").fetchone() is None
                and self.db.execute("SELECT 1 FROM plays LIMIT 1").fetchone() is not None):
            with self.db.transaction():
                self.db.execute("INSERT INTO totals SELECT player, COUNT(*), SUM(vpip), SUM(pfr), SUM(showdown), "
                                "SUM(won) FROM plays GROUP BY player")

    # --- hands ---------------------------------------------------------------------------------------

    def add_hand(self, table: str, session: str, seq: int, number: int, phh: str) -> bool:
        """Store one hand and its players' lines in one transaction; False if it was already stored. A PHH
        that does not parse raises :class:`PHHError` and stores nothing."""
        record = loads(phh, f"{table}/{session}/{seq}")
        lines = hand_stats(record)
        now = _now()
        with self.db.transaction():
            cursor = self.db.execute(
                "INSERT INTO hands (tbl, session, seq, number, phh, stored_at, played_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (table, session, seq, number, phh, now, _played_at(record, now)))
            if cursor.rowcount == 0:
                return False
            self.db.executemany("INSERT INTO plays VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                [(table, session, seq, p.player, int(p.vpip), int(p.pfr), int(p.showdown),
                                  int(p.won)) for p in lines])
            self.db.executemany("INSERT INTO totals VALUES (?, 1, ?, ?, ?, ?) ON CONFLICT (player) DO UPDATE SET "
                                "hands = totals.hands + 1, vpip = totals.vpip + excluded.vpip, "
                                "pfr = totals.pfr + excluded.pfr, showdowns = totals.showdowns + excluded.showdowns, "
                                "won = totals.won + excluded.won",
                                [(p.player, int(p.vpip), int(p.pfr), int(p.showdown), int(p.won)) for p in lines])
        return True

    def contiguous(self, table: str, session: str) -> int:
        """The largest N with hands 1..N of this session all stored or lost (what to ask the table after)."""
        count = 0
        for start, end in self._held(table, session):
            if start > count + 1:
                break
            count = max(count, end)
        return count

    def _held(self, table: str, session: str) -> list[tuple[int, int]]:
        """The session's stored hands (each a range of one) and its lost ranges, in order."""
        return [(int(a), int(b)) for a, b in self.db.execute(
            "SELECT seq, seq FROM hands WHERE tbl = ? AND session = ? UNION ALL "
            "SELECT from_seq, to_seq FROM lost WHERE tbl = ? AND session = ? ORDER BY 1",
            (table, session, table, session))]

    def mark_lost(self, table: str, session: str, first: int) -> list[tuple[int, int]]:
        """The table can send hands from ``first`` on only (older than its journal keeps): the hands before it
        the room neither holds nor already counts lost are recorded lost; the new ranges (docs/room.md)."""
        with self.db.transaction():
            gaps, at = [], 1
            for start, end in self._held(table, session):
                if start >= first:
                    break
                if start > at:
                    gaps.append((at, start - 1))
                at = max(at, end + 1)
            if at < first:
                gaps.append((at, first - 1))
            self.db.executemany("INSERT INTO lost VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                                [(table, session, start, end, _now()) for start, end in gaps])
        return gaps

    def lost(self) -> list[tuple[str, str, int, int]]:
        """Every lost range: ``(table, session, first, last)``."""
        return [(str(t), str(s), int(a), int(b)) for t, s, a, b in self.db.execute(
            "SELECT tbl, session, from_seq, to_seq FROM lost ORDER BY tbl, session, from_seq")]

    def hand(self, table: str, session: str, seq: int) -> tuple[int, str] | Lost | None:
        """One stored hand: the table's hand number and its PHH (the tournament's books, room/director/books.py);
        ``LOST`` for a hand the table could no longer send."""
        row = self.db.execute("SELECT number, phh FROM hands WHERE tbl = ? AND session = ? AND seq = ?",
                              (table, session, seq)).fetchone()
        if row is not None:
            return int(row[0]), str(row[1])
        lost = self.db.execute("SELECT 1 FROM lost WHERE tbl = ? AND session = ? AND from_seq <= ? AND to_seq >= ?",
                               (table, session, seq, seq)).fetchone()
        return None if lost is None else LOST

    def hand_count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM hands").fetchone()[0])

    def stats(self, table: str | None = None, session: str | None = None) -> dict[str, dict[str, int]]:
        """Per player: hands, vpip, pfr, showdowns, showdowns won (counts); one journal's with ``table`` and
        ``session``, else overall."""
        if session is None:
            rows = self.db.execute("SELECT player, hands, vpip, pfr, showdowns, won FROM totals ORDER BY player")
        else:
            rows = self.db.execute("SELECT player, COUNT(*), SUM(vpip), SUM(pfr), SUM(showdown), SUM(won) FROM plays "
                                   "WHERE tbl = ? AND session = ? GROUP BY player ORDER BY player", (table, session))
        return {row[0]: dict(zip(COUNTS, map(int, row[1:]), strict=True)) for row in rows}

    def sessions(self) -> list[tuple[str, str]]:
        """The tables' journals the room has hands of (``(table, session)``: the hands' keys)."""
        return list(self.db.execute("SELECT DISTINCT tbl, session FROM hands ORDER BY tbl, session"))

    def player_sessions(self, player: str, gap: int) -> list[Session]:
        """``player``'s sessions, the newest first: his hands at one table with no more than ``gap`` seconds
        between two of them (:func:`dealerpi.room.director.stats.sessions`)."""
        return sessions(((table, int(played), bool(vpip), bool(pfr), bool(showdown), bool(won))
                         for table, played, vpip, pfr, showdown, won in self.db.execute(
                             "SELECT p.tbl, h.played_at, p.vpip, p.pfr, p.showdown, p.won FROM plays p JOIN hands h "
                             "ON h.tbl = p.tbl AND h.session = p.session AND h.seq = p.seq WHERE p.player = ?",
                             (player,))), gap)

    # --- commands ------------------------------------------------------------------------------------

    def add_command(self, cid: str, table: str, payload: dict[str, Any], waiting: int | None = None) -> None:
        self.db.execute("INSERT INTO commands (id, tbl, payload, sent_at, answer, waiting) "
                        "VALUES (?, ?, ?, ?, NULL, ?)", (cid, table, json.dumps(payload), _now(), waiting))

    def unanswered(self) -> list[tuple[str, str, dict[str, Any]]]:
        return [(cid, table, json.loads(payload)) for cid, table, payload in
                self.db.execute(f"SELECT id, tbl, payload FROM commands WHERE answer IS NULL ORDER BY {self.db.order}")]

    def seating(self) -> set[int]:
        """The waiting-list entries a sit command not yet answered is for."""
        return {row[0] for row in self.db.execute(
            "SELECT waiting FROM commands WHERE answer IS NULL AND waiting IS NOT NULL")}

    def answer(self, cid: str, answer: dict[str, Any]) -> bool:
        """Record a command's answer (the first only); an accepted seat from a waiting list leaves the list."""
        with self.db.transaction():
            row = self.db.execute("SELECT waiting FROM commands WHERE id = ? AND answer IS NULL", (cid,)).fetchone()
            if row is None:
                return False
            self.db.execute("UPDATE commands SET answer = ? WHERE id = ?", (json.dumps(answer), cid))
            if row[0] is not None and answer.get("accepted"):
                self.db.execute("DELETE FROM waiting WHERE id = ?", (row[0],))
        return True

    def command_answer(self, cid: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT answer FROM commands WHERE id = ?", (cid,)).fetchone()
        return None if row is None or row[0] is None else dict(json.loads(row[0]))

    # --- waiting lists -------------------------------------------------------------------------------

    def wait(self, game: str, player: str) -> int:
        return int(self.db.execute("INSERT INTO waiting (game, player, added_at) VALUES (?, ?, ?) RETURNING id",
                                   (game, player, _now())).fetchone()[0])

    def unwait(self, entry: int) -> None:
        self.db.execute("DELETE FROM waiting WHERE id = ?", (entry,))

    def waiting(self, game: str) -> list[dict[str, Any]]:
        return [{"id": row[0], "player": row[1], "since": row[2]} for row in self.db.execute(
            "SELECT id, player, added_at FROM waiting WHERE game = ? ORDER BY id", (game,))]

    # --- the tournament (dealerpi/room/director/mtt.py) -------------------------------------------------------

    def tournament(self) -> dict[str, Any] | None:
        row = self.db.execute("SELECT state FROM tournament WHERE id = 1").fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def save_tournament(self, state: dict[str, Any], commands: list[tuple[str, str, dict[str, Any]]]) -> None:
        """The director's state and the commands it decided, in one transaction: a room restarted after it
        sends them (the resend loop), one restarted before it decides them again under the same ids."""
        with self.db.transaction():
            self.db.executemany("INSERT INTO commands (id, tbl, payload, sent_at, answer, waiting) "
                                "VALUES (?, ?, ?, ?, NULL, NULL) ON CONFLICT DO NOTHING",
                                [(cid, table, json.dumps(payload), _now()) for cid, table, payload in commands])
            self.db.execute("INSERT INTO tournament VALUES (1, ?) "
                            "ON CONFLICT (id) DO UPDATE SET state = excluded.state", (json.dumps(state),))


__all__ = ["COUNTS", "PHHError", "Session", "Store"]
