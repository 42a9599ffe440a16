"""Issue 22: the daemon's answers the console reads (the journal download's chunks, a pairing code shown,
the ledger for the CSV) are records (dealerpi/wire/api.py, wire/views.py): the console checks each and
answers 502 naming the key of one it cannot read, rather than write a file from it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from aiohttp import web
from console_kit import make

from dealerpi.console.server import _answer, _result
from dealerpi.table.api.server import _Client
from dealerpi.wire.api import JournalChunk, NoteAnswer, QrShown
from dealerpi.wire.views import Ledger


def test_a_journal_chunk_is_its_record_and_a_bad_one_is_a_502_naming_the_key(
        caplog: pytest.LogCaptureFixture) -> None:
    good = {"result": {"text": '{"type": "start"}\n', "next": [0, 18]}}
    assert _result(good, "journal", JournalChunk) == JournalChunk('{"type": "start"}\n', (0, 18))   # control
    assert _result({"result": {"text": "", "next": None}}, "journal", JournalChunk) == JournalChunk("", None)
    for bad, why in (({"text": "", "next": [0, "18"]}, "Expected `int`, got `str` - at `next[1]`"),
                     ({"text": "", "next": None, "cards": ["Kd"]}, "Object contains unknown field `cards`"),
                     ({"text": "", "next": [0, -1]}, "Expected `int` >= 0 - at `next[1]`")):
        caplog.clear()
        with caplog.at_level(logging.ERROR), pytest.raises(web.HTTPBadGateway) as caught:
            _result({"result": bad}, "journal", JournalChunk)
        assert caught.value.text == f"502: the table daemon's answer to journal was not understood: {why}\n"
        assert [r.getMessage() for r in caplog.records] == [
            f"the daemon's answer to journal is not its record: {why}"]


def test_a_pairing_codes_answer_is_its_record() -> None:
    assert _result({"result": {"shown": 30.0}}, "show_qr", QrShown) == QrShown(30.0)
    with pytest.raises(web.HTTPBadGateway) as caught:
        _result({"result": {"shown": "30"}}, "show_qr", QrShown)
    assert caught.value.text == ("502: the table daemon's answer to show_qr was not understood: Expected `float`, "
                                 "got `str` - at `shown`\n")
    with pytest.raises(web.HTTPBadGateway) as caught:
        _result({"result": {"shown": 30.0, "url": "http://x/?t=1"}}, "show_qr", QrShown)
    assert str(caught.value.text).endswith("Object contains unknown field `url`\n")


def test_the_daemons_ledger_answer_is_a_ledger_record(tmp_path: Path) -> None:
    """The positive control is a real daemon's ledger after two buy-ins; a changed one is refused."""
    _config, controller, api = make(tmp_path)
    for seat, name in ((1, "Ann"), (2, "Bob")):
        assert controller.submit({"type": "sit", "seat": seat, "player": name, "stack": 250, "by": "host",
                                  "at": "2026-11-26T20:00:00Z"}).accepted
    peer = _Client(writer=None)  # type: ignore[arg-type]   # handle() never writes
    assert "result" in api.handle(peer, {"id": 0, "method": "hello", "params": {"role": "host"}})
    answer = api.handle(peer, {"id": 1, "method": "ledger", "params": {}})
    ledger = _result(answer, "ledger", Ledger)
    assert [(p.player, p.in_) for p in ledger.players] == [("Ann", 250), ("Bob", 250)]
    assert len(ledger.sessions) == 1 and ledger.sessions[0].in_ == 500
    answer["result"]["players"][0]["in"] = "250"
    with pytest.raises(web.HTTPBadGateway) as caught:
        _result(answer, "ledger", Ledger)
    assert str(caught.value.text).endswith("Expected `int`, got `str` - at `players[0].in`\n")



def test_an_inputs_answer_reaches_the_page_as_its_record_writes_it(caplog: pytest.LogCaptureFixture) -> None:
    """The page gets the answer as ``InputAnswer`` / ``NoteAnswer`` write it (the same keys as before, none
    it does not know); one that is not its record is refused for the page with the key named, and logged."""
    said = {"accepted": True, "reason": None, "alerts": [{"rule": "BLD-1", "message": "First hand"}]}
    assert _answer({"result": said}, "input") == said                                          # control
    assert _answer({"result": {"accepted": True, "reason": None, "note": "n1"}}, "ledger_note", NoteAnswer) == \
        {"accepted": True, "reason": None, "note": "n1"}
    assert _answer({"error": {"message": "say hello with a role first"}}, "input") == \
        {"accepted": False, "reason": "say hello with a role first"}
    with caplog.at_level(logging.ERROR):
        assert _answer({"result": {**said, "seat": 4}}, "input") == {
            "accepted": False, "reason": "the table daemon's answer was not understood (Object contains unknown "
                                         "field `seat`): look at the table before sending it again"}
        assert _answer({"result": {"accepted": "yes", "reason": None}}, "ledger_note", NoteAnswer)["reason"] == (
            "the table daemon's answer was not understood (Expected `bool`, got `str` - at `accepted`): look at the "
            "table before sending it again")
    assert [r.getMessage() for r in caplog.records] == [
        "the daemon's answer to input is not its record: Object contains unknown field `seat`",
        "the daemon's answer to ledger_note is not its record: Expected `bool`, got `str` - at `accepted`"]
