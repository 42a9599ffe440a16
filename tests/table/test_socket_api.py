"""The daemon's local API (issue 14): framing, roles, tagging, confirmation, exactly-once, views as changes,
and secrecy over the real Unix socket with a positive control."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from console_kit import SHOE, journal_lines, make

from dealerpi.journal.file import Journal
from dealerpi.table.api.server import _Client
from dealerpi.wire.protocol import Decoder, ProtocolError, changes, encode, merge

SIT = [{"type": "sit", "seat": s, "player": n, "stack": 250} for s, n in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]


def client(api: Any, role: str) -> _Client:
    peer = _Client(writer=None)  # type: ignore[arg-type]   # handle() never writes
    reply = api.handle(peer, {"id": 1, "method": "hello", "params": {"role": role}})
    assert reply["result"]["role"] == role
    return peer


def send(api: Any, peer: _Client, entry: dict[str, Any], **params: Any) -> dict[str, Any]:
    reply = api.handle(peer, {"id": 2, "method": "input", "params": {"entry": entry, **params}})
    assert "result" in reply, reply
    result: dict[str, Any] = reply["result"]
    return result


def test_framing_is_json_ended_by_0x03_as_klipper_and_survives_split_reads() -> None:
    decoder = Decoder()
    data = encode({"id": 1, "method": "hello"}) + encode({"id": 2, "method": "input", "params": {"a": "é"}})
    assert data.count(b"\x03") == 2
    assert decoder.feed(data[:5]) == []
    assert decoder.feed(data[5:]) == [{"id": 1, "method": "hello"}, {"id": 2, "method": "input", "params": {"a": "é"}}]
    with pytest.raises(ProtocolError, match="not JSON"):
        Decoder().feed(b"{oops\x03")
    with pytest.raises(ProtocolError, match="a message is a JSON object"):
        Decoder().feed(b"[1]\x03")
    with pytest.raises(ProtocolError, match="longer than 65536"):
        Decoder().feed(b"x" * 65537)


def test_changes_send_only_the_changed_seat_and_merge_rebuilds_the_view() -> None:
    before = {"hand": 1, "board": [["2c"]], "seats": {"1": {"stack": 300}, "2": {"stack": 297}}}
    after = {"hand": 1, "board": [["2c", "7d"]], "seats": {"1": {"stack": 300}, "2": {"stack": 291}}}
    diff = changes(before, after)
    assert diff == {"board": [["2c", "7d"]], "seats": {"2": {"stack": 291}}}
    assert merge({"hand": 1, "board": [["2c"]], "seats": {"1": {"stack": 300}, "2": {"stack": 297}}}, diff) == after
    assert changes(after, after) == {}


def test_board_and_dealer_cannot_do_host_inputs_and_nothing_is_journaled(tmp_path: Path) -> None:
    """Roles (issue 14): the daemon enforces them whatever the console sends."""
    config, _controller, api = make(tmp_path)
    board, dealer, host = client(api, "board"), client(api, "dealer"), client(api, "host")
    before = len(journal_lines(config))
    assert send(api, board, SIT[0]) == {"accepted": False, "reason": "a board cannot send 'sit' inputs"}
    assert send(api, board, {"type": "start"}) == {"accepted": False, "reason": "a board cannot send 'start' inputs"}
    assert send(api, dealer, SIT[0]) == {"accepted": False, "reason": "a dealer cannot send 'sit' inputs"}
    assert send(api, dealer, {"type": "table", "game": "nlhe", "seats": 3, "blinds": [1, 2]})["reason"] == \
        "a dealer cannot send 'table' inputs"
    assert send(api, host, {"type": "act", "seat": 1, "action": "fold"})["reason"] == \
        "a host cannot send 'act' inputs"         # actions come from the seat buttons only
    assert send(api, host, {"type": "tick", "seconds": 60})["reason"] == "a host cannot send 'tick' inputs"
    assert len(journal_lines(config)) == before
    assert api.handle(dealer, {"id": 9, "method": "ledger"}) == \
        {"id": 9, "error": {"message": "the ledger is the host's"}}
    stranger = _Client(writer=None)  # type: ignore[arg-type]
    assert api.handle(stranger, {"id": 3, "method": "input", "params": {"entry": SIT[0]}}) == \
        {"id": 3, "error": {"message": "say hello with a role first"}}
    assert api.handle(stranger, {"id": 4, "method": "hello", "params": {"role": "root"}})["error"]["message"] == \
        "hello: role must be one of host, dealer, board"


def test_inputs_are_tagged_with_the_sender_and_a_typed_card_is_manual(tmp_path: Path) -> None:
    config, controller, api = make(tmp_path)
    host, dealer = client(api, "host"), client(api, "dealer")
    for entry in SIT:
        assert send(api, host, entry)["accepted"]
    assert send(api, dealer, {"type": "start"})["accepted"]
    result = send(api, dealer, {"type": "card", "card": "Kd"})
    assert result == {"accepted": True, "reason": None, "alerts": []}
    lines = journal_lines(config)
    assert [(e["type"], e["by"]) for e in lines[1:]] == \
        [("sit", "host")] * 3 + [("start", "dealer"), ("card", "dealer")]
    assert lines[-1]["source"] == "manual" and lines[-1]["card"] == "Kd"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", lines[-1]["at"])
    assert controller.table.expectation().as_json() == {"expect": "card", "for": "seat 3"}   # Kd went to seat 2


def test_undo_misdeal_and_dead_need_confirm(tmp_path: Path) -> None:
    """A stray message cannot take a hand back: undo, misdeal (MIS-1) and a dead hand (MIS-4) say confirm."""
    config, controller, api = make(tmp_path)
    host = client(api, "host")
    send(api, host, SIT[0])
    for kind in ("undo", "misdeal", "dead"):
        assert send(api, host, {"type": kind, "seat": 1})["reason"] == \
            f"{kind} takes the hand back or ends it: confirm it first"
    assert 1 in controller.table.seats
    assert send(api, host, {"type": "undo"}, confirm=True)["accepted"]
    assert controller.table.seats == {}
    assert journal_lines(config)[-1]["type"] == "undo"


def test_a_resent_input_is_applied_once_across_a_restart(tmp_path: Path) -> None:
    config, controller, api = make(tmp_path)
    host = client(api, "host")
    assert send(api, host, SIT[0], rid="r-1") == {"accepted": True, "reason": None, "alerts": []}
    assert send(api, host, SIT[0], rid="r-1") == {"accepted": True, "reason": None, "alerts": [], "duplicate": True}
    controller.journal.close()
    _config, controller, api = make(tmp_path)                 # the daemon restarts: the journal is replayed
    host = client(api, "host")
    assert send(api, host, SIT[0], rid="r-1") == {"accepted": True, "reason": None, "alerts": [], "duplicate": True}
    assert [e["type"] for e in journal_lines(config)].count("sit") == 1


HOLE = re.compile(r"(?<![A-Za-z0-9])(Kd|8c|5d|Qc|9c|4s)(?![A-Za-z0-9])")    # SHOE[:6]: the six hole cards


def test_secrecy_no_frame_to_any_role_carries_a_hole_card_with_positive_control(tmp_path: Path) -> None:
    """Over the real socket: three roles watch a hand whose six hole cards (Kd 8c 5d Qc 9c 4s, SHOE[:6]) came
    from the shoe, then the flop 2d 3c 7d (SHOE[7:10], after the burn Jh) and the seats' actions. Every byte
    sent to the board, the dealer and the host is searched for the hole cards; the positive control: the same
    search finds all six in the journal, and the board cards in the frames."""
    config, controller, api = make(tmp_path)

    async def run() -> dict[str, bytes]:
        await api.start()
        received: dict[str, bytes] = {}
        streams = {}
        for role in ("host", "dealer", "board"):
            reader, writer = await asyncio.open_unix_connection(str(api.path))
            writer.write(encode({"id": 1, "method": "hello", "params": {"role": role}}))
            streams[role] = (reader, writer)
        await asyncio.sleep(0.05)
        host_writer = streams["host"][1]
        for k, entry in enumerate([*SIT, {"type": "start"}], start=10):
            host_writer.write(encode({"id": k, "method": "input", "params": {"entry": entry}}))
            await asyncio.sleep(0.02)
        for uid in range(6):                                           # the hole cards
            controller.on_card(f"T{uid:02d}")
            await asyncio.sleep(0.01)
        for action in ("call", "call", "check"):
            seat = controller.table.expectation().seat
            controller.submit({"type": "act", "seat": seat, "action": action})
            controller.refresh()
            await asyncio.sleep(0.01)
        for uid in range(6, 10):                                       # the burn Jh, the flop
            controller.on_card(f"T{uid:02d}")
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        for role, (reader, writer) in streams.items():
            writer.close()
            received[role] = await reader.read()
        await api.stop()
        return received

    received = asyncio.run(run())
    assert [list(b) for b in controller.table.board()] == [["2d", "3c", "7d"]]
    journal = config.journal.read_text()
    assert sorted(HOLE.findall(journal)) == sorted(SHOE[:6])          # the search finds them where they are
    for role, data in received.items():
        text = data.decode()
        assert text.count("\x03") >= 5, role                           # the hello answer and pushed changes
        assert "2d" in text and "7d" in text, role                     # board cards are public: sent
        assert HOLE.findall(text) == [], role


def test_views_are_sent_as_changes_and_the_board_gets_no_alerts(tmp_path: Path) -> None:
    _config, _controller, api = make(tmp_path)
    host = client(api, "host")
    board_view = api.view("board")
    assert set(board_view) == {"hand", "game", "blinds", "board", "pots", "payouts", "seats", "in_hand", "v",
                              "paused", "pausing", "last_blinds", "next_hand", "starting_stacks", "bust_by",
                              "tournament", "action", "board_labels", "bomb", "result", "break_in",
                              "announcement"}           # the room director's (docs/room.md)
    for entry in SIT:
        send(api, host, entry)
    assert set(api.view("dealer")) == set(board_view) | {"expect", "next", "alerts", "shoe"}
    assert set(api.view("host")) == set(board_view) | {"expect", "next", "alerts", "shoe", "status", "ledger",
                                                       "setup"}
    before = api.view("host")
    send(api, host, {"type": "chips", "seat": 2, "amount": 50})
    diff = changes(before, api.view("host"))
    assert set(diff) == {"seats", "status", "ledger"}
    assert diff["seats"] == {"2": {**before["seats"]["2"], "stack": 300}}
    assert diff["status"]["journal"]["inputs"] == before["status"]["journal"]["inputs"] + 1


def test_replay_tool_reads_a_journal_with_sender_tags(tmp_path: Path) -> None:
    """The tags (by, at, rid, source) are extra keys: the engine and a restart ignore them."""
    config, controller, api = make(tmp_path)
    host = client(api, "host")
    for entry in SIT:
        send(api, host, entry, rid=f"sit-{entry['seat']}")
    stacks = {s: i.stack for s, i in controller.table.seats.items()}
    controller.journal.close()
    journal, entries = Journal.open(config.journal)
    assert len(entries) == 4
    journal.close()
    _config, again, _api = make(tmp_path)
    assert {s: i.stack for s, i in again.table.seats.items()} == stacks == {1: 250, 2: 250, 3: 250}


def test_dealer_clears_the_alerts_as_confirm_does_the_board_cannot(tmp_path: Path) -> None:
    _config, controller, api = make(tmp_path)
    host, board = client(api, "host"), client(api, "board")
    for entry in SIT:
        send(api, host, entry)
    send(api, host, {"type": "start"})
    assert [a["rule"] for a in api.view("dealer")["alerts"]] == ["BLD-1"]
    assert api.handle(board, {"id": 5, "method": "clear_alerts"}) == \
        {"id": 5, "error": {"message": "a board cannot clear the dealer's alerts"}}
    assert api.handle(client(api, "dealer"), {"id": 6, "method": "clear_alerts"})["result"] == {"cleared": True}
    assert api.view("dealer")["alerts"] == [] and list(controller.alerts) == []

