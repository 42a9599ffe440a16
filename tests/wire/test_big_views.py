"""Issue 22, fault probe 6: the host's view has no fixed cap that a long evening can exceed.

The session ledger grows about 246 bytes a player; before the fix, at 700 players (175 KB) the console's
link dropped the daemon's message ("longer than 65536 bytes") and the host and panel pages stayed offline."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from console_kit import make

from dealerpi.console.server import DaemonLink
from dealerpi.wire.protocol import encode

PLAYERS = 720


def long_evening(tmp_path: Path) -> None:
    """The journal of an evening with PLAYERS players: each sits down with 300 at seat 1, 2 or 3 and cashes
    out at once (a buy-in and a cash-out each in the ledger)."""
    path = tmp_path / "state" / "journal.jsonl"
    path.parent.mkdir(parents=True)
    lines = [{"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3], "by": "config"}]
    for number in range(PLAYERS):
        seat = number % 3 + 1
        lines += [{"type": "sit", "seat": seat, "player": f"Player {number:03d}", "stack": 300, "by": "host",
                   "at": "2026-11-26T20:00:00Z"},
                  {"type": "leave", "seat": seat, "by": "host", "at": "2026-11-26T20:01:00Z"}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_the_host_page_gets_a_view_of_720_players_and_its_changes(tmp_path: Path) -> None:
    long_evening(tmp_path)
    _config, controller, api = make(tmp_path)
    pushed: list[dict[str, Any]] = []

    async def on_push(message: dict[str, Any]) -> None:
        pushed.append(message)

    async def run() -> tuple[dict[str, Any], int]:
        await api.start()
        link = await DaemonLink.open(api.path, on_push)
        try:
            answer = await link.request("hello", {"role": "host"})
            size = len(encode(answer))
            reply = await link.request("input", {"entry": {"type": "sit", "seat": 1, "player": "Late Larry",
                                                           "stack": 300}})
            assert reply["result"]["accepted"], reply
            for _ in range(200):                      # the pushed change follows the answer
                if len(pushed) == 2:
                    break
                await asyncio.sleep(0.01)
            return answer, size
        finally:
            await link.close()
            await api.stop()

    answer, size = asyncio.run(run())
    ledger = answer["result"]["view"]["ledger"]
    assert len(ledger["players"]) == PLAYERS
    assert (ledger["in"], ledger["out"], ledger["on_table"]) == (300 * PLAYERS, 300 * PLAYERS, 0)
    assert size > 150_000                                    # far past the old 64 KiB frame
    assert [m["type"] for m in pushed] == ["view", "changes"]
    changed = pushed[1]["changes"]["ledger"]
    assert changed["players"] == {"$append": [{"player": "Late Larry", "in": 300, "out": 0, "on_table": 300,
                                                "net": 0}]}
    assert controller.table.seats[1].player == "Late Larry"


def test_one_more_buy_in_sends_the_new_lines_not_the_evenings_ledger(tmp_path: Path) -> None:
    """After 720 players, one more buy-in changes the host's view by one event and one player: the change
    sent carries those (appended to the lists the page has), not the 175 KB ledger again; merged, it is the
    whole view the daemon has."""
    from dealerpi.wire.protocol import changes, merge

    long_evening(tmp_path)
    _config, controller, api = make(tmp_path)
    before = api.view("host")
    assert controller.submit({"type": "sit", "seat": 1, "player": "Late Larry", "stack": 300, "by": "host",
                              "at": "2026-11-26T23:00:00Z"}).accepted
    after = api.view("host")
    diff = changes(before, after)
    assert len(encode({"method": "view", "params": diff})) < 2000
    assert diff["ledger"]["events"] == {"$append": [{"at": "2026-11-26T23:00:00Z", "kind": "buy-in",
                                                     "player": "Late Larry", "seat": 1, "amount": 300}]}
    assert diff["ledger"]["players"] == {"$append": [{"player": "Late Larry", "in": 300, "out": 0,
                                                      "on_table": 300, "net": 0}]}
    assert merge(json.loads(json.dumps(before)), diff) == after


@pytest.mark.slow   # a property over many pairs of views: 3 s
def test_merge_of_changes_rebuilds_any_view() -> None:
    """Property: for any two views (sections of scalars and lists, lists that grow, shrink or change),
    merging the changes into a copy of the first gives the second."""
    import copy

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from dealerpi.wire.protocol import changes, merge

    leaf = st.none() | st.integers(0, 3) | st.lists(st.integers(0, 3), max_size=4)
    section = st.dictionaries(st.sampled_from("abc"), leaf, max_size=3)
    views = st.dictionaries(st.sampled_from(["x", "y", "z"]), leaf | section, max_size=3)

    @settings(max_examples=500, deadline=None)
    @given(views, views)
    def check(before: dict[str, Any], after: dict[str, Any]) -> None:
        after = {k: ({i: v for i, v in s.items() if v is not None} if isinstance(s, dict) else s)
                 for k, s in after.items()}                    # a null inside a section means "gone"
        assert merge(copy.deepcopy(before), changes(before, after)) == {**before, **after}

    check()
