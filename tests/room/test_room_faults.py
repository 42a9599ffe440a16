"""Faults in a cash room (issue 15 "Faults"): a REAL mosquitto, two tables (the daemon's API on fake devices
plus the console's bridge, console_kit) and ``dealerpi room`` as its own process, driven through its page.
The broker is killed mid-game and started again, the room is killed with SIGKILL right after it sent a
command and while a hand becomes final, and a table goes offline and comes back. At the end no hand is
lost, none is stored twice, no command is applied twice, and the room's hands are exactly the finished
hands of each table's journal (read again from the journal by dealerpi.history.final_hands)."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from mqtt_kit import Broker
from pg_kit import Postgres
from room_kit import RoomProcess, Tables, stopped_after, until_summary

pytestmark = pytest.mark.slow   # a real broker and database, killed and restarted: 7 s

TABLES = ("t1", "t2")


def do(controller: Any, entry: dict[str, Any]) -> None:
    assert controller.submit(entry).accepted, entry
    controller.refresh()


def fold_to_the_big_blind(controller: Any, button: int) -> None:
    """A three-handed hand (seats 1-3) already started: the fake shoe deals six hole cards (console_kit's
    tags T00-T05), the button (first to act pre-flop, three-handed) and the small blind (the next seat)
    fold: the big blind takes the blinds, no showdown. The next ``start`` makes the hand final."""
    for uid in range(6):
        controller.on_card(f"T{uid:02d}")
    small_blind = button % 3 + 1
    do(controller, {"type": "act", "seat": button, "action": "fold"})
    do(controller, {"type": "act", "seat": small_blind, "action": "fold"})


def test_broker_room_and_table_faults_lose_no_hand_and_apply_no_command_twice(tmp_path: Path) -> None:
    """Seats by the waiting list: Ann, Bob, Cy to t1 seats 1-3, Dee, Eve to t2 seats 1-2 (the first open
    seat of the game's tables, in the list's order). Then, t1's buttons moving 1, 2, 3 (BLD-1):
    1. t1 hand 1 is final (hand 2 started): the room has 1 hand;
    2. the broker is killed; t1 hand 2 is played and hand 3 started; the broker comes back: 2 hands;
    3. Fay joins the list, "seat next" sends her sit to t2 seat 3 and the room is SIGKILLed at once; t1
       hand 3 becomes final while it is dead; it starts again: Fay is seated once (her sit's rid once in
       t2's journal, the list empty) and t1 hand 3 is stored: 3 hands;
    4. t2's console stops (the room sees it offline), t2 plays hands 1 and 2 (button 1, then 2) and starts
       hand 3; its console comes back: 5 hands.
    The room's hands are then exactly the tables' final hands (t1: 3, t2: 2), each stored once."""
    broker = Broker(tmp_path, list(TABLES))
    broker.start()
    tables = Tables(tmp_path, broker, TABLES)
    room = RoomProcess(tmp_path, broker, '[[games]]\nname = "nlhe-1-3"\ntables = ["t1", "t2"]\nstack = 200\n')
    commands: list[str] = []

    async def main() -> None:
        await tables.start()
        await room.start()
        async with stopped_after(room, tables):
            await until_summary(room, lambda s: all(s["tables"].get(t, {}).get("online") for t in TABLES))
            for player in ("Ann", "Bob", "Cy", "Dee", "Eve"):
                await room.post({"op": "add", "game": "nlhe-1-3", "player": player})
            for _ in range(5):
                commands.append((await room.post({"op": "seat", "game": "nlhe-1-3"}))["command"])
            seated = await until_summary(room, lambda s: s["games"][0]["waiting"] == [] and
                                         s["tables"]["t2"]["open"] == [3])
            assert seated["tables"]["t1"]["open"] == []
            t1, t2 = tables.controller("t1"), tables.controller("t2")

            do(t1, {"type": "start"})
            fold_to_the_big_blind(t1, button=1)
            do(t1, {"type": "start"})
            await until_summary(room, lambda s: s["hands"] == 1)

            broker.kill()                                                   # 2. the broker dies mid-game
            fold_to_the_big_blind(t1, button=2)
            do(t1, {"type": "start"})
            await asyncio.sleep(0.3)
            broker.start()
            await until_summary(room, lambda s: s["hands"] == 2)

            await room.post({"op": "add", "game": "nlhe-1-3", "player": "Fay"})   # 3. the room is killed
            commands.append((await room.post({"op": "seat", "game": "nlhe-1-3"}))["command"])
            assert await room.kill() == -signal.SIGKILL
            fold_to_the_big_blind(t1, button=3)
            do(t1, {"type": "start"})
            await room.start()
            after = await until_summary(room, lambda s: s["hands"] == 3 and s["games"][0]["waiting"] == [] and
                                        s["tables"]["t2"]["open"] == [])
            assert after["tables"]["t2"]["seats"]["3"]["player"] == "Fay"

            await tables.stop_bridge("t2")                                         # 4. a table offline and back
            await until_summary(room, lambda s: s["tables"]["t2"]["online"] is False)
            do(t2, {"type": "start"})
            fold_to_the_big_blind(t2, button=1)
            do(t2, {"type": "start"})
            fold_to_the_big_blind(t2, button=2)
            do(t2, {"type": "start"})
            tables.bridge("t2")
            await until_summary(room, lambda s: s["hands"] == 5 and s["tables"]["t2"]["online"])
            assert await room.kill(signal.SIGTERM) == 0

    broker.run(main)
    assert tables.check_stored(tmp_path / "room.sqlite") == {"t1": 3, "t2": 2}
    db = sqlite3.connect(tmp_path / "room.sqlite")
    assert db.execute("SELECT COUNT(*) FROM waiting").fetchone() == (0,)
    db.close()
    sits = {name: [(line["player"], line["seat"], line["rid"]) for line in tables.journal(name)
                   if line.get("type") == "sit"] for name in TABLES}
    assert sits == {"t1": [("Ann", 1, f"room:{commands[0]}"), ("Bob", 2, f"room:{commands[1]}"),
                           ("Cy", 3, f"room:{commands[2]}")],
                    "t2": [("Dee", 1, f"room:{commands[3]}"), ("Eve", 2, f"room:{commands[4]}"),
                           ("Fay", 3, f"room:{commands[5]}")]}


def test_the_database_gone_the_room_says_so_in_one_line_and_stores_the_missed_hand_after(tmp_path: Path) -> None:
    """The room on PostgreSQL (its own server, pg_kit) and t1 (Ann, Bob, Cy at 200, set at the table). Hand 1
    is final (hand 2 started) and stored. The database server is killed; hand 2 becomes final: the room
    cannot store it, prints one line naming the database, no traceback, and exits 1 (systemd's
    Restart=on-failure starts it again: docs/room.md). The server back and the room started again, it asks
    t1 for the hand it lacks: hands 1 and 2 stored, once each."""
    server = Postgres()
    server.start()
    broker = Broker(tmp_path, ["t1"])
    broker.start()
    tables = Tables(tmp_path, broker, ("t1",))
    url = server.database()
    room = RoomProcess(tmp_path, broker, "", database=url)

    async def main() -> None:
        await tables.start()
        await room.start()
        t1 = tables.controller("t1")
        async with stopped_after(room, tables):
            await until_summary(room, lambda s: s["tables"].get("t1", {}).get("online"))
            for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
                do(t1, {"type": "sit", "seat": seat, "player": name, "stack": 200})
            do(t1, {"type": "start"})
            fold_to_the_big_blind(t1, button=1)
            do(t1, {"type": "start"})
            await until_summary(room, lambda s: s["hands"] == 1)
            server.kill()
            fold_to_the_big_blind(t1, button=2)
            do(t1, {"type": "start"})
            assert room.process is not None
            assert await asyncio.wait_for(room.process.wait(), 30) == 1
            room.process = None
            log = (tmp_path / "room.log").read_text()
            assert "Traceback" not in log
            assert log.splitlines()[-1].startswith(f"dealerpi room: the PostgreSQL database {url}: ")
            server.start()
            await room.start()
            await until_summary(room, lambda s: s["hands"] == 2)
            assert await room.kill(signal.SIGTERM) == 0

    try:
        broker.run(main)
        assert tables.check_stored(url) == {"t1": 2}
    finally:
        server.remove()
