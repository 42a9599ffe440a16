"""The tournament's books from the hands themselves (room/director/books.py, issue 15): busts and starting stacks from
each hand's record, one hand at a time in order, whatever views the room happened to see; and TRN-8
balancing from a table that has not played a hand. Engine tables without a broker (books_kit): a hand's
record exists once the table accepted an input after it (the next start, the room's leave), as the
console's reader makes it.

One table of 6 seats, 4 players (seed 7 draws Cy 1, Bob 2, Ann 4, Dee 5; the button to seat 1), 5000 each,
50/100; buy-in 100: pool 400, 3 paid at 50/30/20 %: 200, 120, 80 (400 x 20 / 100 = 80).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from books_kit import NOW, BooksRoom
from mtt_kit import play

from dealerpi.engine import Standings
from dealerpi.room.director.books import LOST, HandOver, Lost, next_hand
from dealerpi.room.director.hand_for_hand import round_over
from dealerpi.room.director.mtt import Director, new_state
from dealerpi.room.director.mtt_config import TournamentSettings, parse_tournament

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def settings(tables: list[str]) -> TournamentSettings:
    parsed, errors = parse_tournament({"tables": tables, "seats": 6, "buy_in": 100, "starting_stack": 5000,
                                       "payouts": [50, 30, 20], "levels": [{"blinds": [50, 100], "minutes": 60}]},
                                      "room.toml")
    assert parsed is not None, errors
    return parsed


def two_busts(room: BooksRoom, second_had_more: bool, look_each_hand: bool) -> tuple[str, str]:
    """Two hands at t1, one bust each (the first hand's bust, the second's); the room looks after each hand
    only with ``look_each_hand``. With ``second_had_more`` a walk comes first."""
    t1 = room.tables["t1"]
    assert room.seats("t1") == {1: ("Cy", 5000), 2: ("Bob", 5000), 4: ("Ann", 5000), 5: ("Dee", 5000)}
    if second_had_more:
        play(t1, [], walk=True)
        assert room.seats("t1") == {1: ("Cy", 5000), 2: ("Bob", 4950), 4: ("Ann", 5050), 5: ("Dee", 5000)}
        first, second = "Bob", "Cy"
    else:
        first, second = "Cy", "Ann"
    if look_each_hand:
        room.look("t1")
        room.step()
    for loser, chips in ((first, 4950 if second_had_more else 5000), (second, 5000 if second_had_more else 4900)):
        play(t1, [loser])
        start = {room.seats("t1")[seat][0]: stack for seat, stack in t1.table.starting_stacks()}
        assert start[loser] == chips
        if look_each_hand:
            room.look("t1")
            room.step()
    return first, second


@pytest.mark.parametrize("second_had_more", [False, True])
@pytest.mark.parametrize("when", ["each hand", "after both", "in the third hand"])
def test_trn4_busts_of_two_hands_seen_at_once_finish_hand_by_hand(tmp_path: Path, second_had_more: bool,
                                                                  when: str) -> None:
    """TRN-4: busts on different hands never share; the earlier hand's bust finishes worse, whatever their
    stacks. Without ``second_had_more``: hand 1 Cy (5000 at its start) busts to Bob's aces (Ann's big blind
    folded: 4900); hand 2 Ann (4900 at its start, less than Cy had) busts: Cy 4th (0), Ann 3rd (80). With
    it: a walk first (Bob's small blind 50 to Ann: Bob 4950, Ann 5050); hand 2 Bob (4950) busts to Ann's
    aces, hand 3 Cy (5000 at its start, more than Bob had) busts: Bob 4th, Cy 3rd (80).
    The room looks after each hand; or only after both (the first from its record, the second from the view:
    read as one hand they would share 3rd and 4th, (80 + 0) / 2 = 40 each); or only once the next hand has
    started (both from their records). The same standings every time."""
    room = BooksRoom(tmp_path, settings(["t1"]), PLAYERS)
    first, second = two_busts(room, second_had_more, when == "each hand")
    if when == "in the third hand":
        room.tables["t1"].submit({"type": "start"})
    room.look("t1")
    room.step()
    assert room.finishes() == {first: (4, 0), second: (3, 80)}
    assert [e["players"] for e in room.director.state["events"] if e["kind"] == "bust"] == [[first], [second]]
    if when != "in the third hand":                  # between hands: both left their seats
        assert sorted(p for p, _ in room.seats("t1").values()) == sorted(set(PLAYERS) - {first, second})


def test_a_hand_read_from_the_view_is_not_read_again_from_its_record(tmp_path: Path) -> None:
    """The room looking after each hand reads hand 1 from the view; hand 1's record comes once the room's
    ``leave`` for Cy lands (an input after the hand: no undo reaches it, engine/events.py) and is skipped by
    its number. Ann's bust is read from the view of hand 2, kept to be checked against hand 2's record,
    which the room's ``leave`` for Ann makes final in turn: the same bust, so no fault, nothing left to
    check (seq 2 read, hand 2 done)."""
    room = BooksRoom(tmp_path, settings(["t1"]), PLAYERS)
    two_busts(room, False, True)
    room.look("t1")
    room.step()
    session = room.final["t1"].session
    assert room.director.state["done"] == {"t1": {"session": session, "seq": 2, "hand": 2}}


def test_a_missing_hand_record_is_waited_for_then_read(tmp_path: Path) -> None:
    """The room hears t1 after hand 2 but has not stored hand 1 (the table says it has 1 final hand): it
    decides nothing (no place, no command) until hand 1 comes, and the page says what it waits for; then Cy
    4th and Ann 3rd, as above."""
    room = BooksRoom(tmp_path, settings(["t1"]), PLAYERS)
    first, second = two_busts(room, False, False)
    room.look("t1", store=False)
    assert room.seen["t1"]["hands"] == 1 and not room.stored
    assert room.step() == [] and room.finishes() == {}
    assert room.director.summary(room.seen, 1000.0)["waiting"] == [
        "t1: waiting for its hand record 1 of 1, asked from the table again; if it does not come, check that "
        "table's console"]
    room.look("t1")
    sent = room.step()
    assert room.finishes() == {first: (4, 0), second: (3, 80)}
    assert room.director.summary(room.seen, 1000.0)["waiting"] == []
    assert sorted(p["seat"] for _, _, p in sent if p["type"] == "leave") == [1, 4]       # Cy and Ann leave


def test_a_state_stored_before_the_books_read_records_goes_on(tmp_path: Path) -> None:
    """A director state of the old form (``done`` the hand number, ``stacks`` noted from views) loads: its
    table's session comes from the view, the records up to its hand are skipped, and the next hand is read:
    Cy out at hand 1 (4th) in the old state, Ann at hand 2: 3rd, 80."""
    room = BooksRoom(tmp_path, settings(["t1"]), PLAYERS)
    t1 = room.tables["t1"]
    play(t1, ["Cy"])
    room.look("t1")
    room.step()
    old = {**room.director.state, "done": {"t1": 1}, "stacks": {"Ann": 4900, "Bob": 10100, "Dee": 5000}}
    play(t1, ["Ann"])
    room.tables["t1"].submit({"type": "start"})
    room.director = Director(settings(["t1"]), old)
    room.look("t1")
    room.step()
    assert room.finishes() == {"Cy": (4, 0), "Ann": (3, 80)}
    assert "stacks" not in room.director.state
    assert room.director.state["done"]["t1"] == {"session": room.final["t1"].session, "seq": 2, "hand": 2}


def test_trn8_balancing_from_a_table_that_has_not_played_moves_the_player_due_the_big_blind(
        tmp_path: Path) -> None:
    """Nine players over two tables of 6 (seed 7): t1 Bob 1, Dee 2, Eve 3, Ivy 5, Fay 6, button drawn to
    seat 1; t2 Cy 2, Gus 3, Hal 4, Ann 6, button 3. t2 plays a hand (SB 4, BB 6) where Cy busts (9th): 5 and
    3 players, two apart. t1 has not played: by BLD-1 its first hand's small blind is the first player left
    of the button (seat 2, Dee) and the big blind the next (seat 3, Eve): TRN-8 moves Eve, to t2's worst
    seat: t2's next hand (dead button, TRN-7) has the button on 4, the small blind on 6 (its last big blind)
    and the big blind on 3 (Gus: 1 and 2 are empty); the empty seat after the small blind, seat 1, is the seat
    due the big blind next (not between the button and the small blind: 5 is). Both tables are held between
    hands (RP-6: t1 at once, t2 after its hand 1), Eve leaves t1 with 5000, sits at t2 seat 1, both resumed.
    4 and 4."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
    room = BooksRoom(tmp_path, settings(["t1", "t2"]), names)
    assert {s: p for s, (p, _) in room.seats("t1").items()} == {1: "Bob", 2: "Dee", 3: "Eve", 5: "Ivy", 6: "Fay"}
    assert {s: p for s, (p, _) in room.seats("t2").items()} == {2: "Cy", 3: "Gus", 4: "Hal", 6: "Ann"}
    button = [p["seat"] for _, t, p in room.director.state["plan"] or [] if t == "t1"]
    assert button == [] and room.seen["t1"]["last_blinds"] == [None, None]
    assert [e for e in room.director.state["events"] if e["kind"] == "draw"]
    play(room.tables["t2"], ["Cy"])
    assert room.tables["t2"].table.blind_seats() == (4, 6)
    room.look("t2")
    sent = [(t, p) for _, t, p in room.step()]
    assert room.finishes() == {"Cy": (9, 0)}
    assert sent == [("t2", {"type": "leave", "seat": 2}),
                    ("t1", {"type": "pause", "reason": "the room moves players"}),
                    ("t2", {"type": "pause", "reason": "the room moves players", "after_hand": 1}),
                    ("t1", {"type": "leave", "seat": 3}),
                    ("t2", {"type": "sit", "seat": 1, "player": "Eve", "stack": 5000}),
                    ("t1", {"type": "resume"}), ("t2", {"type": "resume"})]
    assert {s: p for s, (p, _) in room.seats("t2").items()} == {1: "Eve", 3: "Gus", 4: "Hal", 6: "Ann"}


@pytest.mark.parametrize("one_table", [True, False])
def test_trn4_rp8a_a_hand_for_hand_rounds_busts_share_only_across_tables(one_table: bool) -> None:
    """Six entrants, pool 600, 3 paid at 50/30/20 %: 300, 180, 120. Eve and Fay are out (6th, 5th): 4 left,
    3 paid, the bubble (TRN-5). In the round Ann (3000 at the start of her hand) and Bob (1000) bust. At one
    table, in one hand: TRN-4, Bob 4th (0), Ann 3rd (120). At two tables (Ann at t1, Bob at t2): TDA RP-8-A,
    they share 3rd and 4th: (120 + 0) / 2 = 60 each, place 3. The round is over: hand-for-hand ends."""
    director = Director(settings(["t1", "t2"]), new_state("x"))
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay"):
        director.register(name, 1000.0)
    director.start(7, 1000.0)
    standings = Standings(600, 6, (50, 30, 20)).bust(["Eve"]).bust(["Fay"])
    busts = [{"table": "t1", "hand": 4, "players": ["Ann", "Bob"], "stacks": {"Ann": 3000, "Bob": 1000}}] \
        if one_table else [{"table": "t1", "hand": 4, "players": ["Ann"], "stacks": {"Ann": 3000}},
                           {"table": "t2", "hand": 6, "players": ["Bob"], "stacks": {"Bob": 1000}}]
    director.state.update(plan=[], standings={"pool": 600, "remaining": 4, "percents": [50, 30, 20],
                                              "finishes": [[f.player, f.place, f.prize] for f in standings.finishes]},
                          h4h={"round": {"t1": 3, "t2": 5}, "busts": busts, "rounds": 0, "since": 1000.0})
    held = {"in_hand": False, "paused": "hand-for-hand", "seats": {}}
    assert round_over(director, {"t1": {**held, "hand": 4}, "t2": {**held, "hand": 6}}, 1060.0)
    finishes = {p: (place, prize) for p, place, prize in director.state["standings"]["finishes"]}
    assert {p: finishes[p] for p in ("Eve", "Fay")} == {"Eve": (6, 0), "Fay": (5, 0)}
    assert {p: finishes[p] for p in ("Ann", "Bob")} == \
        ({"Bob": (4, 0), "Ann": (3, 120)} if one_table else {"Ann": (3, 60), "Bob": (3, 60)})
    assert director.state["h4h"] is None


def test_a_refused_drop_is_on_the_page_and_not_sent_again(tmp_path: Path) -> None:
    """Cy busts at hand 1 (4th); the room's ``leave`` for him is refused (a reason other than a hand in
    play): the refusal is listed once and the room does not send it again at every step."""
    room = BooksRoom(tmp_path, settings(["t1"]), PLAYERS)
    play(room.tables["t1"], ["Cy"])
    room.look("t1")
    seen = {"t1": room.seen["t1"]}
    ((_, table, payload),) = room.director.step(seen, room.answers.get, 1000.0)
    assert (table, payload) == ("t1", {"type": "leave", "seat": 1}) and room.finishes() == {"Cy": (4, 0)}
    refused = {"accepted": False, "reason": "seat 1 is taken by someone else"}
    for _ in range(3):
        assert room.director.step(seen, lambda cid: refused, 1000.0) == []
    assert room.director.summary(seen, 1000.0)["refused"] == ["t1: drop Cy: seat 1 is taken by someone else"]


def test_a_new_journal_is_a_new_session_read_from_its_first_hand() -> None:
    """The table's journal was replaced (its state names another session, 1 final hand): the cursor starts
    that session at seq 1 and hand 0, so its hand 1 (Cy out with 0 of his 5000) is read, not skipped as
    older than the old session's hand 7. A view without ``starting_stacks`` (an older console) is not read:
    its record will be."""
    phh = 'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [50, 100]\nmin_bet = 100\n' \
          'starting_stacks = [5000, 5000]\nactions = []\nplayers = ["Cy", "Ann"]\nfinishing_stacks = [0, 10000]\n'
    stored = {("t1", "new", 1): (1, phh)}
    cursor = {"session": "old", "seq": 6, "hand": 7}
    view = {"session": "new", "hands": 1, "hand": 2, "in_hand": False, "seats": {}}
    hand = next_hand(cursor, "t1", view, lambda t, s, q: stored.get((t, s, q)))
    assert hand == HandOver(1, ("Cy",), {"Cy": 5000, "Ann": 5000})
    assert cursor == {"session": "new", "seq": 1, "hand": 1}
    assert next_hand(cursor, "t1", view, lambda t, s, q: stored.get((t, s, q))) is None     # hand 2: no stacks
    assert cursor == {"session": "new", "seq": 1, "hand": 1}


def test_trn4_an_undo_after_the_room_read_the_hand_is_on_the_page_when_its_record_comes(tmp_path: Path) -> None:
    """A hand is final once the table accepts an input after it (engine/events.py): the room's ``leave``
    would make it so, but the dealer's UNDO lands first. Hand 1: Cy (seat 1) all in, Bob's aces call; the
    room reads it from the view: Cy 4th (0), and takes him off (``leave``). Before that leave lands the dealer
    UNDOes the hand back to before Cy's all-in (the leave is then refused: Cy is in the hand), and Cy folds
    instead: he has chips again. When hand 2 starts, hand 1's record busts nobody: the room page says so (a
    fault is never hidden), once, with the instruction, after the refused drop."""
    room = BooksRoom(tmp_path, settings(["t1"]), PLAYERS)
    t1 = room.tables["t1"]
    play(t1, ["Cy"])
    room.look("t1")
    commands = room.director.step(room.seen, room.answers.get, NOW, lambda t, s, q: room.stored.get((t, s, q)))
    assert [p["type"] for _, _, p in commands] == ["leave"] and room.finishes() == {"Cy": (4, 0)}
    while (last := t1.table.last_input()) != {"type": "act", "seat": 1, "action": "all_in"}:
        assert last is not None and t1.submit({"type": "undo"}).accepted
    assert t1.submit({"type": "undo"}).accepted
    [(cid, _, leave)] = commands
    refused = t1.submit(leave)
    assert (refused.accepted, refused.reason) == (False, "seat 1 is in the hand: fold first")
    room.answers[cid] = {"accepted": False, "reason": refused.reason}
    assert t1.submit({"type": "act", "seat": 1, "action": "fold"}).accepted
    while not t1.table.between_hands:                # Bob (small blind) folds to Ann's big blind
        seat = t1.table.expectation().seat
        assert t1.submit({"type": "act", "seat": seat, "action": "fold"}).accepted
    assert room.seats("t1")[1] == ("Cy", 5000)
    play(t1, [], walk=True)                          # hand 2 starts: hand 1 is final
    room.look("t1")
    room.step()
    said = ["t1: drop Cy: seat 1 is in the hand: fold first",
            "t1: hand: TRN-4: hand #1 was changed at the table (UNDO) after the room read it: it busts nobody, not "
            "Cy: the places need the floor's correction"]
    assert room.director.summary(room.seen, 1000.0)["refused"] == said
    room.step()
    assert room.director.summary(room.seen, 1000.0)["refused"] == said


def test_trn4_a_lost_hand_record_is_skipped_with_a_fault_not_waited_for_forever(tmp_path: Path) -> None:
    """The room was down while t1 played hands 1 and 2 (Cy busts in 1, Ann in 2), longer than the table's
    journal keeps: hand 1's record is lost (the store answers ``LOST``). The director does not wait for it
    (as it does for a record the table still has, above): it skips it, the page says so once with the
    instruction, and hand 2 is read from the view: Ann, the only bust it knows, 4th of 4 (0). Cy's bust is
    in the lost record: the floor must correct the places."""
    room = BooksRoom(tmp_path, settings(["t1"]), PLAYERS)
    two_busts(room, False, False)
    room.look("t1", store=False)
    assert room.seen["t1"]["hands"] == 1 and not room.stored
    session = room.final["t1"].session

    def hands(table: str, journal: str, seq: int) -> tuple[int, str] | Lost | None:
        return LOST if (table, journal, seq) == ("t1", session, 1) else room.stored.get((table, journal, seq))

    sent = room.director.step(room.seen, room.answers.get, NOW, hands)
    assert [(p["type"], p["seat"]) for _, _, p in sent] == [("leave", 4)]               # Ann leaves seat 4
    assert room.finishes() == {"Ann": (4, 0)}
    summary = room.director.summary(room.seen, NOW)
    assert summary["refused"] == ["t1: hand: TRN-4: hand record 1 is lost (older than the table's journal "
                                  "keeps): check the places"]
    assert summary["waiting"] == []
    assert room.director.state["done"]["t1"]["seq"] == 1
    room.director.step(room.seen, room.answers.get, NOW, hands)
    assert len(room.director.summary(room.seen, NOW)["refused"]) == 1
