"""Issue 22, fault probe 3: a page's input is checked key by key at the socket, before the journal.

Before the fix a ``table`` input with an extra ``"after_hand": true`` (the host's socket role, or the room's
``table`` command) was refused during the hand but journaled, and after a restart it was pending and applied
when the hand ended, so the restarted table differed from the uninterrupted one; without ``game`` every host
or panel hello failed with an InputError until the hand ended. Unknown keys and wrong types went through."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from console_kit import journal_lines, make

from dealerpi.table.api.server import _Client

SIT: list[dict[str, Any]] = [{"type": "sit", "seat": s, "player": n, "stack": 250}
                             for s, n in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]
NEW_TABLE = {"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [5, 10], "after_hand": True}


def hello(api: Any, role: str) -> _Client:
    peer = _Client(writer=None)  # type: ignore[arg-type]   # handle() never writes
    reply = api.handle(peer, {"id": 1, "method": "hello", "params": {"role": role}})
    assert "result" in reply, reply
    return peer


def send(api: Any, peer: _Client, entry: dict[str, Any], **params: Any) -> dict[str, Any]:
    reply = api.handle(peer, {"id": 2, "method": "input", "params": {"entry": entry, **params}})
    assert "result" in reply, reply
    result: dict[str, Any] = reply["result"]
    return result


def finish_hand(controller: Any) -> None:
    """Blinds 1/3, button seat 1 (BLD-1): seats 1 and 2 fold, seat 3 wins the blinds."""
    for uid in range(6):
        controller.on_card(f"T{uid:02d}")
    for seat in (1, 2):
        assert controller.submit({"type": "act", "seat": seat, "action": "fold"}).accepted


def test_after_hand_from_a_page_is_refused_and_a_restart_plays_the_same_table(tmp_path: Path) -> None:
    """Apply (refused, not journaled), restart, end the hand: the same blinds 1/3 as the table that ran on."""
    live = tmp_path / "live"
    live.mkdir()
    config, controller, api = make(live)
    host = hello(api, "host")
    for entry in [*SIT, {"type": "start"}]:
        assert send(api, host, entry)["accepted"]
    before = journal_lines(config)
    assert send(api, host, NEW_TABLE, rid="room:t1") == {
        "accepted": False, "reason": 'table: "after_hand" is not a key of a table input'}
    assert journal_lines(config) == before
    shutil.copytree(live, tmp_path / "restarted")
    _config, restarted, _api = make(tmp_path / "restarted")
    for table in (controller, restarted):
        finish_hand(table)
    assert controller.table.config is not None and restarted.table.config is not None
    assert (restarted.table.config.small_blind, restarted.table.config.big_blind) == (1, 3)
    assert restarted.table.config == controller.table.config
    assert restarted.pending_table is None


def test_a_journaled_queued_table_without_game_does_not_break_hello(tmp_path: Path) -> None:
    """A journal written before the fix, holding a page's ``after_hand`` table without ``game``: start-up
    does not queue it (its settings are not a table), and the host's and the board's hello work."""
    config, controller, api = make(tmp_path)
    host = hello(api, "host")
    for entry in [*SIT, {"type": "start"}]:
        assert send(api, host, entry)["accepted"]
    controller.journal.close()
    with config.journal.open("a") as journal:
        journal.write(json.dumps({"type": "table", "seats": 3, "blinds": [5, 10], "after_hand": True,
                                  "by": "host", "at": "2026-11-26T20:00:00Z"}) + "\n")
    _config, restarted, api = make(tmp_path)
    assert restarted.pending_table is None
    view = api.handle(_Client(writer=None), {"id": 1, "method": "hello",  # type: ignore[arg-type]
                                             "params": {"role": "host"}})["result"]["view"]
    assert view["setup"]["pending"] is None and view["setup"]["values"]["blinds"] == [1, 3]


def test_unknown_keys_and_wrong_types_are_refused_with_the_key_named(tmp_path: Path) -> None:
    config, _controller, api = make(tmp_path)
    host = hello(api, "host")
    before = journal_lines(config)
    assert send(api, host, {**SIT[0], "colour": "red"}) == {
        "accepted": False, "reason": 'sit: "colour" is not a key of a sit input'}
    assert send(api, host, {**SIT[0], "seat": "1"}) == {
        "accepted": False, "reason": 'sit: "seat" must be a whole number, not "1"'}
    assert send(api, host, {**SIT[0], "seat": True}) == {
        "accepted": False, "reason": 'sit: "seat" must be a whole number, not true'}
    assert send(api, host, {**SIT[0], "by": "config"}) == {
        "accepted": False, "reason": 'sit: "by" is not a key of a sit input'}
    assert send(api, host, {"type": "start", "bomb": {"ante": 5, "boards": 1, "odd": 1}})["accepted"] is False
    assert journal_lines(config) == before


def test_the_sent_keys_follow_the_engine_and_the_game_form() -> None:
    """Every input type the engine parses is listed, but ``act`` (the seat buttons) and ``tick`` (the
    daemon's clock); a table's keys are the game form's (which lays a change over every key of a table)."""
    from dealerpi.books.game_form import FORM_KEYS
    from dealerpi.engine.entries import PARSERS
    from dealerpi.wire.inputs import SENT_KEYS

    assert set(SENT_KEYS) == set(PARSERS) - {"act", "tick"}
    assert set(SENT_KEYS["table"]) == set(FORM_KEYS)


def test_a_pages_input_is_journaled_in_its_records_form_and_a_bad_one_as_sent(tmp_path: Path) -> None:
    """Issue 22: typed from the producer to the journal. A page's (or the room's) input is parsed into its
    engine record at the socket and journaled as ``to_json`` writes it: keys at their defaults left out, as
    docs/journal.md writes them (a sit's ``"post": false``, a colour-up's empty ``won``), the daemon's tags
    after it. One the engine cannot parse (an action no game has) is journaled as sent and refused by the
    engine with its reason, like every refused input (a colour-up whose ``won`` holds a boolean: the socket's
    key check lets a list through, the engine's parser names it)."""
    config, _controller, api = make(tmp_path)
    host = hello(api, "host")
    before = len(journal_lines(config))
    assert send(api, host, {"type": "sit", "seat": 1, "player": "Ann", "stack": 250, "post": False},
                rid="r-sit")["accepted"] is True
    line = journal_lines(config)[before]
    assert {k: v for k, v in line.items() if k != "at"} == {"type": "sit", "seat": 1, "player": "Ann",
                                                              "stack": 250, "by": "host", "rid": "r-sit"}
    assert list(line)[:4] == ["type", "seat", "player", "stack"]          # the record's keys first, in order
    bad = {"type": "colour_up", "remove": 25, "chip": 100, "won": [True]}
    assert send(api, host, bad) == {"accepted": False, "alerts": [], "reason": 'colour_up: "won" must be the '
                                                                              'list of the seats that won a chip '
                                                                              'in the race'}
    last = journal_lines(config)[-1]
    assert {k: last[k] for k in bad} == bad                                   # as sent: the engine refused it
