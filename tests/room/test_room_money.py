"""The room's tournament money (issue 20, room/director/money.py, deal.py, knockouts.py): re-entries, rebuys
and the add-on, PKO bounties across tables, the colour-up at a break and the deal at the final table, by the
engine's own rules (engine/tournament_money.py, bounties.py, chip_race.py, deals.py). Engine tables journaling
every input, every seat command checked against TDA 8/11 as its table takes it (tests/money_kit.py,
tda_kit.py); the room hears a table's answer before its new view, as over MQTT.

Tables of 6 seats, 5000 each, buy-in 100, 3 paid 50/30/20 %. Seed 7 draws 8 players Bob 1, Dee 2, Eve 3,
Fay 6 at t1 and Cy 2, Gus 3, Hal 4, Ann 6 at t2."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from books_kit import JournaledTable
from money_kit import MoneyRoom, money_settings
from mtt_kit import Hand, play, smallest

from dealerpi.engine import DealError, Waiting
from dealerpi.history.final_hands import FinalHands
from dealerpi.room.director import controls
from dealerpi.room.director.books import from_record, from_view, next_hand
from dealerpi.room.director.deal import deal_proposals, operate
from dealerpi.room.director.money import MoneyError, check_ledger
from dealerpi.room.director.mtt import TournamentError
from dealerpi.room.director.mtt_config import parse_tournament
from dealerpi.views.roles import public_view

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
LEVELS = [{"blinds": [25, 50], "minutes": 10}, {"break": True, "minutes": 10}, {"blinds": [100, 200], "minutes": 60}]


def test_room_toml_money_keys_are_the_engines_and_errors_name_the_key() -> None:
    """The money keys are checked by the engine's own config check, the error naming ``tournament.KEY``; a
    colour-up names a level a break follows and a chip a whole number of the one removed (TRN-6)."""
    base = {"tables": ["t1"], "seats": 6, "buy_in": 100, "starting_stack": 5000, "levels": LEVELS}
    cases: list[tuple[dict[str, Any], str]] = [
        ({"bounty": 100}, 'room.toml: tournament.bounty: table: "bounty" 100 must be less than "buy_in" 100: the '
                          "rest is the prize pool's"),
        ({"rebuys": 1}, 'room.toml: tournament.rebuy_levels: table: "rebuys" need "rebuy_levels": the level rebuys '
                        "end with"),
        ({"colour_ups": [{"level": 2, "remove": 25, "chip": 100}]},
         "room.toml: tournament.colour_ups[0].level: no break follows level 2 in tournament.levels"),
        ({"colour_ups": [{"level": 1, "remove": 25, "chip": 60}]},
         "room.toml: tournament.colour_ups[0].chip: 60 must be a whole number of 25s, more than one (TRN-6)"),
    ]
    for more, error in cases:
        parsed, errors = parse_tournament({**base, **more}, "room.toml")
        assert parsed is None and errors == [error], more
    parsed, errors = parse_tournament({**base, "colour_ups": [{"level": 1, "remove": 25, "chip": 100}]}, "room.toml")
    assert parsed is not None and parsed.colour_ups == ((1, 25, 100),), errors


def test_trn9_pko_a_reentry_is_an_entry_of_the_field_seated_by_tda8_and_the_bounty_ledger_balances(
        tmp_path: Path) -> None:
    """Re-entries 1, bounty 40 of each 100 (60 into the prize pool), late registration open.
    At t1 Bob (the smallest stack, first of the equal ones) goes all in against Dee's aces: PKO, half of
    Bob's 40 in cash to Dee (20), half on Dee's head (40 + 20 = 60). Bob registers again: a re-entry, seated
    by the room's draw like a late entrant (TDA 8 checked as t1 takes it), 9 entries: pool 9 x 60 = 540, his
    head 40 again, bounty money paid in 9 x 40 = 360 = heads 340 + cash 20. Bob busts again: a second
    re-entry is refused by the engine's limit, and his bust stands."""
    room = MoneyRoom(tmp_path, money_settings(["t1", "t2"], late_entry_levels=0, reentries=1, bounty=40), NAMES)
    assert room.director.state["standings"]["pool"] == 480
    t1 = room.tables["t1"]
    assert smallest(t1) == "Bob" and play(t1, ["Bob"]) == "Dee"
    room.look("t1")
    room.step()
    money = room.money()
    assert money["bounties_won"] == {"Dee": 20} and money["heads"]["Dee"] == 60 and "Bob" not in money["heads"]
    room.director.register("Bob", room.now)
    room.step()
    assert "Bob" in [player for player, _ in room.seats("t1").values()]
    money = room.money()
    assert money["entries"] == 9 and money["heads"]["Bob"] == 40
    assert sum(money["heads"].values()) == 340
    standings = room.director.state["standings"]
    assert (standings["pool"], standings["remaining"], standings["finishes"]) == (540, 8, [])
    assert room.director.state["events"][-1] == {"kind": "re-entry", "player": "Bob"}
    assert play(t1, ["Bob"]) != "Bob"
    room.look("t1")
    room.step()
    with pytest.raises(TournamentError, match=r"^TRN-9: Bob has re-entered 1 time: no more re-entries "
                                              r"\(reentries = 1\)$"):
        room.director.register("Bob", room.now)
    assert [f[0] for f in room.director.state["standings"]["finishes"]] == ["Bob"]
    check_ledger(room.director.state["money"])
    assert room.problems == [] and room.refused() == []


def test_rebuys_and_the_addon_reach_the_table_as_chips_and_the_books_equal_the_journals(tmp_path: Path) -> None:
    """Rebuys 1 until the end of level 1, the add-on (5000 for 100) at the break after it (engine rules).
    A walk at t1 (button Bob 1: SB Dee 2 gives 25 to BB Eve 3): Dee 4975, Eve 5025. Dee's rebuy: the room
    sends t1 ``chips`` 5000 for seat 2 (Dee 9975); Eve's rebuy is refused (5025, more than the starting
    stack), Dee's second too (rebuys = 1). At the break Dee and Cy take the add-on (5000 each); a rebuy then
    is refused (the period ended with level 1); at level 2 an add-on is refused. The pool: 8 entries + 1
    rebuy + 2 add-ons, 100 each = 1100. Each table's journal adds, per player, exactly the chips the room
    booked: Dee 10000, Cy 5000; the average stack counts them: (8 x 5000 + 15000) / 8 = 6875."""
    settings = money_settings(["t1", "t2"], levels=LEVELS, rebuys=1, rebuy_levels=1, addon_chips=5000,
                              addon_price=100)
    room = MoneyRoom(tmp_path, settings, NAMES)
    play(room.tables["t1"], walk=True)
    assert room.seats("t1")[2] == ("Dee", 4975) and room.seats("t1")[3] == ("Eve", 5025)
    room.look("t1")
    room.step()
    operate(room.director, {"op": "rebuy", "player": "Dee"}, room.seen)
    operate(room.director, {"op": "rebuy", "player": "Eve"}, room.seen)
    room.step()
    assert room.seats("t1")[2] == ("Dee", 9975) and room.seats("t1")[3] == ("Eve", 5025)
    assert room.director.summary(room.seen, room.now)["refused"] == [
        "t1: rebuy Eve: rebuy: Eve has 5025, more than the starting stack (5000)"]
    operate(room.director, {"op": "rebuy", "player": "Dee"}, room.seen)
    room.step()
    assert room.director.state["refused"][-1]["reason"] == "rebuy: Dee has rebought 1 time (rebuys = 1)"
    room.at(10)                                                  # the break after level 1
    assert all(room.tables[t].table.paused == "break" for t in ("t1", "t2"))
    operate(room.director, {"op": "addon", "player": "Dee"}, room.seen)
    operate(room.director, {"op": "addon", "player": "Cy"}, room.seen)
    operate(room.director, {"op": "rebuy", "player": "Fay"}, room.seen)
    room.step()
    assert room.director.state["refused"][-1]["reason"] == "rebuy: the rebuy period ended with level 1"
    assert room.seats("t1")[2] == ("Dee", 14975) and ("Cy", 10000) in room.seats("t2").values()
    room.at(20)
    operate(room.director, {"op": "addon", "player": "Gus"}, room.seen)
    room.step()
    assert room.director.state["refused"][-1]["reason"] == "addon: add-ons are taken at the break after level 1"
    assert room.director.state["standings"]["pool"] == 1100
    assert room.director.summary(room.seen, room.now)["average"] == (8 * 5000 + 15000) // 8     # 6875
    assert room.journaled_chips() == {"Dee": 10000, "Cy": 5000}
    assert room.money()["buys"] == [["Dee", "rebuy"], ["Dee", "addon"], ["Cy", "addon"]]
    with pytest.raises(MoneyError, match=r"^Nobody is not in the tournament$"):
        operate(room.director, {"op": "rebuy", "player": "Nobody"}, room.seen)
    assert room.problems == []


def test_a_rebuy_asked_during_a_hand_the_player_then_busts_in_is_refused_not_sent(tmp_path: Path) -> None:
    """Rebuys allowed. t1 deals a hand; the floor asks a rebuy for Bob (the smallest stack) while it is on:
    it waits for the hand's end. Bob goes all in and loses: out, so the rebuy is refused on the page (he may
    re-enter instead) and no ``chips`` reach t1's journal."""
    settings = money_settings(["t1", "t2"], levels=LEVELS, rebuys=1, rebuy_levels=1)
    room = MoneyRoom(tmp_path, settings, NAMES)
    t1 = room.tables["t1"]
    hand = Hand(t1, ["Bob"])
    room.look("t1")
    operate(room.director, {"op": "rebuy", "player": "Bob"}, room.seen)
    room.step()
    assert [e for e in room.journal("t1") if e["type"] == "chips"] == []
    hand.until(lambda: False)
    room.look("t1")
    room.step()
    assert room.director.state["refused"][-1]["reason"] == "Bob is out (a re-entry, not a rebuy)"
    assert [e for e in room.journal("t1") if e["type"] == "chips"] == [] and room.money()["buys"] == []
    assert room.problems == []


def test_trn6_colour_up_plan_on_the_dealers_display_then_the_race_reported_and_applied(tmp_path: Path) -> None:
    """At the break after level 1 the 25s leave play for 100s (colour_ups). t1 played a walk at 25/50: Dee
    (SB, seat 2) 4975, Eve (BB, seat 3) 5025: odd 25s: seat 2 has 3 (75), seat 3 has 1 (25): 100 in 25s buys
    one chip of 100, nothing removed. t1's dealer display gets the plan (the engine's ``colour_up`` with
    ``plan``); t2 has no odd chip: its race is empty, applied at once. t1 stays on its break until the race
    is reported (even when level 2 comes), a wrong report is refused (TRN-6: seat 1 has no odd chips; one
    chip raced, not two winners); Dee wins the race: 4975 - 75 + 100 = 5000, Eve 5025 - 25 = 5000: t1's
    chips are 20000 before and after. Then t1 is resumed."""
    settings = money_settings(["t1", "t2"], levels=LEVELS, colour_ups=[{"level": 1, "remove": 25, "chip": 100}])
    room = MoneyRoom(tmp_path, settings, NAMES)
    play(room.tables["t1"], walk=True)
    room.at(10)
    assert room.alerts["t1"][-1] == (
        "Colour-up: every 25 leaves play for 100s; odd 25s: seat 2 3, seat 3 1; 1 chip of 100 raced from seat 1, "
        "one card per odd chip, at most one chip a player, nobody raced out (TDA 24); then report the winners")
    assert room.alerts["t2"][-1] == "Colour-up: take every 25 off the table; 0 chips of 100 raced"
    with pytest.raises(MoneyError, match=r"^TRN-6: seat 1 has no odd 25s to race$"):
        operate(room.director, {"op": "race", "table": "t1", "won": [1]}, room.seen)
    with pytest.raises(MoneyError, match=r"^TRN-6: 1 chip of 100 is raced, so 1 seat wins one, not 2$"):
        operate(room.director, {"op": "race", "table": "t1", "won": [2, 3]}, room.seen)
    room.at(20)
    assert room.tables["t1"].table.paused == "break" and room.tables["t2"].table.paused is None
    operate(room.director, {"op": "race", "table": "t1", "won": [2]}, room.seen)
    room.step()
    assert room.seats("t1")[2] == ("Dee", 5000) and room.seats("t1")[3] == ("Eve", 5000)
    assert sum(stack for _, stack in room.seats("t1").values()) == 20000
    assert room.alerts["t1"][-1] == "Colour-up: take every 25 off the table; 1 chip of 100 raced: seat 2 wins it"
    assert room.tables["t1"].table.paused is None
    assert [e for e in room.journal("t1") if e["type"] == "colour_up"] == [
        {"type": "colour_up", "remove": 25, "chip": 100, "plan": True},
        {"type": "colour_up", "remove": 25, "chip": 100, "won": [2]}]
    assert room.problems == [] and room.refused() == []


def test_deal_at_the_final_table_every_player_agrees_nobody_below_the_lowest_prize_places_kept(
        tmp_path: Path) -> None:
    """One table, 4 players (pool 400: 200/120/80; seed 7: Cy 1 on the button, Bob 2, Ann 4, Dee 5). Cy (the
    smallest stack, first of the equal ones) busts to Bob's aces (Ann's big blind folded): 4th, nothing. Three
    left, prizes still to pay 200 + 120 + 80 = 400. The chip chop, worked by hand from their stacks: 80 each,
    the other 160 by share of the chips. A deal without Dee's word is refused, one paying Ann 70 (below 80)
    too; the ICM proposal with everyone's word is made; the places are then played out and each is paid the
    deal's amount whatever his place."""
    room = MoneyRoom(tmp_path, money_settings(["t1"]), ["Ann", "Bob", "Cy", "Dee"])
    t1 = room.tables["t1"]
    assert smallest(t1) == "Cy" and play(t1, ["Cy"]) == "Bob"
    room.look("t1")
    room.step()
    stacks = {player: stack for player, stack in room.seats("t1").values() if stack}
    assert stacks == {"Ann": 4900, "Bob": 10100, "Dee": 5000}     # Ann's big blind folded, Bob's aces called
    proposals = deal_proposals(room.director, room.seen)
    assert proposals is not None and proposals["prizes"] == [200, 120, 80]
    # chip chop: 80 + 160 x 4900/20000 = 119.2, 80 + 160 x 10100/20000 = 160.8, 80 + 160 x 5000/20000 = 120:
    # 119 + 160 + 120 = 399, the unit left to the largest remainder (Bob's .8)
    assert proposals["chip_chop"] == {"Ann": 119, "Bob": 161, "Dee": 120}
    assert sum(proposals["icm"].values()) == 400 and min(proposals["icm"].values()) >= 80
    assert room.money()["proposals"] == proposals
    icm = proposals["icm"]
    with pytest.raises(DealError, match=r"^a deal needs every player still in to agree, and only them; not "
                                        "agreed: Dee$"):
        operate(room.director, {"op": "deal", "amounts": icm, "agreed": ["Ann", "Bob"]}, room.seen)
    with pytest.raises(DealError, match=r"^Ann would get less than the lowest prize still to pay \(80\)$"):
        operate(room.director, {"op": "deal", "amounts": {"Ann": 70, "Bob": 210, "Dee": 120},
                                "agreed": ["Ann", "Bob", "Dee"]}, room.seen)
    operate(room.director, {"op": "deal", "amounts": icm, "agreed": ["Dee", "Bob", "Ann"]}, room.seen)
    assert room.director.state["events"][-1] == {"kind": "deal", "amounts": icm, "agreed": ["Ann", "Bob", "Dee"]}
    assert room.money()["proposals"] is None and room.money()["deal"] == [[p, icm[p]] for p in ("Ann", "Bob", "Dee")]
    for _ in range(2):
        play(t1, [smallest(t1)])
        room.look("t1")
        room.step()
    finishes = {p: (place, prize) for p, place, prize in room.director.state["standings"]["finishes"]}
    assert finishes == {"Cy": (4, 0), "Ann": (3, icm["Ann"]), "Dee": (2, icm["Dee"]), "Bob": (1, icm["Bob"])}
    assert room.director.state["phase"] == "finished"


def _play_inputs(table: JournaledTable, cards: dict[int, list[str]], board: list[str],
                 actions: dict[int, str]) -> None:
    """One hand: the hole cards by seat, the burns and board from ``board``, each seat's one action."""
    table.submit({"type": "start"})
    cards = {seat: list(pair) for seat, pair in cards.items()}
    rest = iter(board)
    while not table.table.between_hands:
        expect = table.table.expectation()
        if expect.waiting is Waiting.CARD and expect.street is None:
            assert expect.seat is not None
            entry: dict[str, Any] = {"type": "card", "card": cards[expect.seat].pop(0)}
        elif expect.waiting in (Waiting.BURN, Waiting.CARD):
            entry = {"type": "card", "card": next(rest)}
        elif expect.waiting is Waiting.ACTION:
            assert expect.seat is not None
            entry = {"type": "act", "seat": expect.seat, "action": actions[expect.seat]}
        elif expect.waiting is Waiting.SHOWDOWN:
            entry = {"type": "show", "seat": expect.seats[0]}
        else:
            raise AssertionError(expect.words())
        assert table.submit(entry).accepted, entry


def test_pko_the_eliminator_is_the_winner_of_the_last_pot_the_busted_player_was_in(tmp_path: Path) -> None:
    """engine/between.py ``_bust_by``'s rule, read by the room from the hand record and from the view.
    Ann 1000 (seat 1, button), Bob 3000 (2, SB), Cy 5000 (3, BB), all in preflop: the main pot (3 x 1000)
    goes to Ann's aces, the side pot (Bob and Cy, 2 x 2000) to Cy's kings over Bob's queens. Bob is busted
    and the last pot he was in is the side pot: his eliminator is Cy, not Ann (who won the hand's main pot).
    A view read before the record naming someone else is a fault on the page when the record comes."""
    table = JournaledTable(tmp_path / "t1.jsonl")
    assert table.submit(money_settings(["t1"]).table_input(0)).accepted
    for seat, name, stack in ((1, "Ann", 1000), (2, "Bob", 3000), (3, "Cy", 5000)):
        assert table.submit({"type": "sit", "seat": seat, "player": name, "stack": stack}).accepted
    assert table.submit({"type": "button", "seat": 1}).accepted
    _play_inputs(table, {1: ["As", "Ah"], 2: ["Qs", "Qh"], 3: ["Ks", "Kh"]},
                 ["5d", "2c", "7d", "9h", "6s", "3s", "8s", "4c"], {1: "all_in", 2: "all_in", 3: "call"})
    assert {s: i.stack for s, i in table.table.seats.items()} == {1: 3000, 2: 0, 3: 6000}
    viewed = from_view(1, public_view(table.table))
    assert viewed.busted == ("Bob",) and viewed.knocked_by == {"Bob": ("Cy",)}
    assert table.submit({"type": "leave", "seat": 2}).accepted
    assert table.submit({"type": "start"}).accepted             # hand 1 is final: its record is written
    reader = FinalHands(tmp_path / "t1.jsonl")
    (hand,) = reader.poll()
    record = from_record(hand.number, hand.phh, "t1/1")
    assert record.busted == ("Bob",) and record.knocked_by == {"Bob": ("Cy",)}
    # the room read hand 1 from a view naming Ann (say, before an UNDO): the record's Cy is a fault on the page
    session = reader.session
    cursor = {"session": session, "seq": 0, "hand": 1, "viewed": [1, ["Bob"], {"Bob": ["Ann"]}]}
    view = {"session": session, "hands": 1, "hand": 2, "in_hand": True}
    assert next_hand(cursor, "t1", view, lambda t, s, q: (hand.number, hand.phh) if q == 1 else None) is None
    assert cursor["fault"] == ("hand #1: PKO: the hand record's eliminators differ: Bob: Cy, not Ann: the "
                               "bounties need the floor's correction")


def test_an_unregistered_player_takes_his_entry_and_his_bounty_out_of_the_books(tmp_path: Path) -> None:
    """The director's unregister (room/director/controls.py) before a player's table dealt its first hand: his buy-in
    is refunded, so the books lose his entry, his 60 in the prize pool (480 - 60 = 420) and his 40 on his
    head (bounty money 8 x 40 - 40 = 280, the ledger balanced), and the field counts 7."""
    room = MoneyRoom(tmp_path, money_settings(["t1", "t2"], bounty=40), NAMES)
    answer = controls.apply(room.director, {"id": "u1", "op": "unregister", "player": "Ann"}, room.now, room.seen)
    assert answer.startswith("Ann unregistered: refund the buy-in, 100")
    books = room.director.state["money"]
    assert room.director.state["standings"]["pool"] == 420 and books["bounty_in"] == 280
    assert "Ann" not in room.money()["heads"] and room.money()["entries"] == 7
    check_ledger(books)
