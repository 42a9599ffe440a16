"""A journal fault reaches the console's pages when it happens (issue 23, item 7e), over the real socket.

Before, the dealer's page said nothing of a failing journal until the dealer sent an input and read the
refusal: the fault was on the dealer's display (controller.fault_alert) but not in the pages' alerts.
"""

from __future__ import annotations

import asyncio
import copy
import errno
from pathlib import Path
from typing import Any

from console_kit import SHOE, FakeDecks
from daemon_kit import CONFIG, Clock
from fault_kit import FaultyOps

from dealerpi.config import load
from dealerpi.devices import FakeDevices
from dealerpi.journal.file import Journal
from dealerpi.shoe.session import CardRead
from dealerpi.table.api.server import ApiServer
from dealerpi.table.controller import Controller
from dealerpi.table.durable import PROBE_EVERY
from dealerpi.wire.protocol import Decoder, encode, merge

SIT: list[dict[str, Any]]
SIT = [{"type": "sit", "seat": s, "player": n, "stack": 250} for s, n in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]
FAULT = "journal failing: inputs paused: Input/output error (EIO). Free space or replace the SD card"
BACK = "journal writable again: inputs resume; check the last input"


def test_a_journal_fault_and_its_end_reach_the_dealers_and_the_hosts_page_without_a_request(
        tmp_path: Path) -> None:
    """A shoe read whose fdatasync fails (EIO): the read is not taken, and the dealer's and the host's pages
    are sent the fault as their first alert at once, with nothing sent by either; the probe's success is
    sent the same way (the fault gone, "journal writable again" said). The board gets no alerts."""
    path = tmp_path / "table.toml"
    path.write_text(CONFIG + '\n[console]\nsocket = "run/api.sock"\nstate = "console"\n')
    config = load(path)
    ops = FaultyOps()
    journal, entries = Journal.open(config.journal, ops)
    clock = Clock()
    controller = Controller(config, FakeDevices(config), journal, clock=clock, decks=FakeDecks())
    assert config.console is not None
    api = ApiServer(controller, config.console.socket)
    controller.api = api
    controller.replay(entries)
    for entry in [*SIT, {"type": "start"}]:
        assert controller.submit(entry).accepted
    controller.refresh()

    async def settle() -> None:
        for _ in range(5):
            await asyncio.sleep(0.02)

    received: dict[str, list[dict[str, Any]]] = {"host": [], "dealer": [], "board": []}

    async def listen(role: str, reader: asyncio.StreamReader) -> None:
        decoder = Decoder()
        while data := await reader.read(1 << 16):
            received[role] += decoder.feed(data)

    def shown(role: str) -> dict[str, Any]:
        """What the page shows now: the hello answer's view and every change pushed since."""
        view: dict[str, Any] = {}
        for message in received[role]:
            if "result" in message:
                view = copy.deepcopy(message["result"]["view"])
            elif message.get("method") == "view":
                view = merge(view, message["params"])
        return view

    async def run() -> dict[str, list[dict[str, Any]]]:
        await api.start()
        streams, tasks = {}, []
        for role in received:
            reader, writer = await asyncio.open_unix_connection(str(api.path))
            writer.write(encode({"id": 1, "method": "hello", "params": {"role": role}}))
            streams[role] = writer
            tasks.append(asyncio.ensure_future(listen(role, reader)))
        await settle()
        sent = {role: len(messages) for role, messages in received.items()}
        ops.fail("fdatasync", errno.EIO)
        assert controller.on_read(CardRead("T00", "0BADCAFE", 1)) is False      # not ACKed: the shoe resends
        await settle()
        seen = {role: [shown(role)] for role in received}
        assert all(len(received[role]) > sent[role] for role in ("host", "dealer"))   # pushed, not asked for
        ops.heal()
        clock.now += PROBE_EVERY
        controller.tick()
        await settle()
        for role, writer in streams.items():
            seen[role].append(shown(role))
            writer.close()
        await asyncio.gather(*tasks)
        await api.stop()
        return seen

    seen = asyncio.run(run())
    assert SHOE[0] not in str(controller.table.snapshot())                 # the read was not applied
    for role in ("dealer", "host"):
        during, after = seen[role]
        assert during["alerts"][0] == {"rule": "JOURNAL", "message": FAULT}, role
        assert FAULT not in str(after["alerts"]) and {"rule": "JOURNAL", "message": BACK} in after["alerts"], role
    assert "alerts" not in seen["board"][0]
    assert seen["host"][0]["status"]["journal"]["fault"] == "Input/output error (EIO)"
