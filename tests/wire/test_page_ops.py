"""Issue 22: what the console's pages send over their WebSocket is read once, at the console, as its record
(dealerpi/wire/pages.py): every operation the pages' JavaScript sends reads as its record and names the
daemon's request it becomes; a wrong type or an unknown key is refused naming the key (with the same
operation without the fault read, the positive control); an unknown op is refused; and through the
console's WebSocket a malformed operation gets its reason and the page's connection goes on working."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse
from aiohttp.test_utils import TestClient, TestServer
from console_kit import journal_lines, make

from dealerpi.console.server import Console
from dealerpi.wire import api, pages

RID = "m3k2x9abqz1f"          # what console.js's rid() makes: base-36 time and random digits

# Every operation the pages send, as their JavaScript writes it, with the record and the daemon's request.
SENT: list[tuple[str, dict[str, Any], pages.PageOp, tuple[str, api.Params]]] = [
    # console.js send(): every journal input of the host's, dealer's and board's pages (table.js and
    # tournament.js send through it too); confirm is !!confirm, so always a boolean
    ("console.js send({type: 'start'})",
     {"op": "input", "entry": {"type": "start"}, "rid": RID, "confirm": False},
     pages.SendInput(entry={"type": "start"}, rid=RID),
     ("input", api.SendInput(entry={"type": "start"}, rid=RID))),
    ("table.js sit, confirmed again (confirm.js / the toast's Confirm)",
     {"op": "input", "entry": {"type": "sit", "seat": 2, "player": "Bob", "stack": 250}, "rid": RID,
      "confirm": True},
     pages.SendInput(entry={"type": "sit", "seat": 2, "player": "Bob", "stack": 250}, rid=RID, confirm=True),
     ("input", api.SendInput(entry={"type": "sit", "seat": 2, "player": "Bob", "stack": 250}, confirm=True,
                             rid=RID))),
    ("tournament.js pause-clock",
     {"op": "input", "entry": {"type": "pause", "reason": "the host paused the clock"}, "rid": RID,
      "confirm": False},
     pages.SendInput(entry={"type": "pause", "reason": "the host paused the clock"}, rid=RID),
     ("input", api.SendInput(entry={"type": "pause", "reason": "the host paused the clock"}, rid=RID))),
    # console.js: the dealer's "clear alerts"
    ("console.js clear_alerts", {"op": "clear_alerts"}, pages.ClearAlerts(),
     ("clear_alerts", api.NoParams())),
    # game.js and tournament.js: the host's forms, the changed keys only
    ("game.js the game form",
     {"op": "table", "changes": {"game": "plo", "blinds": [1, 2]}, "rid": RID},
     pages.ChangeTable(changes={"game": "plo", "blinds": [1, 2]}, rid=RID),
     ("change_table", api.ChangeTable(changes={"game": "plo", "blinds": [1, 2]}, rid=RID))),
    ("tournament.js the tournament form",
     {"op": "table", "rid": RID, "changes": {
         "rules": "tournament", "levels": [{"blinds": [25, 50], "minutes": 20}], "blinds": [25, 50],
         "payouts": None, "buy_in": 100, "starting_stack": 5000, "late_entry_levels": None}},
     pages.ChangeTable(rid=RID, changes={
         "rules": "tournament", "levels": [{"blinds": [25, 50], "minutes": 20}], "blinds": [25, 50],
         "payouts": None, "buy_in": 100, "starting_stack": 5000, "late_entry_levels": None}),
     ("change_table", api.ChangeTable(rid=RID, changes={
         "rules": "tournament", "levels": [{"blinds": [25, 50], "minutes": 20}], "blinds": [25, 50],
         "payouts": None, "buy_in": 100, "starting_stack": 5000, "late_entry_levels": None}))),
    # money.js: op() adds the rid to every message
    ("money.js an expense",
     {"op": "ledger_note", "note": {"note": "expense", "what": "pizza", "amount": 30, "paid_by": "Ann",
                                    "split": ["Ann", "Bob", "Cy"]}, "rid": RID},
     pages.LedgerNote(note={"note": "expense", "what": "pizza", "amount": 30, "paid_by": "Ann",
                            "split": ["Ann", "Bob", "Cy"]}, rid=RID),
     ("ledger_note", api.LedgerNote(note={"note": "expense", "what": "pizza", "amount": 30, "paid_by": "Ann",
                                          "split": ["Ann", "Bob", "Cy"]}))),
    ("money.js the house's charge",
     {"op": "ledger_note", "note": {"note": "charge", "what": "time", "amount": 5, "players": ["Ann"]}, "rid": RID},
     pages.LedgerNote(note={"note": "charge", "what": "time", "amount": 5, "players": ["Ann"]}, rid=RID),
     ("ledger_note", api.LedgerNote(note={"note": "charge", "what": "time", "amount": 5, "players": ["Ann"]}))),
    ("money.js remove", {"op": "ledger_note", "note": {"note": "remove", "id": "n1"}, "rid": RID},
     pages.LedgerNote(note={"note": "remove", "id": "n1"}, rid=RID),
     ("ledger_note", api.LedgerNote(note={"note": "remove", "id": "n1"}))),
    ("money.js mark paid",
     {"op": "ledger_note", "note": {"note": "paid", "from": "Bob", "to": "Ann", "amount": 40, "paid": True},
      "rid": RID},
     pages.LedgerNote(note={"note": "paid", "from": "Bob", "to": "Ann", "amount": 40, "paid": True}, rid=RID),
     ("ledger_note", api.LedgerNote(note={"note": "paid", "from": "Bob", "to": "Ann", "amount": 40, "paid": True}))),
    ("money.js close_session", {"op": "close_session", "rid": RID}, pages.CloseSession(rid=RID),
     ("close_session", api.CloseSession(rid=RID))),
    # panel.js: the virtual hardware, no rid
    ("panel.js press a seat's key", {"op": "press", "where": 3, "button": "call"},
     pages.Press(where=3, button="call"), ("press", api.Button(where=3, button="call"))),
    ("panel.js release the dealer's key", {"op": "release", "where": "dealer", "button": "start"},
     pages.Release(where="dealer", button="start"), ("release", api.Button(where="dealer", button="start"))),
    ("panel.js deal-next", {"op": "deal", "after": 4}, pages.Deal(after=4), ("deal", api.Deal(after=4))),
    ("panel.js deal-card", {"op": "deal", "card": "Kd", "after": 4}, pages.Deal(card="Kd", after=4),
     ("deal", api.Deal(card="Kd", after=4))),
    ("panel.js shuffle", {"op": "shuffle"}, pages.Shuffle(), ("shuffle", api.NoParams())),
]


@pytest.mark.parametrize(("sender", "sent", "record", "daemon"), SENT, ids=[s[0] for s in SENT])
def test_every_operation_the_pages_send_reads_as_its_record(
        sender: str, sent: dict[str, Any], record: pages.PageOp, daemon: tuple[str, api.Params]) -> None:
    read = pages.read_op(json.dumps(sent))
    assert read == record
    assert read.request() == daemon
    assert pages.name(read) == sent["op"]


def test_every_op_of_the_union_is_sent_by_a_page() -> None:
    """No record production has no sender for (the list above covers each op)."""
    assert sorted({sent["op"] for _, sent, _, _ in SENT}) == sorted(pages.NAMES)


# (operation without the fault, the key, a value of the wrong type, the reason)
WRONG_TYPES: list[tuple[dict[str, Any], str, object, str]] = [
    ({"op": "input", "entry": {"type": "start"}, "rid": RID, "confirm": False}, "confirm", "yes",
     "input: Expected `bool`, got `str` - at `confirm`"),
    ({"op": "input", "entry": {"type": "start"}, "rid": RID, "confirm": False}, "entry", [1],
     "input: Expected `object`, got `array` - at `entry`"),
    ({"op": "input", "entry": {"type": "start"}, "rid": RID, "confirm": False}, "rid", 7,
     "input: Expected `str | null`, got `int` - at `rid`"),
    ({"op": "table", "changes": {"game": "plo"}, "rid": RID}, "changes", "plo",
     "table: Expected `object | null`, got `str` - at `changes`"),
    ({"op": "ledger_note", "note": {"note": "remove", "id": "n1"}, "rid": RID}, "note", None,
     "ledger_note: Expected `object`, got `null` - at `note`"),
    ({"op": "press", "where": 3, "button": "call"}, "where", True,
     "press: Expected `int | str`, got `bool` - at `where`"),
    ({"op": "release", "where": 3, "button": "call"}, "button", 1,
     "release: Expected `str`, got `int` - at `button`"),
    ({"op": "deal", "after": 4}, "after", "4", "deal: Expected `int | null`, got `str` - at `after`"),
    ({"op": "deal", "card": "Kd", "after": 4}, "card", 13, "deal: Expected `str | null`, got `int` - at `card`"),
]


@pytest.mark.parametrize(("good", "key", "bad", "reason"), WRONG_TYPES,
                         ids=[f"{g['op']}.{k}" for g, k, _, _ in WRONG_TYPES])
def test_a_wrong_type_is_refused_naming_the_key(good: dict[str, Any], key: str, bad: object, reason: str) -> None:
    pages.read_op(json.dumps(good))                      # the positive control: the same op reads
    with pytest.raises(pages.PageOpError) as refused:
        pages.read_op(json.dumps({**good, key: bad}))
    assert str(refused.value) == reason


@pytest.mark.parametrize("good", [sent for _, sent, _, _ in SENT], ids=[s[0] for s in SENT])
def test_an_unknown_key_is_refused_naming_it(good: dict[str, Any]) -> None:
    """Issue 22 probe 3's shape: a key the op does not take (``after_hand`` on a table change) is refused,
    never passed on or dropped silently."""
    pages.read_op(json.dumps(good))                      # the positive control
    with pytest.raises(pages.PageOpError) as refused:
        pages.read_op(json.dumps({**good, "after_hand": True}))
    assert str(refused.value) == f"{good['op']}: Object contains unknown field `after_hand`"


def test_a_missing_key_an_unknown_op_and_not_an_object_are_refused() -> None:
    with pytest.raises(pages.PageOpError) as refused:
        pages.read_op('{"op": "press", "where": 3, "rid": "p1"}')
    assert str(refused.value) == "press: Object missing required field `button`"
    assert refused.value.rid == "p1"                     # the answer echoes it
    for text, reason in (
            ('{"op": "sit", "seat": 1}', "op: one of input, table, ledger_note, close_session, clear_alerts, press, "
                                         "release, deal, shuffle, not 'sit'"),
            ('{"entry": {"type": "start"}}', "op: one of input, table, ledger_note, close_session, clear_alerts, "
                                             "press, release, deal, shuffle, not None"),
            ('["input"]', 'an operation is a JSON object: {"op": "input", ...}'),
            ("{'op': 'input'}", "not JSON"),
            ('{"op": "shuffle", "v": 2}', "shuffle: version 2 is not spoken here (this console speaks 1)")):
        with pytest.raises(pages.PageOpError) as refused:
            pages.read_op(text)
        assert str(refused.value) == reason, text
    assert pages.read_op('{"op": "shuffle", "v": 1}') == pages.Shuffle()     # v 1 said, as absent


async def _answer(ws: ClientWebSocketResponse) -> dict[str, Any]:
    """The next frame that answers an operation (views and changes are skipped)."""
    while True:
        frame: dict[str, Any] = json.loads((await ws.receive(5.0)).data)
        if frame["type"] == "result":
            return frame


def test_through_the_console_a_malformed_operation_is_refused_and_the_page_goes_on(tmp_path: Path) -> None:
    """The host's page sends a sit whose confirm is a string, one with a key no op takes, and an op that
    does not exist: each is answered with its reason (and its rid), nothing reaches the journal; then the
    same sit without the fault, on the same connection, is accepted and journaled."""
    config, controller, api_server = make(tmp_path)
    sit = {"op": "input", "rid": "s1", "entry": {"type": "sit", "seat": 1, "player": "Ann", "stack": 250},
           "confirm": False}

    async def main() -> list[dict[str, Any]]:
        await api_server.start()
        console = Console(api_server.path, {}, False, urls={})
        client: TestClient[Any, Any] = TestClient(TestServer(console.app()))
        await client.start_server()
        try:
            ws = await client.ws_connect("/ws?view=host")
            answers = []
            for op in ({**sit, "confirm": "yes"}, {**sit, "shoe": {"boot": "b", "seq": 1}}, {"op": "sit", "rid": "s2"},
                       sit):
                await ws.send_str(json.dumps(op))
                answers.append(await _answer(ws))
            await ws.close()
            return answers
        finally:
            await client.close()
            await api_server.stop()

    answers = asyncio.run(main())
    assert answers[:3] == [
        {"type": "result", "accepted": False, "reason": "input: Expected `bool`, got `str` - at `confirm`",
         "rid": "s1"},
        {"type": "result", "accepted": False, "reason": "input: Object contains unknown field `shoe`", "rid": "s1"},
        {"type": "result", "accepted": False, "rid": "s2",
         "reason": "op: one of input, table, ledger_note, close_session, clear_alerts, press, release, deal, "
                   "shuffle, not 'sit'"}]
    assert answers[3] == {"type": "result", "rid": "s1", "accepted": True, "reason": None, "alerts": []}
    sits = [line for line in journal_lines(config) if line.get("type") == "sit"]
    assert [(line["seat"], line["player"], line["rid"]) for line in sits] == [(1, "Ann", "s1")]
    assert controller.table.seats[1].player == "Ann"
