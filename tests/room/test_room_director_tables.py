"""The director's controls end to end (issue 20): a REAL mosquitto, two tables (the daemon's API on fake
devices plus the console's bridge), ``dealerpi room`` as its own process with a ``[tournament]``, the
controls posted as the room page does. The announcement reaches each table's dealer display through the
room's command, the bridge and the daemon's socket; a move the tables cannot take is refused at once; one
they can is made between hands (RP-6), the player's chips with him, on a seat TDA 8 allows."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from mqtt_kit import Broker
from mtt_kit import play, smallest, stacks
from room_kit import RoomProcess, Tables, start_tournament, stopped_after, until_summary

from dealerpi.room.director.seating import entry_seats
from dealerpi.views.roles import public_view

pytestmark = pytest.mark.slow   # a real broker: 4 s

TABLES = ("t1", "t2")
PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
TOURNAMENT = ('[tournament]\ntables = ["t1", "t2"]\nseats = 6\nbuy_in = 10\nstarting_stack = 1000\n'
              'payouts = [70, 30]\nlevels = [{blinds = [10, 20], minutes = 60}]\n')


async def until(condition: Any, timeout: float = 20.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.05)


def test_the_directors_announcement_and_move_reach_the_tables(tmp_path: Path) -> None:
    """10 players drawn 5/5 (TRN-9), 1000 chips each. The announcement "Redraw at 9" is on both dealer
    displays ("ROOM: Redraw at 9"), and in both tables' views the room reads; cleared, it is off both. A move
    from t1 to t2 while 5/5 would leave 4/6: refused at once (TDA 11). The smallest stack at t1 busts (4/5);
    t2's first player (by name) is moved to a seat of t1 TDA 8 allows (not the small blind nor between it
    and the button; where the random draw left none, t1 folds hands to its big blind until the button brings
    one round): he sits there with his 1000 and leaves t2 (5/4), both tables dealing again, and the
    page lists the move as made."""
    broker = Broker(tmp_path, list(TABLES))
    broker.start()
    tables = Tables(tmp_path, broker, TABLES)
    room = RoomProcess(tmp_path, broker, TOURNAMENT)

    async def refused(body: dict[str, Any]) -> str:
        async with aiohttp.ClientSession() as session, \
                session.post(f"{room.url}/director", json=body, headers={"Origin": room.url}) as response:
            assert response.status == 400
            return await response.text()

    async def control(body: dict[str, Any]) -> str:
        answer: str = (await room.post(body, "/director"))["answer"]
        return answer

    async def main() -> None:
        t1, t2 = tables.controller("t1"), tables.controller("t2")
        async with stopped_after(room, tables):
            await start_tournament(tables, room, PLAYERS)
            await until(lambda: (len(t1.table.seats), len(t2.table.seats)) == (5, 5))
            assert await control({"id": "a1", "op": "announce", "text": "Redraw at 9"}) == "announced: Redraw at 9"
            await until(lambda: all(c.dealer_view().notes == ("ROOM: Redraw at 9",) for c in (t1, t2)))
            assert await control({"id": "a2", "op": "announce", "text": ""}) == "announcement cleared"
            await until(lambda: all(c.dealer_view().notes == () for c in (t1, t2)))

            mover = sorted(stacks(t1))[0]
            free = next(seat for seat in range(1, 7) if seat not in t2.table.seats)
            refusal = await refused({"id": "m1", "op": "move", "player": mover, "table": "t2", "seat": free})
            assert refusal == "400: TDA 11: the tables would be t1 4, t2 6: more than one apart\n"

            play(t1, [smallest(t1)])                                         # 4/5 once the room drops him
            await until(lambda: len(t1.table.seats) == 4 and t1.table.paused is None)
            # the room decides from the view t1 publishes: wait until it shows the four (a loaded machine
            # once sent the move while the room still saw the busted player on his seat)
            await until_summary(room, lambda s: len(s["tournament"]["tables"]["t1"]) == 4)
            allowed = entry_seats(public_view(t1.table), 6)
            for _ in range(6):          # the draw is random: if no empty seat is one TDA 8 lets a newcomer take,
                if allowed:             # a hand folded to the big blind moves the button until one is
                    break
                play(t1, walk=True)
                rows = sorted([seat, info.player, info.stack] for seat, info in t1.table.seats.items())
                await until_summary(room, lambda s, rows=rows: s["tournament"]["tables"]["t1"] == rows)
                allowed = entry_seats(public_view(t1.table), 6)
            assert allowed, "t1 has a seat a new player may take"
            moved = sorted(stacks(t2))[0]
            where = next(seat for seat, info in t2.table.seats.items() if info.player == moved)
            assert await control({"id": "m2", "op": "move", "player": moved, "table": "t1", "seat": allowed[0]}) \
                == f"{moved}: t2 seat {where} to t1 seat {allowed[0]} when both tables are between hands (RP-6)"
            await until(lambda: moved in stacks(t1) and moved not in stacks(t2)
                        and t1.table.paused is None and t2.table.paused is None)
            assert t1.table.seats[allowed[0]].player == moved and stacks(t1)[moved] == 1000
            summary = await until_summary(room, lambda s: s["tournament"]["controls"][-1].get("result") == "moved")
            assert summary["tournament"]["moves"] == []

    broker.run(main)
