"""Issue 20, "Tests and figures": a 60-entry re-entry PKO tournament with rebuys, add-ons, a colour-up and a
deal, over six tables, to a winner (the slow lane). The tables are engine tables that journal every input
(tests/money_kit.py over tda_kit.py and books_kit.py, as tests/room/test_room_tda.py drives them: the room's
director itself, its commands applied to the tables, the tables' hands stored as the console sends them);
each command is checked against TDA 8/11 at the moment its table takes it.

48 players over six tables of 9 (8 each), 5000 chips, buy-in 100 of which 40 is the bounty (PKO), one
re-entry each while late registration is open (to the end of level 2): 12 re-entries make 60 entries, whose
payout row pays 7 places. One rebuy each until the end of level 2, the add-on (5000 for 100) at the break
after it, where the 25s are coloured up for 100s. Levels of 10 minutes; the room's clock moves half a
minute a hand to the break, then a minute a hand; busted players re-enter in the first 15 minutes (a seat
for each opens before late registration ends). At three players left, everyone agrees to the ICM deal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from money_kit import MoneyRoom, money_settings, paid_in, smallest_dealt
from mtt_kit import play

from dealerpi.history.final_hands import FinalHands
from dealerpi.room.director.deal import deal_proposals, operate
from dealerpi.room.director.money import check_ledger

LEVELS: list[dict[str, Any]] = [{"blinds": [25, 50], "minutes": 10}, {"blinds": [50, 100], "minutes": 10},
                                {"break": True, "minutes": 10},
                                *({"blinds": [100 * k, 200 * k], "minutes": 10} for k in range(1, 40))]
ROWS = [{"players": 20, "percents": [50, 30, 20]}, {"players": 100, "percents": [30, 20, 15, 12, 10, 8, 5]}]
TABLES = ["t1", "t2", "t3", "t4", "t5", "t6"]


def after_race(stack: int, won: bool, chip: int) -> int:
    """TRN-6 (TDA 24), worked from the rule: the stack's whole chips, one chip more to a race winner, and
    nobody raced out: a player left with nothing gets one chip."""
    left = stack // chip * chip + (chip if won else 0)
    return chip if left == 0 and stack > 0 else left


@pytest.mark.slow
def test_sixty_entries_reentry_pko_rebuys_addons_colour_up_and_a_deal_to_a_winner(tmp_path: Path) -> None:
    """Every move by TDA 11 and every entrant's seat by TDA 8 as the tables take them (tda_kit); chips
    conserved at every hand (the chips bought and the colour-up's difference accounted); the bounty ledger
    balanced at every hand; at the end prizes + bounty cash = all the money paid in; each table's journal
    adds exactly the chips the room booked for rebuys and add-ons, and holds each colour-up the room sent; the
    room's store holds exactly the final hands of each table's journal."""
    settings = money_settings(TABLES, seats=9, payouts=ROWS, levels=LEVELS, late_entry_levels=2, reentries=1,
                              rebuys=1, rebuy_levels=2, addon_chips=5000, addon_price=100, bounty=40,
                              colour_ups=[{"level": 2, "remove": 25, "chip": 100}])
    room = MoneyRoom(tmp_path, settings, [f"P{k:02d}" for k in range(48)])
    director = room.director
    bought = 0                    # chips the colour-ups added (negative: removed), worked from the rule
    reentered: list[str] = []
    rebought: list[str] = []
    added: list[str] = []
    minute = 0.0                  # the room's clock: half a minute a hand to the break, then a minute a hand
    dealt = False
    at_break: list[str] = []          # the tables playing at the break: each colours up
    for turn in range(2000):
        if director.state["phase"] == "finished":
            break
        room.at(minute)
        level = director.level_at(room.now)[0]
        if LEVELS[level].get("break"):
            at_break = list(director.state["active"])
            bought += _break(room, added)
            minute = 30.0                    # the break is over once every race is reported
            continue
        playing = [t for t in director.state["active"]
                   if room.tables[t].table.paused is None and _players(room, t) >= 2]
        assert playing, (turn, director.state["plan"], director.state["refused"][-3:])
        name = playing[turn % len(playing)]
        if len(rebought) < 6 and level < 2 and turn % 5 == 4:     # a rebuy by a player at or below 5000
            low = [p for p, s in room.seats(name).values() if 0 < s <= 5000 and p not in rebought]
            if low:
                operate(director, {"op": "rebuy", "player": low[0]}, room.seen)
                rebought.append(low[0])
                room.step()
        walk = turn % 4 == 3 and _players(room, name) <= 8      # mtt_kit deals 8 players' cards in a walk
        out = None if walk else smallest_dealt(room.tables[name].table)
        loser = [out] if out else []
        play(room.tables[name], loser, walk=not loser)
        minute += 0.5 if minute < 20 else 1.0
        room.look(name)
        room.step()
        for player in loser:                 # re-entries while late registration is open, 12 in all
            if player not in reentered and len(reentered) < 12 and minute < 15:     # seated before level 2 ends
                director.register(player, room.now)
                reentered.append(player)
                room.step()
        _conserved(room, bought)
        check_ledger(director.state["money"])
        standings = director.state["standings"]
        if not dealt and standings["remaining"] == 3 and len(director.state["active"]) == 1:
            proposals = deal_proposals(director, room.seen)
            if proposals is not None:
                operate(director, {"op": "deal", "amounts": proposals["icm"],
                                   "agreed": sorted(proposals["icm"])}, room.seen)
                dealt = True
    assert director.state["phase"] == "finished", director.summary(room.seen, room.now)
    money = room.money()
    assert money["entries"] == 60 and len(reentered) == 12
    assert room.problems == [] and room.refused() == []
    standings = director.state["standings"]
    assert len(standings["percents"]) == 7            # the row for 60 entries (TRN-4)
    assert len(standings["finishes"]) == 48           # each player once: a re-entry's first bust is no finish
    prizes = sum(prize for _, _, prize in standings["finishes"])
    bounty_cash = sum(money["bounties_won"].values())
    assert money["heads"] == {}
    assert prizes + bounty_cash == paid_in(settings, director.state["money"])
    assert bounty_cash == 40 * (60 + len(rebought))
    assert prizes == standings["pool"] == 60 * 60 + 60 * len(rebought) + 100 * len(added)
    booked: dict[str, int] = {}
    for player, kind in director.state["money"]["buys"]:
        if kind in ("rebuy", "addon"):
            booked[player] = booked.get(player, 0) + 5000
    assert room.journaled_chips() == booked
    kinds = [e["kind"] for e in director.state["events"]]
    assert dealt and {"re-entry", "deal", "final", "break", "move"} <= set(kinds)
    buys = director.state["money"]["buys"]
    assert [p for p, kind in buys if kind == "rebuy"] == rebought and len(rebought) >= 3
    assert [p for p, kind in buys if kind == "addon"] == added and len(added) >= 10
    assert sorted(director.state["money"]["colour"]) == sorted(at_break) and director.state["refused"] == []
    for name in TABLES:           # the room's store holds every final hand of each table's journal, no other
        journal = FinalHands(tmp_path / f"{name}.jsonl")
        final = {(name, journal.session, hand.seq): (hand.number, hand.phh) for hand in journal.poll()}
        assert final == {key: hand for key, hand in room.stored.items() if key[0] == name} and final
    for name, colour in director.state["money"]["colour"].items():
        sent = [e for e in room.journal(name) if e["type"] == "colour_up"]
        assert sent == [{"type": "colour_up", "remove": 25, "chip": 100, "plan": True},
                        {"type": "colour_up", "remove": 25, "chip": 100, "won": colour["done"]}]


def _players(room: MoneyRoom, name: str) -> int:
    return sum(1 for info in room.tables[name].table.seats.values() if info.stack > 0)


def _conserved(room: MoneyRoom, bought: int) -> None:
    """Chips on the tables (and carried between them) = 5000 an entry + what the room added."""
    entries = room.money()["entries"]
    on_tables = sum(info.stack for t in room.tables.values() for info in t.table.seats.values())
    carried = sum(room.director.state["carry"].values())
    rebought = sum(5000 for _, kind in room.director.state["money"]["buys"] if kind in ("rebuy", "addon"))
    assert on_tables + carried == 5000 * entries + rebought + bought, (on_tables, carried, entries, rebought, bought)


def _break(room: MoneyRoom, added: list[str]) -> int:
    """At the break: add-ons for every other player still in, then each table's race reported (the dealer's
    winners: the seats with odd chips from seat 1, as many as the chips raced); the chips the colour-up
    added (negative: removed), worked from the rule."""
    room.step()
    director = room.director
    if not added:
        still_in = sorted(p for t in director.state["active"] for p, s in room.seats(t).values() if s)
        for player in still_in[::2]:
            operate(director, {"op": "addon", "player": player}, room.seen)
            added.append(player)
        room.step()
    difference = 0
    for name, colour in director.state["money"]["colour"].items():
        if colour["done"] is not None or not colour["planned"]:
            continue
        won = sorted(int(seat) for seat in colour["odd"])[: colour["raced"]]
        before = {seat: info.stack for seat, info in room.tables[name].table.seats.items()}
        operate(director, {"op": "race", "table": name, "won": won}, room.seen)
        room.step()
        after = {seat: info.stack for seat, info in room.tables[name].table.seats.items()}
        assert after == {seat: after_race(stack, seat in won, 100) for seat, stack in before.items()}
        difference += sum(after.values()) - sum(before.values())
    for colour in director.state["money"]["colour"].values():     # empty races: applied by the room itself
        if colour["raced"] == 0:
            stacks = {int(s): v for s, v in colour["stacks"].items()}
            difference += sum(after_race(v, False, 100) for v in stacks.values()) - sum(stacks.values())
    return difference
