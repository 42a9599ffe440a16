"""The room's players' sessions (issue 15, docs/room.md "Statistics"): what they cost on a big database.

    .venv/bin/python bench/bench_sessions.py [--hands 50000]

An SQLite room database of the first schema (no ``hands.played_at``) holding ``--hands`` ten-handed hands
of 20 tables (a hand every two minutes at each), 200 players in turn, written as the room stored them
(PHH with its time keys, the players' lines). Then, in this process:

1. The first open: the room adds ``played_at`` and fills it from each stored PHH, and sums every line into
   ``totals`` (once).
2. Every later open: what the room does at each start when nothing is left to fill.
3. One player's sessions (``Store.player_sessions``: about hands x 10 / 200 of his lines), against the
   overall lines the page shows (``Store.stats``, read from ``totals``): compare by the ratio, this VM's
   speed drifts.
"""

from __future__ import annotations

import argparse
import datetime
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dealerpi.history.phh import loads  # noqa: E402
from dealerpi.room.director.stats import hand_stats  # noqa: E402
from dealerpi.room.store import Store  # noqa: E402

FIRST_SCHEMA = (
    "CREATE TABLE hands (tbl TEXT, session TEXT, seq INTEGER, number INTEGER, phh TEXT, stored_at TEXT, "
    "PRIMARY KEY (tbl, session, seq))",
    "CREATE TABLE plays (tbl TEXT, session TEXT, seq INTEGER, player TEXT, vpip INTEGER, pfr INTEGER, "
    "showdown INTEGER, won INTEGER, PRIMARY KEY (tbl, session, seq, player))")
TABLES, PLAYERS = 20, 200
START = datetime.datetime(2026, 11, 24, 18, 0, tzinfo=datetime.UTC)


def hand(index: int) -> tuple[str, datetime.datetime]:
    """Hand ``index``: its table's players raise, call and fold to a checked-down showdown of two."""
    table, number = index % TABLES, index // TABLES
    moment = START + datetime.timedelta(minutes=2 * number)
    names = [f"p{(table * 10 + number // 50 * 7 + seat) % PLAYERS:03d}" for seat in range(10)]
    cards = [f"{rank}{suit}" for rank in "23456789TJQKA" for suit in "cdhs"]
    deals = [f"d dh p{i + 1} {cards[2 * i]}{cards[2 * i + 1]}" for i in range(10)]
    actions = [*deals, "p3 cbr 9", *[f"p{i} f" for i in range(4, 11)], "p1 cc", "p2 f",
               "d db AhKhQh", "p1 cc", "p3 cc", "d db Jh", "p1 cc", "p3 cc", "d db 2h", "p1 cc", "p3 cc",
               f"p1 sm {cards[0]}{cards[1]}", f"p3 sm {cards[4]}{cards[5]}"]
    stacks = [250] * 10
    finishing = [241, 247, 262, *stacks[3:]]
    text = (f"year = {moment.year}\nmonth = {moment.month}\nday = {moment.day}\ntime = {moment.time()}\n"
            f'time_zone = "UTC"\nvariant = "NT"\nantes = {[0] * 10}\nblinds_or_straddles = {[1, 3] + [0] * 8}\n'
            f"min_bet = 3\nstarting_stacks = {stacks}\nactions = {actions}\nplayers = {names}\n"
            f"finishing_stacks = {finishing}\n").replace("'", '"')
    return text, moment


def old_database(path: Path, count: int) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    for statement in FIRST_SCHEMA:
        db.execute(statement)
    db.execute("BEGIN")
    for index in range(count):
        text, moment = hand(index)
        table, seq = f"t{index % TABLES + 1}", index // TABLES + 1
        stored = (moment + datetime.timedelta(seconds=5)).isoformat().replace("+00:00", "Z")
        db.execute("INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?)", (table, "j", seq, seq, text, stored))
        db.executemany("INSERT INTO plays VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       [(table, "j", seq, p.player, p.vpip, p.pfr, p.showdown, p.won)
                        for p in hand_stats(loads(text))])
    db.execute("COMMIT")
    db.close()


def timed(action: Callable[[], object], rounds: int) -> float:
    """The median seconds of ``rounds`` runs."""
    times = []
    for _ in range(rounds):
        began = time.perf_counter()
        action()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "room.sqlite"
        old_database(path, args.hands)
        size = path.stat().st_size
        began = time.perf_counter()
        Store(path).close()
        first = time.perf_counter() - began
        later = timed(lambda: Store(path).close(), 5)
        store = Store(path)
        player = "p042"
        found = store.player_sessions(player, 1800)
        one = timed(lambda: store.player_sessions(player, 1800), 5)
        overall = timed(store.stats, 5)
        store.close()
    print(f"{args.hands} hands of {TABLES} tables, {size / 1e6:.1f} MB of SQLite")
    print(f"first open (add played_at, fill it from each PHH, sum the totals): {first:.2f} s "
          f"({first / args.hands * 1e6:.0f} us a hand)")
    print(f"a later open: {later * 1e3:.1f} ms")
    print(f"{player}'s sessions: {sum(s.hands for s in found)} hands in {len(found)} sessions: {one * 1e3:.1f} ms; "
          f"everyone's overall lines: {overall * 1e3:.1f} ms (ratio {one / overall:.2f})")


if __name__ == "__main__":
    main()
