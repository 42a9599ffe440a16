"""The director's controls (issue 20, dealerpi/room/director/controls.py): the clock paused, set and given or taken
time (TRN-1), an announcement, a player unregistered (TRN-9) or moved (TDA 11, RP-6, TDA 8), a place corrected
and undone (TRN-4); each applied once per id across a restart of the room, and refused with its reason. The
director is driven with the tables' views as the room sees them (no broker); the page's endpoint through
aiohttp's test server."""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from dealerpi.engine import Standings
from dealerpi.room.director.controls import ControlError, apply, shown
from dealerpi.room.director.hand_for_hand import round_over
from dealerpi.room.director.mtt import Director, new_state
from dealerpi.room.director.mtt_config import TournamentSettings, parse_tournament
from dealerpi.room.director.mtt_summary import standings_json
from dealerpi.room.service import RoomService
from dealerpi.room.settings import RoomSettings
from dealerpi.room.store import Store
from dealerpi.room.web import RoomPage
from dealerpi.wire.broker import MqttSettings

# steps: level 1 (1 min), a break (1 min), level 2 (2 min), level 3 (60 min, the last: no end)
LEVELS = [{"blinds": [50, 100], "minutes": 1}, {"break": True, "minutes": 1}, {"blinds": [100, 200], "minutes": 2},
          {"blinds": [200, 400], "ante": 50, "minutes": 60}]
RAW = {"tables": ["t1", "t2"], "seats": 6, "buy_in": 100, "starting_stack": 5000, "payouts": [70, 30],
       "levels": LEVELS}
IDS = itertools.count(1)                                                # the page's ids: each control its own
ACCEPT = lambda cid: {"accepted": True}                                  # noqa: E731


def settings(**extra: Any) -> TournamentSettings:
    parsed, errors = parse_tournament({**RAW, **extra}, "room.toml")
    assert parsed is not None, errors
    return parsed


def started(names: tuple[str, ...] = ("Ann", "Bob", "Cy", "Dee"), **extra: Any) -> Director:
    director = Director(settings(**extra), new_state("x"))
    for name in names:
        director.register(name, 0.0)
    director.start(7, 1000.0)
    return director


def control(director: Director, now: float, op: str, cid: str | None = None, **body: Any) -> str:
    return apply(director, {"id": cid or f"{op}-{next(IDS)}", "op": op, **body}, now, {})


def refused(director: Director, now: float, op: str, **body: Any) -> str:
    before = json.dumps(director.state, sort_keys=True)
    with pytest.raises(ControlError) as caught:
        control(director, now, op, **body)
    assert json.dumps(director.state, sort_keys=True) == before            # a refusal changes nothing
    return str(caught.value)


def test_trn1_the_clock_paused_stands_still_and_resumes_where_it_stopped() -> None:
    """Started at 1000: at 1030 level 1 has 30 s left; paused then, at 1100 it still has 30 s; resumed at
    1100, at 1110 it has 20 s and the break starts at 1130 (70 s paused). The break is 1 minute: the time to
    the next break is what is left of the level in force."""
    director = started()
    assert control(director, 1030.0, "pause") == "clock paused at step 1 (50/100), 0:30 left"
    assert director.level_at(1100.0) == (0, 30.0) and shown(director, 1100.0)["clock_paused"] is True
    assert refused(director, 1100.0, "pause") == "pause: the clock is paused already"
    assert control(director, 1100.0, "resume") == "clock running: step 1 (50/100), 0:30 left"
    assert director.level_at(1110.0) == (0, 20.0) and director.level_at(1130.0) == (1, 60.0)
    assert shown(director, 1110.0)["break_in"] == 20 and shown(director, 1110.0)["next"] == "Break"
    assert refused(director, 1110.0, "resume") == "resume: the clock is not paused"


def test_trn1_the_clock_set_to_a_level_and_the_time_left_in_it() -> None:
    """At 1010 the director sets step 3 (level 2, 100/200, 2 minutes) with 90 s left: at 1040, 60 s left;
    step 4 (the last) follows at 1100. The next level is 200/400 ante 50, no break ahead (None). Step 5 and
    121 s of a 2-minute step are refused with what is possible."""
    director = started()
    assert control(director, 1010.0, "clock", step=3, seconds=90) == "clock set: step 3 (100/200), 1:30 left"
    assert director.level_at(1040.0) == (2, 60.0) and director.level_at(1100.0) == (3, None)
    assert shown(director, 1040.0)["next"] == "Level 3 · 200/400 ante 50"
    assert shown(director, 1040.0)["break_in"] is None
    assert refused(director, 1040.0, "clock", step=5, seconds=10) == \
        "step: 1 to 4 (the schedule's steps, breaks counted), not 5"
    assert refused(director, 1040.0, "clock", step=3, seconds=121) == \
        "seconds: 1 to 120 (step 3 is 2 minutes), not 121"
    assert control(director, 1040.0, "clock", step=1, seconds=60) == "clock set: step 1 (50/100), 1:00 left"
    assert director.level_at(1100.0) == (1, 60.0)                      # back a level: the break 60 s later


def test_trn1_time_added_or_removed_stays_within_the_level_in_force() -> None:
    """At 1010 level 1 has 50 s of its 60: 10 s more makes 60 (its length); 1 s more is refused, and so is
    removing 60 (one second stays); 59 s removed leaves 1. The last level has no end: refused."""
    director = started()
    assert control(director, 1010.0, "time", seconds=10) == "added 10 s: step 1 (50/100), 1:00 left"
    assert director.level_at(1010.0) == (0, 60.0)
    words = "time: 1:00 left of 1 minutes: add at most 0 s, remove at most 59 s (another level: set the clock)"
    assert refused(director, 1010.0, "time", seconds=1) == words
    assert refused(director, 1010.0, "time", seconds=-60) == words
    assert control(director, 1010.0, "time", seconds=-59) == "removed 59 s: step 1 (50/100), 0:01 left"
    assert director.level_at(1010.5) == (0, 0.5)
    control(director, 1010.0, "clock", step=4, seconds=60)
    assert refused(director, 1010.0, "time", seconds=60) == "time: the last level has no end (TRN-1)"


def test_the_clock_controls_are_refused_before_the_start_and_during_hand_for_hand() -> None:
    """TRN-5 (TDA RP-8): during hand-for-hand the clock runs by rounds, at most 120 s a hand (the tables'
    own policy, the tournament preset's hand_for_hand_seconds)."""
    director = Director(settings(), new_state("x"))
    assert refused(director, 1000.0, "pause") == "pause: the tournament is not running (registering)"
    director = started()
    director.state["h4h"] = {"round": None, "busts": [], "rounds": 0, "since": None}
    assert director.cap == 120
    assert refused(director, 1000.0, "time", seconds=5) == \
        "time: not during hand-for-hand: the clock runs by rounds, at most 120 s a hand (TRN-5, TDA RP-8)"


def test_trn5_a_clock_paused_before_the_bubble_is_resumed_between_rounds_and_the_rounds_took_nothing() -> None:
    """Paused at 1030 (level 1, 30 s left). The bubble: a hand-for-hand round from 1040 to 1400 (360 s, of
    which a running clock would lose at most 120). During the round the clock cannot be resumed; after it,
    resumed at 1500: 30 s left still (the paused clock lost nothing to the round, and nothing twice)."""
    director = started()
    control(director, 1030.0, "pause")
    director.state["h4h"] = {"round": {"t1": 3, "t2": 5}, "busts": [], "rounds": 0, "since": 1040.0}
    assert refused(director, 1100.0, "resume") == \
        "resume: not during hand-for-hand: the clock runs by rounds, at most 120 s a hand (TRN-5, TDA RP-8)"
    held = {"in_hand": False, "paused": "hand-for-hand", "seats": {}}
    assert round_over(director, {"t1": {**held, "hand": 4}, "t2": {**held, "hand": 6}}, 1400.0)
    assert director.state["h4h"]["since"] is None                       # between rounds (4 left, 2 paid)
    assert control(director, 1500.0, "resume") == "clock running: step 1 (50/100), 0:30 left"
    assert director.level_at(1500.0) == (0, 30.0)


def test_a_control_is_applied_once_per_id_across_a_restart() -> None:
    """The page's retry, or the same body after the room restarted from its stored state: answered as the
    first time, not applied again (10 s added once, not twice). An unknown op names the ops."""
    director = started()
    assert control(director, 1010.0, "time", "c1", seconds=10) == "added 10 s: step 1 (50/100), 1:00 left"
    again = Director(director.settings, json.loads(json.dumps(director.state)))
    assert control(again, 1020.0, "time", "c1", seconds=10) == "added 10 s: step 1 (50/100), 1:00 left"
    assert again.level_at(1020.0) == (0, 50.0)
    assert refused(again, 1020.0, "rewind") == "op: one of pause, resume, clock, time, announce, move, " \
        "unregister, place, undo"


def test_an_announcement_until_cleared() -> None:
    director = started()
    assert control(director, 1000.0, "announce", text=" Last hand before the break ") == \
        "announced: Last hand before the break"
    assert shown(director, 1000.0)["announcement"] == "Last hand before the break"
    assert refused(director, 1000.0, "announce", text="x" * 141) == \
        "text: at most 140 printable characters (empty: clear it)"
    assert control(director, 1000.0, "announce", text="") == "announcement cleared"
    assert shown(director, 1000.0)["announcement"] is None


def test_trn9_unregister_before_he_has_played_with_the_refund() -> None:
    """Nine registered, one place paid (100 %), buy-in 100. Before the start Ivy leaves the list (refund
    100). Eight start, four a table. Before his table's first hand Ann is unregistered: refund 100, the pool
    800 - 100 = 700 for a field of 7, and he leaves his seat once the table is held (a ``leave``: his chips
    go with him). Once his table has dealt a hand Bob's chips stay in play: refused. Late registration open
    (level 1): Zed is an alternate, not entered until seated: unregistered with the refund."""
    names = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")
    director = Director(settings(late_entry_levels=1, payouts=[100]), new_state("x"))
    for name in names:
        director.register(name, 0.0)
    assert control(director, 0.0, "unregister", player="Ivy") == "Ivy unregistered: refund the buy-in, 100"
    director.start(7, 1000.0)
    drawn = director.state["events"][0]["seats"]
    views = {t: seats_of({seat: p for p, (tt, seat) in drawn.items() if tt == t}, 0, (1, 2, 3)) for t in ("t1", "t2")}
    for _ in range(3):                                                   # the start: table, sit, button
        assert director.step(views, ACCEPT, 1000.0)
    assert refused(director, 1000.0, "unregister", player="Ann") == \
        "Ann's table is not online: his seat is not known (try again when it is)"      # no views given
    (table, seat), other = drawn["Ann"], drawn["Bob"][0]
    assert apply(director, {"id": "u1", "op": "unregister", "player": "Ann"}, 1000.0, views) == \
        f"Ann unregistered: refund the buy-in, 100; he leaves {table} seat {seat} before its first hand"
    assert "Ann" not in director.state["players"]
    assert (director.state["standings"]["pool"], director.state["standings"]["remaining"]) == (700, 7)
    assert sent(director, views) == [(table, {"type": "pause", "reason": "the room moves players"})]
    views[table]["paused"] = "the room moves players"
    assert sent(director, views) == [(table, {"type": "leave", "seat": seat})]
    views[other]["hand"] = 1
    with pytest.raises(ControlError, match=r"^Bob has played: his chips stay in play"):
        apply(director, {"id": "u2", "op": "unregister", "player": "Bob"}, 1000.0, views)
    director.register("Zed", 1010.0)
    assert control(director, 1010.0, "unregister", player="Zed") == "Zed unregistered: refund the buy-in, 100"
    assert director.state["alternates"] == []
    assert refused(director, 1010.0, "unregister", player="Zed") == "Zed is not registered"


def test_trn4_a_place_given_wrongly_is_corrected_with_its_prize_and_undone() -> None:
    """Four players, 400 in the pool, 70/30: Dee 4th, Cy 3rd, Bob 2nd (120), Ann 1st (280). Cy should have
    been 2nd: Cy 2nd wins 120, Bob 3rd 0. Undo: Bob 2nd 120 again, Cy 3rd 0; a second undo has nothing to
    take back. Refused: a place nobody holds, a player's own place, a player with no place."""
    director = started()
    standings = Standings(400, 4, (70, 30)).bust(["Dee"]).bust(["Cy"]).bust(["Bob"]).win("Ann")
    director.state.update(phase="finished", standings=standings_json(standings))
    assert control(director, 2000.0, "place", player="Cy", place=2) == "Cy 2, Bob 3: Cy wins 120, Bob wins 0"
    assert sorted(director.state["standings"]["finishes"]) == [["Ann", 1, 280], ["Bob", 3, 0], ["Cy", 2, 120],
                                                               ["Dee", 4, 0]]
    assert control(director, 2001.0, "undo") == "undone: Cy 2, Bob 3; now Cy wins 0, Bob wins 120"
    assert sorted(director.state["standings"]["finishes"]) == [["Ann", 1, 280], ["Bob", 2, 120], ["Cy", 3, 0],
                                                               ["Dee", 4, 0]]
    assert refused(director, 2002.0, "undo") == "undo: no place correction to take back"
    assert refused(director, 2002.0, "place", player="Cy", place=7) == \
        "place 7 is not given: the places given are 1, 2, 3, 4"
    assert refused(director, 2002.0, "place", player="Cy", place=3) == "Cy is 3 already"
    assert shown(director, 2002.0)["winner"] == "Ann"


def seats_of(players: dict[int, str], hand: int, plan: tuple[int, int, int], **extra: Any) -> dict[str, Any]:
    """A 6-seat table's view between hands: ``players`` with 5000 each, the next hand's button, SB, BB."""
    seats: dict[str, dict[str, Any]] = {str(s): {"player": None, "stack": 0} for s in range(1, 7)}
    seats.update({str(s): {"player": p, "stack": 5000} for s, p in players.items()})
    button, sb, bb = plan
    return {"hand": hand, "in_hand": False, "paused": None, "pausing": None, "last_blinds": [None, None],
            "starting_stacks": [], "seats": seats, "blinds": [50, 100],
            "next_hand": {"button": button, "sb": sb, "bb": bb}, **extra}


def sent(director: Director, views: dict[str, Any], now: float = 1000.0) -> list[tuple[str, dict[str, Any]]]:
    return [(t, p) for _, t, p in director.step(views, ACCEPT, now)]


def test_rp6_tda8_a_move_waits_for_both_tables_between_hands_and_is_checked_again_then() -> None:
    """Nine players: t1 Ann..Eve in seats 1-5 (in its hand 2), t2 Fay..Ivy in seats 1-4 (after its hand 1;
    next hand: button 2, small blind 3, big blind 4). The director moves Bob (t1 seat 2) to t2 seat 5: not
    at once (RP-6): both tables are asked to pause after their hands (t1 after 2, t2 after 1), and no
    ``leave`` nor ``sit`` goes while t1's hand is on. Held, t2's next hand is button 4, SB 5, BB 1: seat 5
    is now the small blind (TDA 8): the move is refused and says so, and both tables are resumed. Asked
    again for seat 6 (after the big blind): held again, Bob leaves t1 seat 2 and sits at t2 seat 6 with his
    5000. Refused at once: a seat taken, a move leaving the tables 3 and 6 (more than one apart), a seat
    change at one table (the table's own: its console's ``move`` input)."""
    names = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")
    director = started(names)
    t1 = {**seats_of(dict(enumerate(names[:5], 1)), 2, (1, 2, 3)), "in_hand": True}
    t2 = seats_of(dict(enumerate(names[5:], 1)), 1, (2, 3, 4))
    for _ in range(3):                                                   # the start: table, sit, button
        assert director.step({"t1": t1, "t2": t2}, ACCEPT, 1000.0)
    views = {"t1": t1, "t2": t2}
    assert apply(director, {"id": "m1", "op": "move", "player": "Bob", "table": "t2", "seat": 5}, 1000.0,
                 views) == "Bob: t1 seat 2 to t2 seat 5 when both tables are between hands (RP-6)"
    with pytest.raises(ControlError, match=r"^t2 seat 1 is taken by Fay$"):
        apply(director, {"id": "m2", "op": "move", "player": "Cy", "table": "t2", "seat": 1}, 1000.0, views)
    assert sent(director, views) == [("t1", {"type": "pause", "reason": "the room moves players", "after_hand": 2}),
                                     ("t2", {"type": "pause", "reason": "the room moves players", "after_hand": 1})]
    t1["pausing"], t2["paused"] = {"reason": "the room moves players", "after_hand": 2}, "the room moves players"
    assert sent(director, views) == []                                  # t1's hand 2 is played out
    t1.update(in_hand=False, paused="the room moves players", pausing=None)
    t2["next_hand"] = {"button": 4, "sb": 5, "bb": 1}
    assert sorted(sent(director, views)) == [("t1", {"type": "resume"}), ("t2", {"type": "resume"})]
    assert director.summary(views, 1000.0)["refused"] == [
        "t2: move Bob: TDA 8: t2 seat 5 is the small blind or between it and the button"]
    assert shown(director, 1000.0)["controls"][-1]["result"] == \
        "refused: TDA 8: t2 seat 5 is the small blind or between it and the button"
    t1["paused"] = t2["paused"] = None
    apply(director, {"id": "m3", "op": "move", "player": "Bob", "table": "t2", "seat": 6}, 1000.0, views)
    assert shown(director, 1000.0)["moves"] == ["Bob: t1 seat 2 to t2 seat 6, when both tables are between hands"]
    assert sorted(sent(director, views)) == [
        ("t1", {"type": "pause", "reason": "the room moves players", "after_hand": 2}),
        ("t2", {"type": "pause", "reason": "the room moves players", "after_hand": 1})]
    t1["paused"] = t2["paused"] = "the room moves players"
    assert sent(director, views) == [("t1", {"type": "leave", "seat": 2})]
    t1["seats"]["2"] = {"player": None, "stack": 0}
    assert sent(director, views) == [("t2", {"type": "sit", "seat": 6, "player": "Bob", "stack": 5000})]
    t2["seats"]["6"] = {"player": "Bob", "stack": 5000}
    assert shown(director, 1000.0)["controls"][-1]["result"] == "moved"
    assert sorted(sent(director, views)) == [("t1", {"type": "resume"}), ("t2", {"type": "resume"})]
    t1["paused"] = t2["paused"] = None
    with pytest.raises(ControlError, match=r"^TDA 11: the tables would be t1 3, t2 6: more than one apart$"):
        apply(director, {"id": "m4", "op": "move", "player": "Cy", "table": "t2", "seat": 5}, 1000.0, views)
    with pytest.raises(ControlError, match=r"^Cy sits at t1 already: a seat change at one table is the table's"):
        apply(director, {"id": "m5", "op": "move", "player": "Cy", "table": "t1", "seat": 6}, 1000.0, views)


def test_tda11_a_balancing_move_is_the_player_due_the_big_blind_to_the_worst_position() -> None:
    """Ten players: t1 six (seats 1-6; next hand BB seat 4, Dee), t2 four (seats 1-4; next hand button 2, SB
    3, BB 4). A move from t1 to t2 balances them (6 and 4): TDA 11 says who and where. The director's move
    of Ann to t2 seat 6 is refused when both are held: Dee is due the big blind. (The room's own balancing
    then moves Dee.)"""
    names = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
    director = started(names)
    t1 = seats_of(dict(enumerate(names[:6], 1)), 1, (2, 3, 4), paused="the room moves players")
    t2 = seats_of(dict(enumerate(names[6:], 1)), 1, (2, 3, 4), paused="the room moves players")
    views = {"t1": t1, "t2": t2}
    for _ in range(3):
        assert director.step(views, ACCEPT, 1000.0)
    apply(director, {"id": "b1", "op": "move", "player": "Ann", "table": "t2", "seat": 6}, 1000.0, views)
    director.step(views, ACCEPT, 1000.0)
    assert director.summary(views, 1000.0)["refused"] == [
        "t2: move Ann: TDA 11: the player due the big blind moves to balance: Dee, not Ann"]


def test_the_controls_are_the_hosts_and_stored_by_the_room_across_a_restart(tmp_path: Path) -> None:
    """POST /director: a board's page is refused (403, as the desk's); the host's pause is stored with the
    director's state: a room started again from its database reads the clock paused, and the same id
    again is not applied twice (its answer as before); a refusal is a 400 with the reason."""
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "tokens.json").write_text(json.dumps({"host": "h" * 32, "board": "b" * 32}))
    room = RoomSettings(tmp_path / "room.sqlite", "127.0.0.1:0", tmp_path / "state",
                        MqttSettings("room", "127.0.0.1", 1, "dealerpi", tmp_path / "pw"), (), settings())
    now = [1000.0]

    async def run() -> None:
        service = RoomService(room, Store(room.database), clock=lambda: now[0], seed=lambda: 7)
        for name in ("Ann", "Bob"):
            service.register(name)
        await service.start_tournament()
        page = RoomPage(service, {"host": "h" * 32, "board": "b" * 32}, token_required=True)
        async with TestClient(TestServer(page.app())) as client:
            origin = str(client.make_url("")).rstrip("/")
            pause = {"id": "p1", "op": "pause"}
            host_cookie, board_cookie = "dealerpi_room=" + "h" * 32, "dealerpi_room=" + "b" * 32
            board = await client.post("/director", json=pause, headers={"Origin": origin, "Cookie": board_cookie})
            assert (board.status, await board.text()) == (403, "403: the director's controls are the host's\n")
            foreign = await client.post("/director", json=pause, headers={"Origin": "http://evil.example",
                                                                          "Cookie": host_cookie})
            assert foreign.status == 403                          # another site's page: not the host's Origin
            host = await client.post("/director", json=pause, headers={"Origin": origin, "Cookie": host_cookie})
            assert (host.status, await host.json()) == (200, {"answer": "clock paused at step 1 (50/100), 1:00 left"})
            now[0] = 1030.0
            twice = await client.post("/director", json={"id": "p2", "op": "pause"},
                                      headers={"Origin": origin, "Cookie": host_cookie})
            assert (twice.status, await twice.text()) == (400, "400: pause: the clock is paused already\n")
            assert host.headers["X-Frame-Options"] == "DENY"
        service.store.close()
        again = RoomService(room, Store(room.database), clock=lambda: now[0])
        assert again.director is not None and again.director.level_at(1030.0) == (0, 60.0)
        assert await again.control({"id": "p1", "op": "pause"}) == "clock paused at step 1 (50/100), 1:00 left"
        tournament = again.tournament()
        assert tournament is not None and tournament["clock_paused"] and tournament["seconds_left"] == 60
        again.store.close()

    asyncio.run(run())


def test_the_announcement_goes_to_every_table_and_again_to_one_that_lost_it() -> None:
    """Two tables of four between hands. Announced: one ``announce`` command a table; once their views show it,
    nothing more. t1's daemon restarts (the announcement is display only: its view no longer has it): sent
    to t1 again, not to t2. Cleared: an empty text to both. A table that refuses it (an old console) is not
    asked again for the same text, and the refusal is on the page."""
    names = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")    # 8: more than one 6-seat table
    director = started(names)
    t1 = seats_of(dict(enumerate(names[:4], 1)), 1, (1, 2, 3))
    t2 = seats_of(dict(enumerate(names[4:], 1)), 1, (1, 2, 3))
    views = {"t1": t1, "t2": t2}
    for _ in range(3):                                                   # the start: table, sit, button
        assert director.step(views, ACCEPT, 1000.0)
    assert sent(director, views) == []
    control(director, 1000.0, "announce", text="Break in 5 minutes")
    assert sent(director, views) == [("t1", {"type": "announce", "text": "Break in 5 minutes"}),
                                     ("t2", {"type": "announce", "text": "Break in 5 minutes"})]
    t1["announcement"] = t2["announcement"] = "Break in 5 minutes"
    assert sent(director, views) == []
    t1["announcement"] = None                                            # t1's daemon restarted
    assert sent(director, views) == [("t1", {"type": "announce", "text": "Break in 5 minutes"})]
    t1["announcement"] = "Break in 5 minutes"
    assert sent(director, views) == []
    control(director, 1000.0, "announce", text="")
    assert sent(director, views) == [("t1", {"type": "announce", "text": ""}), ("t2", {"type": "announce", "text": ""})]
    t1["announcement"] = t2["announcement"] = None
    assert sent(director, views) == []
    control(director, 1000.0, "announce", text="Redraw at 9")
    ((cid, _, _), (_, _, _)) = director.step(views, lambda c: None, 1000.0)
    refusal = {"accepted": False, "reason": "type 'announce' is not a room command"}
    director.step(views, lambda c: refusal if c == cid else {"accepted": True}, 1000.0)
    t2["announcement"] = "Redraw at 9"
    assert sent(director, views) == []
    assert director.summary(views, 1000.0)["refused"][-1] == \
        "t1: announce: type 'announce' is not a room command"
