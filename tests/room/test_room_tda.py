"""Issue 20: the room's tournament director by the TDA, every command checked at the moment its table takes it
(tests/tda_kit.py): seats change only between hands (TDA 11, RP-6), each balancing move by TDA 11 (TRN-8: the
player due the big blind to the worst position), late entrants never between the small blind and the button
(TDA 8, TRN-9), one command per intent (a busted player is taken off his table once). Engine tables without a
broker; the room hears a table's answer before its new view, as over MQTT.

Two tables of 6 seats, 5000 each, 50/100, buy-in 100, 3 paid (50/30/20 %)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mtt_kit import Hand, play, smallest
from tda_kit import TdaRoom, bad_seat, worst_seats

from dealerpi.engine import Table
from dealerpi.room.director.mtt import Director, new_state
from dealerpi.room.director.mtt_config import TournamentSettings, parse_tournament

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim"]


def settings(tables: list[str], **more: object) -> TournamentSettings:
    parsed, errors = parse_tournament({"tables": tables, "seats": 6, "buy_in": 100, "starting_stack": 5000,
                                       "payouts": [50, 30, 20], "levels": [{"blinds": [50, 100], "minutes": 600}],
                                       **more}, "room.toml")
    assert parsed is not None, errors
    return parsed


def players(room: TdaRoom, name: str) -> int:
    return sum(1 for info in room.tables[name].table.seats.values() if info.stack > 0)


def test_rp6_tda11_an_all_in_player_is_not_gone_and_nobody_moves_during_a_hand(tmp_path: Path) -> None:
    """Issue 20 defect 1. Eleven players: 6 at t1, 5 at t2 (the draw fills the first named first), balanced.
    At t2 the first to act shoves (stack 0 while the hand is on) and the room looks; then everyone folds and
    he wins the blinds: nobody busted, the tables stay 6 and 5. Nothing is to move: no seat command at all,
    none refused (the code before counted the all-in player gone, 6 against 4, and sent a move into t2's
    hand, at his seat)."""
    room = TdaRoom(tmp_path, settings(["t1", "t2"]), NAMES)
    assert (players(room, "t1"), players(room, "t2")) == (6, 5)
    before = len(room.log)
    hand = Hand(room.tables["t2"], shove=True)
    assert hand.until(lambda: hand.shover is not None and room.tables["t2"].table.seat(hand.shover).stack == 0)
    room.look("t2")
    room.step()
    assert not hand.until(lambda: False)
    room.look("t2")
    room.step()
    assert room.problems == []
    assert room.refused() == []
    assert [payload["type"] for _, payload, _, _ in room.log[before:]] == []
    assert (players(room, "t1"), players(room, "t2")) == (6, 5)


def test_tda11_every_move_by_the_rule_and_one_drop_per_bust_to_the_final_table(tmp_path: Path) -> None:
    """Issue 20 defects 2 and 4. Eleven players over two tables play hands (every third a walk, the tables in
    turn; the others one bust at the table with fewer players: its smallest stack all in against the biggest,
    so that the other table has to give players) until the final table is drawn.
    Every seat change is checked as its table takes it (tda_kit): between hands only, each move's player the
    one due the big blind, his seat the worst position (the engine's next hand decides); no command refused;
    each busted player taken off his table by exactly one ``leave`` (one command per bust, not one per view).
    The table emptied for the final table is resumed: its dealer's display no longer says to wait for the
    room."""
    room = TdaRoom(tmp_path, settings(["t1", "t2"]), NAMES)
    busted: list[str] = []
    for turn in range(40):
        if room.director.state["final"]:
            break
        playing = [t for t in room.director.state["active"]
                   if not room.tables[t].table.paused and players(room, t) >= 2]
        assert playing, room.director.state
        walk = turn % 3 == 2
        name = playing[turn % len(playing)] if walk else min(playing, key=lambda t: players(room, t))
        loser = [] if walk else [smallest(room.tables[name])]
        play(room.tables[name], loser, walk=walk)
        busted += loser
        room.look(name)
        room.step()
    assert room.director.state["final"]
    room.step()
    assert room.seats("t2") == {} and room.tables["t2"].table.paused is None     # issue 20: not "wait for the room"
    moves = [e for e in room.director.state["events"] if e["kind"] == "move"]
    assert len(moves) >= 2
    assert room.problems == []
    assert room.refused() == []
    drops = [p for p, stack in room.drops]
    assert sorted(drops) == sorted(busted) and all(stack == 0 for _, stack in room.drops)


def test_tda11_a_busted_players_seat_is_free_once_his_bust_is_on_the_books(tmp_path: Path) -> None:
    """Issue 20 defect 2. Eleven players, 6 at t1 and 5 at t2. At t2 the smallest stack busts; before the room
    hears of it t2 deals its next hand (the busted player still on his seat at 0, the room cannot take him off
    during the hand). The room looks: t1 6, t2 4, a move is due, and waits for t2's hand to end; then the
    bust is on the books, he is taken off (once), and the player due the big blind at t1 moves to t2's worst
    position, which may be the seat he had. Checked as the tables take it (tda_kit)."""
    room = TdaRoom(tmp_path, settings(["t1", "t2"]), NAMES)
    t2 = room.tables["t2"]
    loser = smallest(t2)
    play(t2, [loser])
    hand = Hand(t2, walk=True)
    room.look("t2")
    room.step()
    assert room.problems == []
    hand.until(lambda: False)
    room.look("t2")
    room.step()
    moves = [e for e in room.director.state["events"] if e["kind"] == "move"]
    assert len(moves) == 1 and moves[0]["from"][0] == "t1" and moves[0]["to"][0] == "t2"
    assert room.problems == []
    assert room.refused() == []
    assert room.drops == [(loser, 0)]
    assert (players(room, "t1"), players(room, "t2")) == (5, 5)


def test_the_tda_checker_flags_a_wrong_seat_positive_control() -> None:
    """The checker itself (tda_kit), on an engine table of 6 seats (tournament preset) with Ann 1, Bob 2,
    Cy 4, Dee 5 and the button on 1: the next hand has the small blind on 2 and the big blind on 4. Seat 3
    (empty, between them) makes a new player the next big blind: the worst position, alone; seat 6 would
    wait two hands. With Bob on 3 instead of 2, a player sat on 2, right after the button, is refused as the
    small blind or between it and the button: the checker would catch such a move."""
    table = Table()
    assert table.apply(settings(["t1"]).table_input(0)).accepted
    for seat, name in ((1, "Ann"), (2, "Bob"), (4, "Cy"), (5, "Dee")):
        assert table.apply({"type": "sit", "seat": seat, "player": name, "stack": 5000}).accepted
    assert table.apply({"type": "button", "seat": 1}).accepted
    assert table.next_blind_seats() == (1, 2, 4)
    assert worst_seats(table, "Eve", 5000) == [3]
    other = Table()
    assert other.apply(settings(["t1"]).table_input(0)).accepted
    for seat, name in ((1, "Ann"), (3, "Bob"), (4, "Cy"), (5, "Dee")):
        assert other.apply({"type": "sit", "seat": seat, "player": name, "stack": 5000}).accepted
    assert other.apply({"type": "button", "seat": 1}).accepted
    assert other.apply({"type": "sit", "seat": 2, "player": "Eve", "stack": 5000}).accepted
    assert bad_seat(other, 2) is not None


def test_tda_three_tables_late_entrants_a_broken_table_and_moves_to_the_final_table(tmp_path: Path) -> None:
    """Issue 20, the whole way: 15 players over three tables of 6 (5/5/5), late registration open, 4 paid.
    Two late entrants register after the first hands; hands are played in turn (a bust at the emptiest table,
    every third hand a walk) until the final table. Checked as each table takes it (tda_kit): seats change
    between hands only; every balancing move TDA 11; each late entrant never on the small blind nor between
    it and the button (TDA 8); a table broken by the two-step draw (R10-B) into held tables; no command
    refused; one ``leave`` per bust; the tables the final table emptied resumed."""
    names = [f"P{k:02d}" for k in range(15)]
    room = TdaRoom(tmp_path, settings(["t1", "t2", "t3"], late_entry_levels=0, payouts=[40, 30, 20, 10]), names)
    busted: list[str] = []
    for turn in range(80):
        if room.director.state["final"]:
            break
        if turn == 4:
            for late in ("Late1", "Late2"):
                room.director.register(late, 1000.0)
        playing = [t for t in room.director.state["active"]
                   if not room.tables[t].table.paused and players(room, t) >= 2]
        assert playing, room.director.state
        walk = turn % 3 == 2
        name = playing[turn % len(playing)] if walk else min(playing, key=lambda t: players(room, t))
        loser = [] if walk else [smallest(room.tables[name])]
        play(room.tables[name], loser, walk=walk)
        busted += loser
        room.look(name)
        room.step()
    room.step()
    kinds = [e["kind"] for e in room.director.state["events"]]
    assert room.director.state["final"] and "break" in kinds and kinds.count("late entry") == 2
    assert room.problems == []
    assert room.refused() == []
    assert sorted(p for p, _ in room.drops) == sorted(busted)
    assert all(room.tables[t].table.paused is None for t in ("t2", "t3"))


def test_tda8_no_seat_a_moved_player_may_take_holds_nobody_until_the_button_moves() -> None:
    """t1: 6 players (next hand: button 1, SB 2, BB 3: Cy due the big blind). t2: 4 players on 1, 4, 5, 6,
    next hand button 1, SB 4, BB 5: its empty seats 2 and 3 lie between the button and the small blind (TDA 8:
    nobody new is dealt in there). 6 and 4 call for a move (TDA 11) but no seat may take it: no table is held
    or resumed for nothing (the code before paused both, found no seat, resumed both, and again, without
    end); once t2's button has moved on (button 4, SB 5, BB 6), Cy moves to seat 2 (after the BB: 1 is
    taken, 2 is empty and due the big blind before 3)."""
    director = Director(settings(["t1", "t2"]), new_state("x"))
    names = [f"P{k}" for k in range(10)]
    for name in names:
        director.register(name, 0.0)
    director.start(7, 1000.0)

    def table(players: dict[int, str], plan: tuple[int, int, int]) -> dict[str, Any]:
        return {"hand": 3, "in_hand": False, "paused": None, "pausing": None, "starting_stacks": [],
                "next_hand": dict(zip(("button", "sb", "bb"), plan, strict=True)),
                "seats": {str(s): {"player": players.get(s), "stack": 5000 if s in players else 0}
                          for s in range(1, 7)}}

    views = {"t1": table({s: names[s - 1] for s in range(1, 7)}, (1, 2, 3)),
             "t2": table({1: "P6", 4: "P7", 5: "P8", 6: "P9"}, (1, 4, 5))}
    accept = lambda cid: {"accepted": True}                              # noqa: E731
    for _ in range(3):                                                   # the start: table, sit, button
        assert director.step(views, accept, 1000.0)
    assert director.step(views, accept, 1000.0) == []
    assert director.step(views, accept, 1000.0) == []
    views["t2"]["next_hand"] = {"button": 4, "sb": 5, "bb": 6}
    held = [(t, p["type"]) for _, t, p in director.step(views, accept, 1000.0)]
    assert held == [("t1", "pause"), ("t2", "pause")]
    for name in ("t1", "t2"):
        views[name]["paused"] = "the room moves players"
    assert [(t, p) for _, t, p in director.step(views, accept, 1000.0)] == [("t1", {"type": "leave", "seat": 3})]
    views["t1"]["seats"]["3"] = {"player": None, "stack": 0}
    assert [(t, p) for _, t, p in director.step(views, accept, 1000.0)] == \
        [("t2", {"type": "sit", "seat": 2, "player": "P2", "stack": 5000})]
