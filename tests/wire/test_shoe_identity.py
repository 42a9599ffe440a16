"""Issue 22, fault probe 1: a shoe identity (``"shoe": {"boot", "seq"}``) comes from the shoe link only.

Before the fix a page (the dealer's role) could put one on a manual card: ``seq`` "abc", null or 1e400 was
journaled and then every start-up failed with a traceback (``int()``); a real boot id with ``seq`` 1000000
made the next real reads "already journaled" and never applied, with no DEAL-4 "lost reads" alert."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from console_kit import journal_lines, make
from daemon_kit import CONFIG

from dealerpi.history import journal_replay
from dealerpi.shoe.session import CardRead
from dealerpi.table.api.server import _Client

SIT: list[dict[str, Any]] = [{"type": "sit", "seat": s, "player": n, "stack": 250}
                             for s, n in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]
BOOT = "1a2b3c4d"


def hello(api: Any, role: str) -> _Client:
    peer = _Client(writer=None)  # type: ignore[arg-type]   # handle() never writes
    assert "result" in api.handle(peer, {"id": 1, "method": "hello", "params": {"role": role}})
    return peer


def send(api: Any, peer: _Client, entry: dict[str, Any]) -> dict[str, Any]:
    reply = api.handle(peer, {"id": 2, "method": "input", "params": {"entry": entry}})
    assert "result" in reply, reply
    result: dict[str, Any] = reply["result"]
    return result


def seated_hand(tmp_path: Path) -> tuple[Any, Any, Any]:
    config, controller, api = make(tmp_path)
    host = hello(api, "host")
    for entry in [*SIT, {"type": "start"}]:
        assert send(api, host, entry)["accepted"]
    return config, controller, api


@pytest.mark.parametrize("seq", ["abc", None, 1e400, 1000000])
def test_deal4_a_page_cannot_put_a_shoe_identity_on_a_manual_card(tmp_path: Path, seq: object) -> None:
    """The dealer's manual card with a ``shoe`` key is refused, naming the key, and nothing is journaled."""
    config, controller, api = seated_hand(tmp_path)
    dealer = hello(api, "dealer")
    before = journal_lines(config)
    answer = send(api, dealer, {"type": "card", "card": "Kd", "shoe": {"boot": BOOT, "seq": seq}})
    assert answer == {"accepted": False,
                      "reason": 'card: "shoe" is not a key of a card input (the shoe link alone says which read '
                                "a card is)"}
    assert journal_lines(config) == before
    assert controller.shoe_position is None


def journal_with(tmp_path: Path, injected: str) -> Path:
    """A journal as the daemon wrote it before the fix: the config's table, three players, a start, then a
    manual card whose page-made shoe identity is ``injected`` (raw JSON text, so 1e400 stays what it was)."""
    path = tmp_path / "state" / "journal.jsonl"
    path.parent.mkdir(parents=True)
    table = {"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3], "by": "config"}
    lines = [json.dumps(e) for e in (table, *SIT, {"type": "start", "at": "2026-11-26T20:00:00Z"})]
    lines.append('{"type":"card","card":"Kd","shoe":{"boot":"' + BOOT + '","seq":' + injected + '},"by":"dealer",'
                 '"at":"2026-11-26T20:01:00Z","source":"manual"}')
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("injected", ['"abc"', "null", "1e400", '{"x":1}'])
def test_deal4_a_journal_holding_a_page_made_identity_starts_and_names_the_line(
        tmp_path: Path, injected: str, caplog: pytest.LogCaptureFixture) -> None:
    """Start-up from such a journal works (no traceback, no restart loop): the card stays applied as the
    manual card it was, its identity is ignored, and the log names the line (the 6th input replayed)."""
    journal_with(tmp_path, injected)
    with caplog.at_level(logging.ERROR):
        _config, controller, _api = make(tmp_path, CONFIG)
    assert controller.shoe_position is None
    assert controller.table.expectation().as_json() == {"expect": "card", "for": "seat 3"}   # Kd went to seat 2
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1
    assert errors[0].startswith("journal input 6 (a card by dealer at 2026-11-26T20:01:00Z): its \"shoe\" identity "
                                "is not the shoe link's")


def test_deal4_real_reads_after_a_page_made_identity_are_applied(tmp_path: Path) -> None:
    """A page-made identity with the shoe's real boot id and seq 1000000 (the probe's worst case) must not
    stand for the shoe's position: reads 1 to 3 of that boot are applied after the restart."""
    journal_with(tmp_path, "1000000")
    _config, controller, _api = make(tmp_path, CONFIG)
    for seq in (1, 2, 3):
        assert controller.on_read(CardRead(f"T{seq:02d}", BOOT, seq)) is True
    assert controller.shoe_position == (BOOT, 3)
    # Kd went to seat 2 by hand; the shoe's T01 8c, T02 5d, T03 Qc go on round the table: seat 3, 1, 2;
    # the fifth card is seat 3's second
    assert controller.table.expectation().as_json() == {"expect": "card", "for": "seat 3"}
    lines = journal_lines(_config)
    assert [(e["card"], e["shoe"]) for e in lines[-3:]] == [
        ("8c", {"boot": BOOT, "seq": 1}), ("5d", {"boot": BOOT, "seq": 2}), ("Qc", {"boot": BOOT, "seq": 3})]


def test_deal4_replay_tool_names_a_page_made_identity(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``dealerpi replay --journal`` says what start-up says about that line."""
    path = journal_with(tmp_path, '"abc"')
    assert journal_replay.main(["--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert 'line 6 SHOE: its "shoe" identity is not the shoe link\'s (' in out
