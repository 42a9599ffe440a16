"""Issue 19, home money as hosts keep it (money.py) through the daemon's API: expenses split among chosen
players, the house's charge where the preset's house takes one, "paid" marks, a session closed only when
money in equals money out, and the PokerNow ledger CSV. The arithmetic is in each docstring."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from console_kit import journal_lines, make
from table.test_sessions import cash_game, change, client, send

from dealerpi.books.money import POKERNOW_COLUMNS
from dealerpi.console.server import Console


def note(api: Any, peer: Any, **fields: Any) -> dict[str, Any]:
    result: dict[str, Any] = api.handle(peer, {"id": 4, "method": "ledger_note", "params": {"note": fields}})["result"]
    return result


def test_an_expense_is_split_among_the_players_named(tmp_path: Path) -> None:
    """After the cash game (Ann +200, Bob -200), Ann paid 31 for the pizza shared by Ann and Bob: shares 16
    and 15 (the odd unit to the first named). Ann +200 + 31 - 16 = +215, Bob -200 - 15 = -215: Bob pays Ann
    215. The chips' check is untouched (in 450 = out 450). An expense for someone who did not play is
    refused."""
    _config, controller, api = make(tmp_path)
    host = client(api, "host")
    cash_game(api, controller, host)
    assert note(api, host, note="expense", what="pizza", amount=31, paid_by="Ann", split=["Ann", "Bob"])["accepted"]
    ledger = api.ledger_summary()
    assert ledger["nets"] == {"Ann": 215, "Bob": -215}
    assert ledger["transfers"] == [{"from": "Bob", "to": "Ann", "amount": 215, "paid": False}]
    assert (ledger["in"], ledger["out"], ledger["balanced"]) == (450, 450, True)
    assert ledger["expenses"] == [{"id": "n1", "what": "pizza", "amount": 31, "paid_by": "Ann",
                                   "split": ["Ann", "Bob"]}]
    assert note(api, host, note="expense", what="beer", amount=10, paid_by="Dee", split=["Ann"]) == {
        "accepted": False, "reason": "expense: paid_by must be a player of this session: Ann, Bob"}


def test_the_house_charge_only_where_the_presets_house_takes_one(tmp_path: Path) -> None:
    """Home (seed 001: no rake): refused with the reason. A casino game: a time charge of 10 from Ann and
    Bob: Ann +200 - 10 = +190, Bob -200 - 10 = -210, the house +20: Bob pays Ann 190 and the house 20."""
    _config, controller, api = make(tmp_path)
    host = client(api, "host")
    assert note(api, host, note="charge", what="time", amount=10, players=["Ann"])["reason"] == (
        "charge: the home game's house takes no rake or time charge (only casino and online games; seed 001: "
        "a home game has no rake)")
    assert change(api, host, {"rules": "casino"})["accepted"]
    cash_game(api, controller, host)
    assert note(api, host, note="charge", what="time", amount=10, players=["Ann", "Bob"])["accepted"]
    ledger = api.ledger_summary()
    assert ledger["nets"] == {"Ann": 190, "Bob": -210, "the house": 20}
    assert ledger["transfers"] == [{"from": "Bob", "to": "Ann", "amount": 190, "paid": False},
                                   {"from": "Bob", "to": "the house", "amount": 20, "paid": False}]


def test_paid_marks_and_closing_only_when_money_in_equals_money_out(tmp_path: Path) -> None:
    """Ann and Bob buy in; closing is refused while 450 is on the table (in 450, out 0). After the cash
    game both cashed out: Bob's transfer to Ann is marked paid, the session closes (journaled as the table
    with "session": "close"), and the next buy-in (Cy, 100) is session 2's. The mark comes back after a
    restart (the notes file); a new journal (a new evening) puts the notes aside, counted no more."""
    config, controller, api = make(tmp_path)
    host = client(api, "host")
    for seat, name, stack in ((1, "Ann", 250), (2, "Bob", 200)):
        assert send(api, host, {"type": "sit", "seat": seat, "player": name, "stack": stack})["accepted"]
    close = api.handle(host, {"id": 5, "method": "close_session", "params": {}})["result"]
    assert close == {"accepted": False, "reason": "money in 450 is not money out 0 (on the table 450): cash "
                                                  "everyone out first"}
    assert send(api, host, {"type": "undo"}, confirm=True)["accepted"]
    assert send(api, host, {"type": "undo"}, confirm=True)["accepted"]
    cash_game(api, controller, host)
    assert note(api, host, note="paid", **{"from": "Bob", "to": "Ann", "amount": 200})["accepted"]
    assert note(api, host, note="paid", **{"from": "Ann", "to": "Bob", "amount": 5})["reason"] == \
        "paid: no such transfer in this session"
    assert api.ledger_summary()["transfers"] == [{"from": "Bob", "to": "Ann", "amount": 200, "paid": True}]
    assert api.handle(host, {"id": 6, "method": "close_session", "params": {}})["result"] == \
        {"accepted": True, "reason": None}
    assert journal_lines(config)[-1]["session"] == "close"
    assert send(api, host, {"type": "sit", "seat": 3, "player": "Cy", "stack": 100})["accepted"]
    ledger = api.ledger_summary()
    assert [s["session"]["closed"] for s in ledger["sessions"]] == [True, False]
    assert ledger["session"]["number"] == 2 and ledger["in"] == 100
    controller.journal.close()
    _config, controller, api = make(tmp_path)                                 # a restart
    assert api.ledger_summary()["sessions"][0]["transfers"] == [{"from": "Bob", "to": "Ann", "amount": 200,
                                                                 "paid": True}]
    assert api.handle(client(api, "dealer"), {"id": 7, "method": "close_session", "params": {}}) == \
        {"id": 7, "error": {"message": "the ledger is the host's"}}
    controller.journal.close()
    config.journal.unlink()                                   # a new evening: a new journal
    _config, controller, api = make(tmp_path)
    assert api.ledger_summary()["transfers"] == []
    assert [p.name.startswith("ledger-notes-") for p in (tmp_path / "state").glob("ledger-notes*")] == [True]


def test_the_ledger_in_pokernows_csv_columns(tmp_path: Path) -> None:
    """GET /ledger.csv?format=pokernow: PokerNow's header line, then a row per player and session: Ann in
    250 out 450, net +200; Bob in 200 out 0, net -200 (buy_out + stack - buy_in)."""
    _config, controller, api = make(tmp_path)
    host = client(api, "host")
    cash_game(api, controller, host)

    async def body() -> str:
        await api.start()
        console = Console(api.path, {"host": "h" * 22, "dealer": "d" * 22, "board": "b" * 22}, False, urls={})
        web_client: TestClient[Any, Any] = TestClient(TestServer(console.app()))
        await web_client.start_server()
        try:
            return await (await web_client.get("/ledger.csv?format=pokernow")).text()
        finally:
            await web_client.close()
            await api.stop()

    lines = asyncio.run(body()).splitlines()
    assert lines[0] == ",".join(POKERNOW_COLUMNS) == \
        "player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net"
    rows = [line.split(",") for line in lines[1:]]
    assert [(r[0], r[1], r[4], r[5], r[6], r[7]) for r in rows] == [
        ("Ann", "Ann", "250", "450", "0", "200"), ("Bob", "Bob", "200", "0", "0", "-200")]
    assert all(r[2] and r[3] for r in rows)                                  # start and end times


def test_the_phone_page_gets_each_answer_with_its_request_id(tmp_path: Path) -> None:
    """docs/console.md, "Messages for the pages": an operation carries a rid and its answer echoes it, with
    accepted and the reason, so a page shows the answer next to what was tapped: a ledger note (accepted),
    closing a session with money on the table (refused, why), clearing the alerts."""
    _config, _controller, api = make(tmp_path)
    host = client(api, "host")
    for seat, name in ((1, "Ann"), (2, "Bob")):
        assert send(api, host, {"type": "sit", "seat": seat, "player": name, "stack": 100})["accepted"]

    async def body() -> list[dict[str, Any]]:
        await api.start()
        console = Console(api.path, {"host": "h" * 22, "dealer": "d" * 22, "board": "b" * 22}, False, urls={})
        web_client: TestClient[Any, Any] = TestClient(TestServer(console.app()))
        await web_client.start_server()
        answers = []
        try:
            ws = await web_client.ws_connect("/ws?view=host")
            assert (await ws.receive_json())["type"] == "view"
            for op in ({"op": "ledger_note", "rid": "a1", "note": {"note": "expense", "what": "chips", "amount": 4,
                                                                    "paid_by": "Ann", "split": ["Ann", "Bob"]}},
                       {"op": "close_session", "rid": "a2"}, {"op": "clear_alerts", "rid": "a3"}):
                await ws.send_json(op)
                while (message := await ws.receive_json())["type"] != "result":
                    pass
                answers.append(message)
            await ws.close()
        finally:
            await web_client.close()
            await api.stop()
        return answers

    assert asyncio.run(body()) == [
        {"type": "result", "op": "ledger_note", "rid": "a1", "accepted": True, "reason": None, "note": "n1"},
        {"type": "result", "op": "close_session", "rid": "a2", "accepted": False,
         "reason": "money in 200 is not money out 0 (on the table 200): cash everyone out first"},
        {"type": "result", "accepted": True, "reason": None, "rid": "a3"}]
