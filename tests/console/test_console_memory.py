"""The console's journal readers keep a window, not the week (bench/bench_console_memory.py): the room
bridge's last hands, the pages' last played hands, one hand's inputs, the deal before the hand. What they
give must be what a reader that keeps everything gives: the same PHH for every hand, the same numbering."""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from console_kit import make
from journal_kit import JournalTable, hand_records, scripted_session

from dealerpi.console import server
from dealerpi.console.histories import HandHistories
from dealerpi.console.server import Console
from dealerpi.engine import Outcome, Table
from dealerpi.history.final_hands import FinalHand, FinalHands
from dealerpi.history.phh import dumps
from dealerpi.table.api.server import RIDS_KEPT
from dealerpi.wire.protocol import Decoder, encode

TOKENS = {"host": "h" * 22, "dealer": "d" * 22, "board": "b" * 22}


def irregular_session(seed: int, hands: int) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """A three-seat evening as the daemon journals it, with what a week brings: actions taken back (an
    ``act``, then ``undo``), a ``start`` taken back and pressed again, misdeals after two cards (MIS-1: the
    redeal has the hand's number), showdowns left open that the next ``start`` settles (POT-7), a start
    that settles one taken back, and an undo that goes on through it into the settled hand (the engine's
    undo reach begins at a start made between hands only). Ends with a ``start``, so every hand before it
    is final. Returns the lines and how many of each irregularity it has, and ``hands``: the hands dealt."""
    rng = random.Random(seed)
    table = Table()
    lines: list[dict[str, Any]] = []
    seen = {"undo act": 0, "undo start": 0, "misdeal": 0, "settled by start": 0, "undo through a settling start": 0,
            "hands": 0}

    def feed(entry: dict[str, Any]) -> bool:
        if not table.apply(entry).accepted:
            return False
        lines.append(entry)
        return True

    assert feed({"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3], "by": "config"})
    for seat in (1, 2, 3):
        assert feed({"type": "sit", "seat": seat, "player": f"P{seat}", "stack": 300})
    assert feed({"type": "button", "seat": 1})
    settled = False
    for number in range(1, hands + 1):
        if not settled:
            assert feed({"type": "start"})
        if rng.random() < 0.2:
            assert feed({"type": "undo"}) and feed({"type": "start"})      # the start pressed by mistake, again
            seen["undo start"] += 1
        settled, dealt, misdealt = False, 0, False
        deck = [r + s for r in "23456789TJQKA" for s in "shdc"]
        rng.shuffle(deck)
        while (expected := table.expectation().as_json())["expect"] != "start":
            if expected["expect"] in ("card", "burn"):
                assert feed({"type": "card", "card": deck.pop()})
                dealt += 1
                if dealt == 2 and not misdealt and number % 3 == 0:
                    assert feed({"type": "misdeal"})
                    misdealt, dealt = True, 0
                    seen["misdeal"] += 1
                    deck = [r + s for r in "23456789TJQKA" for s in "shdc"]
                    rng.shuffle(deck)
            elif expected["expect"] == "action":
                seat, legal = expected["seat"], expected["legal"]
                if rng.random() < 0.1 and feed({"type": "act", "seat": seat, "action": "call"}):
                    assert feed({"type": "undo"})
                    seen["undo act"] += 1
                elif legal["raise"] and rng.random() < 0.2:
                    assert feed({"type": "act", "seat": seat, "action": "raise", "to": legal["raise"][0]})
                elif legal["call"] is not None and rng.random() < 0.2:
                    assert feed({"type": "act", "seat": seat, "action": "fold"})
                else:
                    assert feed({"type": "act", "seat": seat, "action": "call"})
            elif number < hands and rng.random() < 0.5 and feed({"type": "start"}):
                seen["settled by start"] += 1                       # POT-7: the start settles the showdown
                if rng.random() < 0.3:                              # ... and the undo reaches back through it
                    assert feed({"type": "undo"}) and feed({"type": "undo"})
                    seen["undo through a settling start"] += 1
                    continue
                settled = True
                break
            else:
                assert feed({"type": "show", "seat": expected["seats"][0]})
        seen["hands"] += 1
        if not settled:
            for seat, info in table.seats.items():
                if info.stack < 90:
                    assert feed({"type": "chips", "seat": seat, "amount": 300 - info.stack})
    assert feed({"type": "start"})
    return lines, seen


def follow(path: Path, lines: list[dict[str, Any]], *readers: FinalHands) -> list[list[FinalHand]]:
    """Append the lines to a journal file a few at a time, as the daemon does; each reader polls after each
    batch. Every hand each reader gave, in order."""
    given: list[list[FinalHand]] = [[] for _ in readers]
    for start in range(0, len(lines), 7):
        with path.open("a", encoding="utf-8") as file:
            file.writelines(json.dumps(entry) + "\n" for entry in lines[start:start + 7])
        for reader, hands in zip(readers, given, strict=True):
            hands += reader.poll()
    return given


def test_trimmed_readers_write_every_hand_as_the_reader_that_keeps_everything(tmp_path: Path) -> None:
    """40 hands with undos, misdeals (MIS-1) and starts that settle an open showdown (POT-7), some taken
    back with an undo that goes on into the settled hand (the old reader cut at every start: from hand 21 on
    its PHH differed, p2's fold written "p2 cc", its undo having popped an input it had already made final).
    The untrimmed reader: every accepted input less those undone (JournalTable) replayed into tables that
    keep every deal (hand_records). The bridge's reader keeps 3 hands, the pages' 2 played hands; both
    tables keep one deal from before the hand (as the daemon's, RECORDS_KEPT) and the pages the inputs of
    the hand not final yet only (hand 41's start). Every hand each gives has the
    untrimmed PHH and number, hands 1 to 40 in order, seq 1 to 40."""
    lines, seen = irregular_session(seed=11, hands=40)
    assert min(seen.values()) >= 2, seen                          # each irregularity is in the journal
    untrimmed = JournalTable()
    for entry in lines:
        assert untrimmed.apply(entry).accepted, entry
    records, skipped = hand_records(untrimmed.accepted)
    assert skipped == [] and [int(r.extra["hand"]) for r in records] == list(range(1, 41))
    expected = [dumps(record) for record in records]
    bridge = FinalHands(tmp_path / "journal.jsonl", keep=3)
    pages = HandHistories(tmp_path / "journal.jsonl", keep=3, keep_played=2)
    given_bridge, given_pages = follow(tmp_path / "journal.jsonl", lines, bridge, pages)
    for given in (given_bridge, given_pages):
        assert [hand.phh for hand in given] == expected
        assert [(hand.seq, hand.number) for hand in given] == [(n, n) for n in range(1, 41)]
    assert [hand.seq for hand in bridge.hands] == [38, 39, 40] and bridge.count == 40
    assert [(hand.number, hand.phh and dumps(hand.phh)) for hand in pages.played] == [
        (39, expected[38]), (40, expected[39])]
    for reader in (bridge, pages):
        assert len(reader._table.records) == 1                   # the deal before the hand, as the daemon's
    assert list(pages._open) == [41]
    assert pages._recorder._inputs == {41: [{"type": "start"}]}   # the one recorder keeps the open hand's inputs


def test_history_pages_say_a_hand_beyond_the_window_is_no_longer_kept(tmp_path: Path) -> None:
    """Five hands final (the sixth played, and nothing after it: an UNDO may still reopen it), the pages
    keeping 2: the list has hands 4 and 5 and says hands before #4 are no longer kept; hand 2's replay and
    PHH are 410 Gone with that sentence, never a traceback; hand 6 is still 404, hand 5 is 200."""
    config, controller, _api = make(tmp_path)
    script = scripted_session(seed=3, hands=6)
    for entry in script[1:]:
        assert controller.submit(entry).accepted, entry
    answers: dict[str, tuple[int, str]] = {}

    async def main() -> None:
        histories = HandHistories(config.journal, keep_played=2)
        console = Console(tmp_path / "no.sock", TOKENS, False, urls={}, histories=histories)
        client: TestClient[Any, Any] = TestClient(TestServer(console.app()))
        await client.start_server()
        try:
            host = {"Cookie": f"dealerpi_console={TOKENS['host']}"}
            for path in ("/hands.json", "/hands/2.json", "/hands/2.phh", "/hands/5.json", "/hands/6.json"):
                response = await client.get(path, headers=host)
                answers[path] = (response.status, await response.text())
        finally:
            await client.close()

    asyncio.run(main())
    listed = json.loads(answers["/hands.json"][1])
    assert [hand["number"] for hand in listed["hands"]] == [4, 5]
    gone = ("no longer kept here: the console keeps the last 2 hands it read (docs/console.md); dealerpi "
            "replay --journal prints those the journal folder still holds")
    assert listed["older"] == f"Hands before #4 are {gone}"
    assert answers["/hands/2.json"] == (410, f"410: hand #2 is {gone}\n")
    assert answers["/hands/2.phh"] == (410, f"410: hand #2 is {gone}\n")
    assert answers["/hands/5.json"][0] == 200 and json.loads(answers["/hands/5.json"][1])["number"] == 5
    assert answers["/hands/6.json"][0] == 404


def test_the_daemons_request_ids_keep_the_last_rids_kept_and_no_more(tmp_path: Path) -> None:
    """Exactly once for the last RIDS_KEPT (1000) request ids, in memory as in a checkpoint: after 2,500
    journaled ids the newest 1000 are still answered duplicate with the answer they got (nothing journaled),
    the dict never holds 2 x 1000 or more, and the checkpoint's part is the same newest 1000."""
    config, controller, api = make(tmp_path)
    refused = {"accepted": False, "reason": "seat 1 is empty", "alerts": []}
    for number in range(2500):
        entry = {"type": "back", "seat": 1, "rid": f"r{number}"}
        api.before(entry, controller.table)
        api.after(entry, Outcome(False, "seat 1 is empty"), controller.table)
        assert len(api.rids) < 2 * RIDS_KEPT
    assert list(api.rids)[-RIDS_KEPT:] == [f"r{n}" for n in range(1500, 2500)]
    assert api.checkpoint_data()["rids"] == [[f"r{n}", refused] for n in range(1500, 2500)]
    lines = config.journal.read_text()
    assert api.submit("host", {"type": "away", "seat": 1}, "r1500", False) == {**refused, "duplicate": True}
    assert config.journal.read_text() == lines


def test_a_request_the_daemon_never_answers_leaves_nothing_behind_on_the_link(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The bridge's and each page's link to the daemon stay open for days: a request that times out (the
    daemon busy or stuck) raises TimeoutError and its future goes, as an answered one's does; the answered
    request (the control) gets its answer."""
    monkeypatch.setattr(server, "REQUEST_SECONDS", 0.05)
    pending: list[int] = []

    async def main() -> None:
        async def daemon(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            decoder = Decoder()
            while data := await reader.read(65536):
                for message in decoder.feed(data):
                    if message["method"] == "ping":                    # answers pings, nothing else
                        writer.write(encode({"id": message["id"], "result": {"pong": True}}))

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "api.sock"
            listening = await asyncio.start_unix_server(daemon, str(path))
            link = await server.DaemonLink.open(path, _ignore)
            try:
                assert (await link.request("ping", {}))["result"] == {"pong": True}
                for _ in range(3):
                    with pytest.raises(TimeoutError):
                        await link.request("hello", {"role": "board"})
                pending.append(len(link._pending))
            finally:
                await link.close()
                listening.close()

    asyncio.run(main())
    assert pending == [0]


async def _ignore(message: dict[str, Any]) -> None:
    return None
