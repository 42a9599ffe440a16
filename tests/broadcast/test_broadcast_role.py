"""The daemon's broadcast role (issue 21): granted by the peer's user id from the kernel, stricter than the host
role; it receives every accepted input, hole cards included, and may send nothing."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest
from console_kit import SHOE, cards_in, start

from dealerpi.wire.protocol import Decoder, encode

SIT: list[dict[str, Any]]
SIT = [{"type": "sit", "seat": s, "player": n, "stack": 250} for s, n in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]


async def _read_all(reader: asyncio.StreamReader) -> list[dict[str, Any]]:
    decoder = Decoder()
    messages: list[dict[str, Any]] = []
    while True:
        try:
            data = await asyncio.wait_for(reader.read(65536), 0.5)
        except TimeoutError:
            return messages
        if not data:
            return messages
        messages += decoder.feed(data)


def test_the_broadcast_role_gets_the_table_then_every_input_with_hole_cards_and_the_journal_position(
        tmp_path: Path) -> None:
    """Said by a process of the daemon's own user: the hello answer has the table as a snapshot and where the
    journal ends; then each accepted input comes as an event with the daemon's time (the clock given, in ms)
    and the position after it. The six hole cards dealt (SHOE[:6]) are in the events: this is the one
    interface that carries them. No view is pushed to it, and its input is refused, nothing journaled."""
    config, controller, api = start(tmp_path, wall=lambda: 1_800_000_000.5)

    async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        await api.start()
        reader, writer = await asyncio.open_unix_connection(str(api.path))
        writer.write(encode({"id": 1, "method": "hello", "params": {"role": "broadcast"}}))
        hello = await _read_all(reader)
        for entry in [*SIT, {"type": "start"}]:
            controller.submit(entry)
            controller.refresh()
        for uid in range(6):
            controller.on_card(f"T{uid:02d}")
        controller.submit({"type": "act", "seat": 1, "action": "bet", "to": 1})   # refused: not sent
        controller.refresh()
        writer.write(encode({"id": 2, "method": "input", "params": {"entry": {"type": "undo"}, "confirm": True}}))
        events = await _read_all(reader)
        writer.close()
        await api.stop()
        return hello, events

    hello, events = asyncio.run(run())
    assert hello[0]["id"] == 1
    result = hello[0]["result"]
    assert (result["role"], result["version"], result["ms"]) == ("broadcast", 1, 1_800_000_000_500)
    first_line = (config.journal.with_suffix("") / "000001.jsonl").read_bytes().split(b"\n")[0]
    assert b'"by": "config"' in first_line or b'"by":"config"' in first_line   # the config's table, at start-up
    assert result["position"] == [1, len(first_line) + 1]    # the journal ended after that line
    assert result["snapshot"]["version"] == 1
    pushed = [m for m in events if m.get("method") == "event"]
    assert [m["params"]["entry"]["type"] for m in pushed] == ["sit", "sit", "sit", "start", *["card"] * 6]
    assert all(m["params"]["ms"] == 1_800_000_000_500 for m in pushed)
    assert cards_in(str(pushed), SHOE[:6]) == sorted(SHOE[:6])
    segment, offset = pushed[-1]["params"]["position"]
    data = (config.journal.with_suffix("") / f"{segment:06d}.jsonl").read_bytes()
    assert data[offset:] == b'{"type":"act","seat":1,"action":"bet","to":1}\n'   # after it: the refused bet
    assert data[:offset].decode().endswith(f'"card":"{SHOE[5]}"}}\n')
    assert not any(m.get("method") == "view" for m in events)
    refusal = [m for m in events if m.get("id") == 2]
    assert refusal == [{"id": 2, "error": {"message": "the broadcast role only listens"}}]
    assert controller.table.hole_cards(2) == (SHOE[0], SHOE[3])          # the undo was not applied


def test_a_peer_of_another_user_is_refused_the_broadcast_role(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The host role is open to any member of the socket's group; the broadcast role only to the daemon's own
    user. Here the daemon runs as another user id (os.geteuid patched): the same connection is refused and
    is sent nothing after, not even the next input."""
    _config, controller, api = start(tmp_path)
    peer = os.geteuid()
    monkeypatch.setattr("dealerpi.wire.broadcast.os.geteuid", lambda: peer + 4242)

    async def run() -> list[dict[str, Any]]:
        await api.start()
        reader, writer = await asyncio.open_unix_connection(str(api.path))
        writer.write(encode({"id": 1, "method": "hello", "params": {"role": "broadcast"}}))
        answer = await _read_all(reader)
        controller.submit(SIT[0])
        answer += await _read_all(reader)
        writer.close()
        await api.stop()
        return answer

    answer = asyncio.run(run())
    assert answer == [{"id": 1, "error": {"message": (
        f"the broadcast role is for the table daemon's own user (this connection's user id is {peer}): "
        "docs/broadcast.md")}}]
