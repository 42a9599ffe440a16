"""The room's tournament without a broker: ``[tournament]`` errors, the one level clock (TRN-1, no drift), the
broken table's draw (TRN-9), a restarted director deciding the same commands under the same ids, and the room
page's tournament desk and clock."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from mqtt_kit import free_port

from dealerpi.room import desk
from dealerpi.room.director.mtt import Director, TournamentError, new_state
from dealerpi.room.director.mtt_config import TournamentSettings, parse_tournament
from dealerpi.room.director.seating import two_step_draw
from dealerpi.room.service import RoomService
from dealerpi.room.settings import RoomConfigError, RoomSettings, load_room, parse_room
from dealerpi.room.store import Store
from dealerpi.room.web import RoomPage
from dealerpi.webkit.pairing import load_tokens
from dealerpi.wire.broker import MqttSettings

LEVELS = [{"blinds": [50, 100], "minutes": 1}, {"break": True, "minutes": 1}, {"blinds": [100, 200], "minutes": 2},
          {"blinds": [200, 400], "ante": 50, "minutes": 60}]
RAW = {"tables": ["t1", "t2"], "seats": 6, "buy_in": 100, "starting_stack": 5000, "payouts": [70, 30],
       "levels": LEVELS}


def settings() -> TournamentSettings:
    parsed, errors = parse_tournament(RAW, "room.toml")
    assert parsed is not None, errors
    return parsed


def test_tournament_errors_name_the_file_and_the_key(tmp_path: Path) -> None:
    """Unknown keys, tables, the amounts, and the first thing the tables' own check refuses (seats 2-10)."""
    source = tmp_path / "room.toml"
    raw = {**RAW, "tables": ["t1", "t1"], "buy_in": 0, "starting_stack": "lots", "seats": 11, "extra": 1}
    with pytest.raises(RoomConfigError) as caught:
        parse_room({"tournament": raw}, source)
    assert caught.value.errors == [
        f"{source}: tournament.extra: unknown key (expected one of: tables, seats, buy_in, starting_stack, "
        "payouts, game, levels, late_entry_levels, reentries, rebuys, rebuy_levels, addon_chips, addon_price, "
        "bounty, colour_ups)",
        f"{source}: tournament.tables: a list of distinct table names, not ['t1', 't1']",
        f"{source}: tournament.buy_in: a positive whole number, not 0",
        f"{source}: tournament.starting_stack: a positive whole number, not 'lots'",
        f'{source}: tournament.seats: table: "seats" must be 2 to 10, not 11']
    _, errors = parse_tournament({**RAW, "levels": [{"blinds": [100, 50], "minutes": 5}]}, source)
    assert errors == [f'{source}: tournament.levels[0]: table: "levels": step 1: blinds 100/50 are not possible '
                      "(TRN-1)"]
    _, errors = parse_tournament({**RAW, "late_entry_levels": -1}, source)
    assert errors == [f'{source}: tournament.late_entry_levels: table: "late_entry_levels" must be a whole amount '
                      "of 0 or more, not -1"]
    _, errors = parse_tournament({**RAW, "levels": []}, source)
    assert errors == [f"{source}: tournament.levels: the level schedule is missing (TRN-1)"]


@pytest.mark.parametrize(("elapsed", "step", "left"), [
    (0, 0, 60), (59.5, 0, 0.5), (60, 1, 60), (120, 2, 120), (239, 2, 1), (240, 3, None), (10**6, 3, None)])
def test_trn1_one_clock_step_k_starts_at_the_sum_of_the_minutes_before_it(elapsed: float, step: int,
                                                                           left: float | None) -> None:
    """Steps of 1, 1 (break), 2 and 60 minutes start at 0, 60, 120 and 240 s after the start: at 59.5 s
    level 1 has 0.5 s left; at 239 s level 2 (the third step) has 240 - 239 = 1 s; the last never ends."""
    director = Director(settings(), {**new_state("x"), "started": 1000.0})
    assert director.level_at(1000.0 + elapsed) == (step, left)


def test_r10b_a_broken_tables_players_by_a_two_step_draw_fill_the_open_seats_evenly() -> None:
    """TDA 10 (R10-B): five players into t1 (5 seated, open 6 and 7) and t2 (4 seated, open 5, 6, 7): a table
    drawn for each, then a seat at it. The tables stay even: t2 gets one (5/5), then the two share the rest,
    7 and 7; each open seat once, whatever the draw. Random: over 200 draws each player lands at each table
    and on every open seat (a fixed order would not)."""
    places: dict[str, set[tuple[str, int]]] = {p: set() for p in "ABCDE"}
    for seed in range(200):
        drawn = two_step_draw(["A", "B", "C", "D", "E"], {"t1": [6, 7], "t2": [5, 6, 7]}, {"t1": 5, "t2": 4},
                              random.Random(seed))
        assert sorted(drawn.values()) == [("t1", 6), ("t1", 7), ("t2", 5), ("t2", 6), ("t2", 7)]
        for player, place in drawn.items():
            places[player].add(place)
    assert all(len(seen) == 5 for seen in places.values())
    counts = [sorted(table for table, _ in two_step_draw(list("ABC"), {"t1": [5, 6], "t2": [5, 6]},
                                                         {"t1": 4, "t2": 4}, random.Random(seed)).values())
              for seed in range(40)]
    assert {tuple(c) for c in counts} == {("t1", "t1", "t2"), ("t1", "t2", "t2")}     # the odd one drawn
    with pytest.raises(ValueError, match="6 players do not fit in the open seats"):
        two_step_draw(list("ABCDEF"), {"t1": [6, 7], "t2": [5, 6, 7]}, {}, random.Random(1))


def view(players: dict[int, tuple[str, int]], hand: int = 0, paused: str | None = None) -> dict[str, Any]:
    seats: dict[str, dict[str, Any]] = {str(s): {"player": None, "stack": 0} for s in range(1, 7)}
    seats.update({str(s): {"player": p, "stack": chips} for s, (p, chips) in players.items()})
    return {"hand": hand, "in_hand": False, "paused": paused, "last_blinds": [None, None], "starting_stacks": [],
            "seats": seats,
            "blinds": [50, 100]}


def test_a_restarted_director_decides_the_same_commands_under_the_same_ids() -> None:
    """The room stores the director's state (JSON) with each batch; a room restarted from it, shown the same
    tables, sends the same batch with the same ids, which the tables' rid check then answers ``duplicate``.
    Four players, seed 7: the first batch is the level-1 ``table`` input to each table."""
    director = Director(settings(), new_state("x"))
    for name in ("Ann", "Bob", "Cy", "Dee"):
        director.register(name, 0.0)
    director.start(7, 1000.0)
    stored = json.loads(json.dumps(director.state))
    views = {"t1": view({}), "t2": view({})}
    first = director.step(views, lambda cid: None, 1000.0)
    again = Director(settings(), stored).step(views, lambda cid: None, 1000.0)
    assert first == again
    assert [(table, payload["type"], payload["blinds"]) for _, table, payload in first] == \
        [("t1", "table", [50, 100]), ("t2", "table", [50, 100])]
    assert director.step(views, lambda cid: None, 1000.0) == []          # nothing more until answered
    sits = director.step(views, lambda cid: {"accepted": True}, 1000.0)
    assert sorted(p["player"] for _, _, p in sits) == ["Ann", "Bob", "Cy", "Dee"]
    assert {p["stack"] for _, _, p in sits} == {5000}
    assert sorted(table for table, _ in director.state["events"][0]["seats"].values()) == ["t1", "t1", "t2", "t2"]


def test_trn9_late_registration_seats_an_alternate_until_the_end_of_level_n() -> None:
    """``late_entry_levels = 1``: level 1 is 1000-1060, the break after it 1060-1120, level 2 from 1120.
    Eight entrants at 100. At 1030 Eve registers: an alternate, drawn into an open seat of the emptiest table
    (4 and 4 players: the first named, t1, seats 5 or 6), held for it (RP-6: a seat changes between hands),
    entered when her ``sit`` (5000, the starting stack) is taken, and t1 resumed: 9 entrants, 900 in the
    pool, 70/30 = 630 and 270. In the break (1090) Fay registers, but both
    tables are full; at 1121 level 2 has begun, late registration is over: Fay is not entered, the page says
    to refund her, and Gus is refused."""
    late = replace(settings(), late_entry_levels=1)
    director = Director(late, new_state("x"))
    names = ["Ann", "Bob", "Cy", "Dee", "Hal", "Ivy", "Jo", "Kim"]
    for name in names:
        director.register(name, 0.0)
    director.start(7, 1000.0)
    views = {"t1": view({s: (p, 5000) for s, p in enumerate(names[:4], 1)}),
             "t2": view({s: (p, 5000) for s, p in enumerate(names[4:], 1)})}
    accept = lambda cid: {"accepted": True}                              # noqa: E731
    for _ in range(3):                                                   # the start: table, sit, button
        assert director.step(views, accept, 1000.0)
    assert director.step(views, accept, 1000.0) == []
    director.register("Eve", 1030.0)
    assert director.summary(views, 1030.0)["alternates"] == ["Eve"]
    assert [(t, p) for _, t, p in director.step(views, accept, 1030.0)] == \
        [("t1", {"type": "pause", "reason": "the room moves players"})]
    views["t1"]["paused"] = "the room moves players"
    ((_, table, payload),) = director.step(views, accept, 1030.0)
    assert table == "t1" and payload["seat"] in (5, 6)
    assert payload == {"type": "sit", "seat": payload["seat"], "player": "Eve", "stack": 5000}
    views["t1"]["seats"][str(payload["seat"])] = {"player": "Eve", "stack": 5000}
    assert [(t, p) for _, t, p in director.step(views, accept, 1030.0)] == [("t1", {"type": "resume"})]
    views["t1"]["paused"] = None
    assert director.step(views, accept, 1030.0) == []
    shown = director.summary(views, 1030.0)
    assert (shown["registered"], shown["alternates"], shown["entrants"], shown["remaining"], shown["pool"],
            shown["prizes"], shown["registration_open"]) == \
        ([*names, "Eve"], [], 9, 9, 900, [630, 270], True)
    for name in ("t1", "t2"):                                            # both tables full
        for seat, v in views[name]["seats"].items():
            if not v["player"]:
                views[name]["seats"][seat] = {"player": f"{name}-{seat}", "stack": 5000}
    director.register("Fay", 1090.0)                                     # the break after level 1: still open
    while sent := director.step(views, accept, 1090.0):                 # the break's pauses; no seat for Fay
        views.update({t: {**views[t], "paused": p["reason"]} for _, t, p in sent if p["type"] == "pause"})
    assert director.summary(views, 1090.0)["alternates"] == ["Fay"]
    with pytest.raises(TournamentError, match=r"^TRN-9: late registration closed at the end of level 1$"):
        director.register("Gus", 1121.0)
    director.step(views, accept, 1121.0)
    shown = director.summary(views, 1121.0)
    assert (shown["alternates"], shown["entrants"], shown["registration_open"]) == ([], 9, False)
    assert shown["refused"] == ["room: late registration Fay: TRN-9: late registration ended before a seat "
                                "opened: not entered, refund the buy-in"]


def test_the_room_page_registers_starts_and_shows_the_clock_and_the_field(tmp_path: Path) -> None:
    """The desk: register Ann and Bob (Ann twice is refused with the reason), start. The summary: level 1,
    50/100, 60 - 20 = 40 s left at +20 s; 2 players left of 2; average 2 x 5000 / 2 = 5000; pool 2 x 100 =
    200; 2 places paid, 70 % and 30 %: 140 and 60."""
    now = [1000.0]
    room = RoomSettings(tmp_path / "room.sqlite", "127.0.0.1:0", tmp_path / "state",
                        MqttSettings("room", "127.0.0.1", 1, "dealerpi", tmp_path / "pw"), (), settings())
    service = RoomService(room, Store(room.database), clock=lambda: now[0])

    async def body() -> None:
        client: TestClient[Any, Any] = TestClient(TestServer(RoomPage(service, {}, False).app()))
        await client.start_server()
        try:
            origin = {"Origin": f"http://{client.host}:{client.port}"}
            for name in ("Ann", "Bob"):
                assert (await client.post("/tournament", json={"op": "register", "player": name},
                                          headers=origin)).status == 200
            twice = await client.post("/tournament", json={"op": "register", "player": "Ann"}, headers=origin)
            assert (twice.status, await twice.text()) == (400, "400: Ann is registered already\n")
            assert (await client.post("/tournament", json={"op": "start"}, headers=origin)).status == 200
            now[0] = 1020.0
            summary = (await (await client.get("/summary.json")).json())["tournament"]
            assert {k: summary[k] for k in ("phase", "level", "blinds", "seconds_left", "remaining", "entrants",
                                            "average", "pool", "paid", "prizes", "hand_for_hand")} == {
                "phase": "running", "level": 1, "blinds": [50, 100], "seconds_left": 40, "remaining": 2,
                "entrants": 2, "average": 5000, "pool": 200, "paid": 2, "prizes": [140, 60],
                "hand_for_hand": False}
            late = await client.post("/tournament", json={"op": "register", "player": "Cy"}, headers=origin)
            assert (late.status, await late.text()) == (400, "400: registration is closed: the tournament has "
                                                              "started\n")
        finally:
            await client.close()

    asyncio.run(body())
    again = Store(room.database)                                         # the state is in the database
    stored = again.tournament()
    assert stored is not None and stored["players"] == ["Ann", "Bob"] and stored["seed"] is not None
    again.close()
    service.store.close()


def test_the_desk_registers_and_starts_through_the_running_rooms_page(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """``dealerpi room desk``: the page needs the host's token (token_required), which the desk reads from the
    room's state folder. Ann and Bob registered, Ann again refused with the page's reason, start; then the
    desk's view: level 1 50/100 with 1:00 left (the clock has not moved), 2 of 2 left, average 5000, pool
    200, 2 paid. A room that is not running is named with the command that starts it."""
    port = free_port()
    config = tmp_path / "room.toml"
    levels = ", ".join(f"{{blinds = [{a}, {b}], minutes = {m}}}" for a, b, m in ((50, 100, 1), (100, 200, 60)))
    config.write_text(f'[room]\nlisten = "127.0.0.1:{port}"\nstate = "state"\n[mqtt]\nport = 1\n'
                      f'[tournament]\ntables = ["t1", "t2"]\nseats = 6\nbuy_in = 100\nstarting_stack = 5000\n'
                      f"payouts = [70, 30]\nlevels = [{levels}]\n")
    room = load_room(config)
    service = RoomService(room, Store(room.database), clock=lambda: 1000.0)
    tokens = load_tokens(room.state)

    async def body() -> list[int]:
        runner = web.AppRunner(RoomPage(service, tokens, True).app())
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        try:
            return [await asyncio.to_thread(desk.main, ["--config", str(config), *args])
                    for args in (["register", "Ann", "Bob"], ["register", "Ann"], ["start"])]
        finally:
            await runner.cleanup()

    assert asyncio.run(body()) == [0, 1, 0]
    out, err = capsys.readouterr()
    assert out.count("registered Ann") == 1 and "registered Bob" in out
    assert "running: Level 1 50/100, 1:00 left; 2 of 2 left, average 5000, pool 200, 2 paid" in out
    assert err == "dealerpi room desk: 400: Ann is registered already\n"
    assert desk.main(["--config", str(config), "show"]) == 1
    assert f"the room does not answer at http://127.0.0.1:{port}" in capsys.readouterr().err
    service.store.close()


def test_a_moved_player_whose_sit_is_refused_keeps_his_chips_and_is_seated_again() -> None:
    """A fault is never hidden and no chip is lost: Dee left t1 with 4000 (``carry``); her ``sit`` at t2 is
    refused; the refusal is on the page and she is seated again at the emptiest table, t2 (Cy, Gus and Hal
    on 1, 3, 4; its next hand: button 1, small blind 3, big blind 4), held for it, in its worst position (TDA
    11, never a random open seat): after the small blind, 4 is taken and 5 is empty (2 is between the button
    and the small blind): seat 5, with the same 4000; once that is accepted nothing is carried and t2 is
    resumed. A move's refused ``leave`` carries nothing (Ann keeps her seat and chips) and the table the room
    paused for it is resumed. A pause refused because a hand began first is tried again, not listed."""
    director = Director(settings(), new_state("x"))
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"):
        director.register(name, 0.0)
    director.start(7, 1000.0)
    views = {"t1": view({1: ("Ann", 5000), 2: ("Bob", 5000), 3: ("Eve", 5000), 4: ("Fay", 5000)}),
             "t2": {**view({1: ("Cy", 5000), 3: ("Gus", 5000), 4: ("Hal", 5000)}),
                    "next_hand": {"button": 1, "sb": 3, "bb": 4}}}
    for _ in range(3):                                         # the start: table, sit, button, all accepted
        assert director.step(views, lambda cid: {"accepted": True}, 1000.0)
    assert director.step(views, lambda cid: {"accepted": True}, 1000.0) == []      # nothing more to do
    director.state["carry"]["Dee"] = 4000
    director.state["plan"] = [[{"op": "sit", "table": "t2", "seat": 1, "player": "Dee"}]]
    ((_, table, payload),) = director.step(views, lambda cid: None, 1000.0)
    assert (table, payload) == ("t2", {"type": "sit", "seat": 1, "player": "Dee", "stack": 4000})
    again = director.step(views, lambda c: {"accepted": False, "reason": "seat 1 is taken by Cy"}, 1000.0)
    assert [(t, p) for _, t, p in again] == [("t2", {"type": "pause", "reason": "the room moves players"})]
    views["t2"]["paused"] = "the room moves players"
    again = director.step(views, lambda c: {"accepted": True}, 1000.0)
    assert [(t, p) for _, t, p in again] == [("t2", {"type": "sit", "seat": 5, "player": "Dee", "stack": 4000})]
    assert director.summary(views, 1000.0)["refused"] == ["t2: sit Dee: seat 1 is taken by Cy"]
    views["t2"]["seats"]["5"] = {"player": "Dee", "stack": 4000}
    again = director.step(views, lambda c: {"accepted": True}, 1000.0)
    assert [(t, p) for _, t, p in again] == [("t2", {"type": "resume"})] and director.state["carry"] == {}
    views["t2"]["paused"] = None
    assert director.step(views, lambda c: {"accepted": True}, 1000.0) == []
    views["t1"]["paused"] = "the room moves players"                   # a move's leave refused: no carry
    director.state["plan"] = [[{"op": "leave", "table": "t1", "player": "Ann"}]]
    ((_, table, payload),) = director.step(views, lambda c: None, 1000.0)
    assert (table, payload, director.state["carry"]) == ("t1", {"type": "leave", "seat": 1}, {"Ann": 5000})
    resumed = director.step(views, lambda c: {"accepted": False, "reason": "seat 1 is in the hand"}, 1000.0)
    assert [(t, p) for _, t, p in resumed] == [("t1", {"type": "resume"})] and director.state["carry"] == {}
    assert len(director.summary(views, 1000.0)["refused"]) == 2
    director.state["plan"] = [[{"op": "pause", "table": "t2", "reason": "hand-for-hand"}]]
    director.step(views, lambda c: None, 1000.0)
    director.step(views, lambda c: {"accepted": False, "reason": "cannot pause the table during a hand"}, 1000.0)
    assert len(director.summary(views, 1000.0)["refused"]) == 2         # a race with a START: not a fault


def test_trn8_a_table_three_short_halts_until_the_move_from_the_fullest_table_is_made() -> None:
    """Two tables of 6 seats: t1 has 6 players and is in its hand 2 (SB seat 2, BB seat 3), t2 has 3 (6 - 3 =
    3 short) and is between hands after its hand 1. TRN-8 (TDA 11, R11-D): t2 halts at once ("three players
    short", after its hand 1, which is over); the move waits for t1's hand: t1 is asked to pause after hand 2
    (its journal holds it when hand 2 is over: no START can slip in). t1's hand ends (nobody out): its next
    hand has the button on 2, the small blind on 3 and the big blind on 4: Dee, due the big blind, moves to
    t2, whose next hand has the button on 2, the small blind on 3, the big blind on 1: the worst position is
    seat 4, the seat due the big blind next (empty, after the small blind). Now 5 and 4: t2 is 1 short and is
    resumed, and so is t1, which the room paused to move Dee."""
    director = Director(settings(), new_state("x"))
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
    for name in names:
        director.register(name, 0.0)
    director.start(7, 1000.0)
    t1 = view({s: (p, 5000) for s, p in enumerate(names[:6], 1)}, hand=2)
    t2 = {**view({s: (p, 5000) for s, p in enumerate(names[6:], 1)}, hand=1), "last_blinds": [2, 3],
          "next_hand": {"button": 2, "sb": 3, "bb": 1}}
    t1 = {**t1, "in_hand": True, "last_blinds": [2, 3]}
    accept = lambda cid: {"accepted": True}                              # noqa: E731
    for _ in range(3):                                                   # the start: table, sit, button
        assert director.step({"t1": t1, "t2": t2}, accept, 1000.0)
    halts = director.step({"t1": t1, "t2": t2}, accept, 1000.0)
    assert [(t, p) for _, t, p in halts] == [("t2", {"type": "pause", "reason": "TRN-8: three players short",
                                                     "after_hand": 1})]
    t2["paused"] = "TRN-8: three players short"
    hold = director.step({"t1": t1, "t2": t2}, accept, 1000.0)
    assert [(t, p) for _, t, p in hold] == [("t1", {"type": "pause", "reason": "the room moves players",
                                                    "after_hand": 2})]
    t1["pausing"] = {"reason": "the room moves players", "after_hand": 2}
    assert director.step({"t1": t1, "t2": t2}, accept, 1000.0) == []     # t1's hand 2 is played out
    t1 = {**t1, "hand": 2, "in_hand": False, "paused": "the room moves players", "pausing": None,
          "next_hand": {"button": 2, "sb": 3, "bb": 4}}
    assert [(t, p) for _, t, p in director.step({"t1": t1, "t2": t2}, accept, 1000.0)] == \
        [("t1", {"type": "leave", "seat": 4})]
    t1["seats"]["4"] = {"player": None, "stack": 0}
    sit = [(t, p) for _, t, p in director.step({"t1": t1, "t2": t2}, accept, 1000.0)]
    assert sit == [("t2", {"type": "sit", "seat": 4, "player": "Dee", "stack": 5000})]
    t2["seats"]["4"] = {"player": "Dee", "stack": 5000}
    resumed = [(t, p) for _, t, p in director.step({"t1": t1, "t2": t2}, accept, 1000.0)]
    assert sorted(resumed) == [("t1", {"type": "resume"}), ("t2", {"type": "resume"})]


def test_a_failing_director_stops_the_tournament_not_the_room_and_the_page_says_so(tmp_path: Path) -> None:
    """A fault is never hidden: a defect in the director (here a step that raises) leaves the room running,
    the tournament's state as it was before that step, and the page's summary with the fault and what to do;
    the director is not stepped again until a restart."""
    room = RoomSettings(tmp_path / "room.sqlite", "127.0.0.1:0", tmp_path / "state",
                        MqttSettings("room", "127.0.0.1", 1, "dealerpi", tmp_path / "pw"), (), settings())
    service = RoomService(room, Store(room.database), clock=lambda: 1000.0)
    assert service.director is not None
    service.register("Ann")
    calls: list[int] = []

    def broken(*args: Any) -> list[Any]:
        calls.append(1)
        service.director.state["players"].append("Zed")       # type: ignore[union-attr]
        raise ValueError("boom")

    service.director.step = broken                             # type: ignore[method-assign,assignment]
    asyncio.run(service._direct(None))
    asyncio.run(service._direct(None))
    summary = service.tournament()
    assert summary is not None and summary["fault"] == (
        "The tournament stopped deciding (ValueError: boom): call the floor; restart the room to go on from its "
        "last state")
    assert calls == [1] and summary["registered"] == ["Ann"]
    service.store.close()


def test_trn5_hand_for_hand_asks_each_table_to_pause_after_its_hand_and_a_round_is_one_resume() -> None:
    """Two tables of 2 seats, 2 paid: 4 players, two at each table (seed 7's draw). A player busts in t1's
    hand 2 while t2 plays its hand 3: 3 left = 2 paid + 1, the bubble (TRN-5). The room does not wait for
    t2's hand: both tables are asked to pause after the hand each is in or last played (t1 after 2, held at
    once; t2 after 3, held by its journal when hand 3 ends). Both held: one round is one ``resume`` per table
    with ``pause_after`` its hand + 1 (t1 3, t2 4) and the reason hand-for-hand. A table found beyond its
    round's hand (t1 at 4, not 3: its host resumed it from the console, say) is a TRN-5 fault on the page;
    the next round resumes both for hand 5."""
    tournament, errors = parse_tournament({**RAW, "seats": 2}, "room.toml")
    assert tournament is not None, errors
    director = Director(tournament, new_state("x"))
    for name in ("Ann", "Bob", "Cy", "Dee"):
        director.register(name, 0.0)
    director.start(7, 1000.0)
    accept = lambda cid: {"accepted": True}                              # noqa: E731
    seated = {t: {p: seat for p, (tt, seat) in director.state["events"][0]["seats"].items() if tt == t}
              for t in ("t1", "t2")}

    def table(name: str, hand: int, stacks: dict[str, int], **extra: Any) -> dict[str, Any]:
        seats = {str(seat): {"player": p, "stack": stacks[p]} for p, seat in seated[name].items()}
        return {"hand": hand, "in_hand": False, "paused": None, "pausing": None, "last_blinds": [1, 2],
                "seats": seats, "blinds": [50, 100], **extra,      # each hand began at 5000 a player (TRN-4)
                "starting_stacks": [[seat, 5000] for seat in sorted(seated[name].values())]}

    t1 = table("t1", 1, dict.fromkeys(seated["t1"], 5000))
    t2 = table("t2", 2, dict.fromkeys(seated["t2"], 5000), in_hand=True)
    for _ in range(3):                                                   # the start: table, sit, button
        assert director.step({"t1": t1, "t2": t2}, accept, 1000.0)
    assert director.step({"t1": t1, "t2": t2}, accept, 1000.0) == []     # t1's hand 1: nobody out
    loser, winner = sorted(seated["t1"])
    t1 = table("t1", 2, {loser: 0, winner: 10000})
    t2 = table("t2", 3, dict.fromkeys(seated["t2"], 5000), in_hand=True)
    sent = [(t, p) for _, t, p in director.step({"t1": t1, "t2": t2}, accept, 1000.0)]
    assert sent == [("t1", {"type": "leave", "seat": seated["t1"][loser]})]      # out: 4th
    t1["seats"][str(seated["t1"][loser])] = {"player": None, "stack": 0}
    sent = [(t, p) for _, t, p in director.step({"t1": t1, "t2": t2}, accept, 1000.0)]
    assert sent == [("t1", {"type": "pause", "reason": "hand-for-hand", "after_hand": 2}),
                    ("t2", {"type": "pause", "reason": "hand-for-hand", "after_hand": 3})]
    t1["paused"], t2["pausing"] = "hand-for-hand", {"reason": "hand-for-hand", "after_hand": 3}
    assert director.step({"t1": t1, "t2": t2}, accept, 1000.0) == []     # t2's hand 3 is played out
    t2.update(in_hand=False, paused="hand-for-hand", pausing=None)
    sent = [(t, p) for _, t, p in director.step({"t1": t1, "t2": t2}, accept, 1010.0)]
    assert sorted(sent) == [("t1", {"type": "resume", "pause_after": 3, "reason": "hand-for-hand"}),
                            ("t2", {"type": "resume", "pause_after": 4, "reason": "hand-for-hand"})]
    t1.update(hand=4)                                                    # two hands, not one
    t2.update(hand=4)
    sent = [(t, p) for _, t, p in director.step({"t1": t1, "t2": t2}, accept, 1020.0)]
    assert sorted(sent) == [("t1", {"type": "resume", "pause_after": 5, "reason": "hand-for-hand"}),
                            ("t2", {"type": "resume", "pause_after": 5, "reason": "hand-for-hand"})]
    assert director.summary({"t1": t1, "t2": t2}, 1020.0)["refused"] == [
        "t1: hand-for-hand: TRN-5: hand #4 was played beyond the round's hand #3: one hand a table per round "
        "(TDA RP-8)"]


def test_trn1_a_break_pauses_a_table_in_a_hand_after_that_hand_and_sends_its_level_when_it_is_held() -> None:
    """TRN-1: level 1 lasts 60 s, then a 1-minute break (the second step). Eight players, four a table. At
    +60 s t1 is in its hand 3 and t2 is between hands after its hand 2: both are asked to pause "break"
    after the hand each is in or last played (t1 after 3: no START can follow hand 3 before the room's
    message), and t2, between hands, gets the break as its level (step 1) too; t1 gets its level once its
    hand is over and it is held."""
    director = Director(settings(), new_state("x"))
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]     # 8: more than one 6-seat table
    for name in names:
        director.register(name, 0.0)
    director.start(7, 1000.0)
    t1 = {**view({s: (p, 5000) for s, p in enumerate(names[:4], 1)}, hand=3), "in_hand": True}
    t2 = view({s: (p, 5000) for s, p in enumerate(names[4:], 1)}, hand=2)
    accept = lambda cid: {"accepted": True}                              # noqa: E731
    for _ in range(3):                                                   # the start: table, sit, button
        assert director.step({"t1": t1, "t2": t2}, accept, 1000.0)
    sent = [(t, p) for _, t, p in director.step({"t1": t1, "t2": t2}, accept, 1060.0)]
    assert [(t, p["type"], p.get("reason"), p.get("after_hand")) for t, p in sent] == [
        ("t1", "pause", "break", 3), ("t2", "pause", "break", 2), ("t2", "table", None, None)]
    assert sent[2][1] == director.settings.table_input(1)
    t1["pausing"], t2["paused"] = {"reason": "break", "after_hand": 3}, "break"
    assert director.step({"t1": t1, "t2": t2}, accept, 1061.0) == []     # t1's hand 3 is played out
    t1.update(in_hand=False, paused="break", pausing=None)
    sent = [(t, p) for _, t, p in director.step({"t1": t1, "t2": t2}, accept, 1062.0)]
    assert sent == [("t1", director.settings.table_input(1))]
