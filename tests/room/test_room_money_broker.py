"""Issue 20: a re-entry PKO tournament with a rebuy and a deal, on a REAL mosquitto (the smaller real-broker run
beside the 60-entry one, test_room_money_60.py, which drives engine tables directly): two tables (the daemon's
API on fake devices plus the console's bridge), the room's service with its director, 8 players to a winner.
The director's money commands go through the service as the page's ``POST /tournament`` sends them.

Tables of 6, 5000 each, buy-in 100 of which 40 is the bounty, one re-entry, one rebuy until the end of level 1,
3 paid 50/30/20 %. The room's clock is injected and stays in level 1 (60 minutes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from money_broker_kit import START, BrokerRoom
from money_kit import paid_in, smallest_dealt
from mqtt_kit import Broker, until
from mtt_kit import play
from room_kit import stopped_after

from dealerpi.history.final_hands import FinalHands
from dealerpi.room.director.deal import deal_proposals
from dealerpi.room.director.money import check_ledger
from dealerpi.room.store import Store

TABLES = ("t1", "t2")
PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
TOURNAMENT = {"tables": list(TABLES), "seats": 6, "buy_in": 100, "starting_stack": 5000, "payouts": [50, 30, 20],
              "bounty": 40, "reentries": 1, "late_entry_levels": 0, "rebuys": 1, "rebuy_levels": 1,
              "levels": [{"blinds": [50, 100], "minutes": 60}, {"break": True, "minutes": 10},
                         {"blinds": [100, 200], "minutes": 600}]}


@pytest.mark.slow   # a real broker and the room as its own process: 3 s
def test_real_broker_reentry_pko_rebuy_and_a_deal_to_a_winner(tmp_path: Path) -> None:
    """Over MQTT: a bust pays the PKO (half of 40 in cash to the eliminator, half on his head); the busted
    player re-enters (9 entries, pool 9 x 60 = 540) and is seated by the room; after a walk the small blind
    rebuys through the service (his table journals ``chips`` 5000; pool 600); at three left at the final
    table everyone agrees to the chip chop; played to a winner: prizes + bounty cash = the 1000 paid in
    (9 entries + 1 rebuy, 100 each), bounty cash = 10 x 40, each table's journal adds exactly the chips
    the room booked, every room command journaled once, and the room's store holds every final hand of each
    table's journal."""
    broker = Broker(tmp_path, list(TABLES))
    broker.start()

    async def body(room: BrokerRoom) -> None:
        service = room.service
        director = service.director
        assert director is not None
        for player in PLAYERS:
            service.register(player)
        await until(lambda: all(t in service.views() for t in TABLES), 30)
        await service.start_tournament()
        await room.settle()
        loser = smallest_dealt(room.controller("t1").table)
        assert loser is not None
        winner = play(room.controller("t1"), [loser])
        await room.settle()
        money = room.money()
        assert money["bounties_won"] == {winner: 20} and money["heads"][winner] == 60
        service.register(loser)                                     # a re-entry
        await room.settle()
        assert any(loser in {i.player for i in room.controller(t).table.seats.values()} for t in TABLES)
        assert room.money()["entries"] == 9 and director.state["standings"]["pool"] == 540
        play(room.controller("t2"), [], walk=True)
        await room.settle()
        t2 = room.controller("t2").table
        small = min(t2.seats.values(), key=lambda i: (i.stack, i.seat))
        assert small.stack == 4950
        await service.tournament_money({"op": "rebuy", "player": small.player})
        await room.settle()
        assert t2.seats[small.seat].stack == 9950 and director.state["standings"]["pool"] == 600
        (chips,) = [e for e in room.journal("t2") if e["type"] == "chips"]
        assert (chips["seat"], chips["amount"], chips["rid"].startswith("room:")) == (small.seat, 5000, True)
        dealt = False
        for turn in range(60):
            if director.state["phase"] == "finished":
                break
            standings = director.state["standings"]
            if not dealt and standings["remaining"] == 3 and len(director.state["active"]) == 1:
                summary = service.tournament()
                assert summary is not None
                proposals = summary["money"]["proposals"]
                assert proposals is not None
                await service.tournament_money({"op": "deal", "amounts": proposals["chip_chop"],
                                                "agreed": sorted(proposals["chip_chop"])})
                dealt = True
            playing = [t for t in director.state["active"] if room.controller(t).table.paused is None
                       and sum(1 for i in room.controller(t).table.seats.values() if i.stack) >= 2]
            assert playing, director.state["refused"]
            table = playing[turn % len(playing)]
            out = smallest_dealt(room.controller(table).table)
            play(room.controller(table), [out] if out else [], walk=out is None)
            await room.settle()
        assert director.state["phase"] == "finished" and dealt
        money, books = room.money(), director.state["money"]
        prizes = sum(prize for _, _, prize in director.state["standings"]["finishes"])
        assert paid_in(director.settings, books) == 1000 and money["heads"] == {}
        assert prizes + sum(money["bounties_won"].values()) == 1000
        assert sum(money["bounties_won"].values()) == 400 and prizes == 600
        assert director.state["refused"] == []
        assert room.journaled_chips() == {small.player: 5000} and books["buys"].count([small.player, "rebuy"]) == 1

    async def main() -> None:
        room = BrokerRoom(tmp_path, broker, TOURNAMENT)
        await room.start()
        async with stopped_after(room):
            await body(room)
        assert room.checker.problems == []
        for t in TABLES:                                           # every command journaled once
            rids = [line["rid"] for line in room.journal(t) if line.get("rid", "").startswith("room:")]
            assert len(rids) == len(set(rids)) and rids
            final = FinalHands(room.tables[t][0].journal)
            hands = final.poll()
            store = Store(tmp_path / "room.sqlite")
            try:
                assert hands and all(store.hand(t, final.session, h.seq) == (h.number, h.phh) for h in hands)
            finally:
                store.close()

    broker.run(main)


SIXTY: dict[str, Any] = {"tables": ["t1", "t2", "t3", "t4", "t5", "t6"], "seats": 9, "buy_in": 100,
                         "starting_stack": 5000,
         "payouts": [{"players": 20, "percents": [50, 30, 20]},
                     {"players": 100, "percents": [30, 20, 15, 12, 10, 8, 5]}],
         "bounty": 40, "reentries": 1, "late_entry_levels": 2, "rebuys": 1, "rebuy_levels": 2,
         "addon_chips": 5000, "addon_price": 100, "colour_ups": [{"level": 2, "remove": 25, "chip": 100}],
         "levels": [{"blinds": [25, 50], "minutes": 10}, {"blinds": [50, 100], "minutes": 10},
                    {"break": True, "minutes": 10},
                    *({"blinds": [100 * k, 200 * k], "minutes": 10} for k in range(1, 40))]}


def after_race(stack: int, won: bool, chip: int) -> int:
    """TRN-6 (TDA 24), worked from the rule: the stack's whole chips, one chip more to a race winner, and
    nobody raced out: a player left with nothing gets one chip."""
    left = stack // chip * chip + (chip if won else 0)
    return chip if left == 0 and stack > 0 else left


@pytest.mark.slow
def test_real_broker_sixty_entries_reentry_pko_rebuys_addons_colour_up_deal_to_a_winner(tmp_path: Path) -> None:
    """Issue 20, "Tests and figures", on a REAL mosquitto: six tables of 9 (the daemon's API and the console's
    bridge each), 48 players (8 a table), one re-entry each while late registration is open (to the end of level 2): 12
    re-entries, 60 entries, whose payout row pays 7. Bounty 40 of each 100 (PKO); one rebuy each to the end
    of level 2 (six asked by the floor); at the break after level 2 every other player still in takes the
    add-on (5000 for 100) and the 25s are coloured up for 100s, each table's race reported by the floor; at
    three left at the final table everyone agrees to the ICM deal. The room's clock moves half a minute a hand
    to the break, then a minute a hand; busted players re-enter in the first 15 minutes.
    Checked: every command the room sends by TDA 8/11 as its table takes it (tda_kit on the table's engine);
    after every hand the chips (5000 an entry, the chips bought, the colour-up's difference worked from the
    rule) and the bounty ledger; at the end prizes + bounty cash = all the money paid in, bounty cash = 40 an
    entry and rebuy, each table's journal adds exactly the chips the room booked and holds its colour-up,
    every room command journaled once, and the room's store holds every final hand of each journal."""
    broker = Broker(tmp_path, list(SIXTY["tables"]))
    broker.start()
    tables = list(SIXTY["tables"])

    async def body(room: BrokerRoom) -> None:
        service = room.service
        director = service.director
        assert director is not None
        for k in range(48):
            service.register(f"P{k:02d}")
        await until(lambda: all(t in service.views() for t in tables), 30)
        await service.start_tournament()
        await room.settle()
        rebought: list[str] = []
        added: list[str] = []
        reentered: list[str] = []
        colour = 0                      # the chips the colour-ups added (negative: removed)
        minute, dealt = 0.0, False     # half a minute a hand to the break, then a minute a hand
        at_break: list[str] = []       # the tables playing at the break: each colours up
        for turn in range(400):
            if director.state["phase"] == "finished":
                break
            room.now = START + 60 * minute
            await room.settle()
            level = director.level_at(room.now)[0]
            if director.settings.levels[level].is_break:
                at_break = list(director.state["active"])
                colour += await _break(room, added)
                minute = 30.0
                continue
            playing = [t for t in director.state["active"] if room.controller(t).table.paused is None
                       and sum(1 for i in room.controller(t).table.seats.values() if i.stack) >= 2]
            assert playing, (turn, [(r["table"], r["op"], r["reason"]) for r in director.state["refused"]])
            name = playing[turn % len(playing)]
            if len(rebought) < 6 and level < 2 and turn % 5 == 4:
                low = [i.player for i in room.controller(name).table.seats.values()
                       if 0 < i.stack <= 5000 and i.player not in rebought]
                if low:
                    await service.tournament_money({"op": "rebuy", "player": low[0]})
                    rebought.append(low[0])
                    await room.settle()
            players = sum(1 for i in room.controller(name).table.seats.values() if i.stack)
            walk = turn % 4 == 3 and players <= 8                # mtt_kit deals 8 players' cards in a walk
            loser = None if walk else smallest_dealt(room.controller(name).table)
            play(room.controller(name), [loser] if loser else [], walk=loser is None)
            minute += 0.5 if minute < 20 else 1.0
            await room.settle()
            if loser and loser not in reentered and len(reentered) < 12 and minute < 15:
                service.register(loser)
                reentered.append(loser)
                await room.settle()
            books = director.state["money"]
            check_ledger(books)
            on_tables = sum(i.stack for t in tables for i in room.controller(t).table.seats.values())
            bought = sum(5000 for _, kind in books["buys"] if kind in ("rebuy", "addon"))
            assert on_tables + sum(director.state["carry"].values()) == \
                5000 * room.money()["entries"] + bought + colour, turn
            standings = director.state["standings"]
            if not dealt and standings["remaining"] == 3 and len(director.state["active"]) == 1:
                proposals = deal_proposals(director, service.views())
                if proposals is not None:
                    await service.tournament_money({"op": "deal", "amounts": proposals["icm"],
                                                    "agreed": sorted(proposals["icm"])})
                    dealt = True
        assert director.state["phase"] == "finished" and dealt
        money, books = room.money(), director.state["money"]
        assert money["entries"] == 60 and len(reentered) == 12 and director.state["refused"] == []
        standings = director.state["standings"]
        assert len(standings["percents"]) == 7 and len(standings["finishes"]) == 48
        prizes = sum(prize for _, _, prize in standings["finishes"])
        cash = sum(money["bounties_won"].values())
        assert money["heads"] == {} and prizes + cash == paid_in(director.settings, books)
        assert cash == 40 * (60 + len(rebought))
        assert prizes == standings["pool"] == 60 * 60 + 60 * len(rebought) + 100 * len(added)
        assert [p for p, kind in books["buys"] if kind == "rebuy"] == rebought and len(rebought) >= 3
        assert [p for p, kind in books["buys"] if kind == "addon"] == added and len(added) >= 10
        booked: dict[str, int] = {}
        for player, kind in books["buys"]:
            if kind in ("rebuy", "addon"):
                booked[player] = booked.get(player, 0) + 5000
        assert room.journaled_chips() == booked
        kinds = {e["kind"] for e in director.state["events"]}
        assert {"re-entry", "deal", "final", "break", "move"} <= kinds
        assert sorted(books["colour"]) == sorted(at_break) and at_break
        for name, race in books["colour"].items():
            # (remove, chip, plan, won) as journaled, in the record's form: plan and won left out at their
            # defaults (false, no seat), as docs/journal.md writes them
            assert [(e["remove"], e["chip"], e.get("plan", False), e.get("won", []))
                    for e in room.journal(name) if e["type"] == "colour_up"] == [
                (25, 100, True, []), (25, 100, False, race["done"])]

    async def main() -> None:
        room = BrokerRoom(tmp_path, broker, SIXTY)
        await room.start()
        async with stopped_after(room):
            await body(room)
        assert room.checker.problems == []
        store = Store(tmp_path / "room.sqlite")
        try:
            for t in tables:
                rids = [line["rid"] for line in room.journal(t) if line.get("rid", "").startswith("room:")]
                assert len(rids) == len(set(rids)) and rids
                final = FinalHands(room.tables[t][0].journal)
                hands = final.poll()
                assert hands and all(store.hand(t, final.session, h.seq) == (h.number, h.phh) for h in hands)
        finally:
            store.close()

    broker.run(main)


async def _break(room: BrokerRoom, added: list[str]) -> int:
    """At the break: add-ons for every other player still in (once), then each table's race reported by the
    floor (the winners: the seats with odd chips from seat 1, as many as the chips raced); the chips the
    colour-ups added, worked from the rule (an empty race the room applies itself)."""
    service, director = room.service, room.service.director
    assert director is not None
    await room.settle()
    if not added:
        still_in = sorted(i.player for t in director.state["active"]
                          for i in room.controller(t).table.seats.values() if i.stack)
        for player in still_in[::2]:
            await service.tournament_money({"op": "addon", "player": player})
            added.append(player)
        await room.settle()
    difference = 0
    for name, race in list(director.state["money"]["colour"].items()):
        if race["done"] is not None or not race["planned"]:
            continue
        won = sorted(int(seat) for seat in race["odd"])[: race["raced"]]
        before = {seat: info.stack for seat, info in room.controller(name).table.seats.items()}
        await service.tournament_money({"op": "race", "table": name, "won": won})
        await room.settle()
        after = {seat: info.stack for seat, info in room.controller(name).table.seats.items()}
        assert after == {seat: after_race(stack, seat in won, 100) for seat, stack in before.items()}
        difference += sum(after.values()) - sum(before.values())
    for race in director.state["money"]["colour"].values():
        if race["raced"] == 0:
            stacks = {int(s): v for s, v in race["stacks"].items()}
            difference += sum(after_race(v, False, 100) for v in stacks.values()) - sum(stacks.values())
    return difference
