"""A journal the daemon cannot start from (issue 23, item 7c): one clear message on the dealer's display, not a
restart loop.

Before, ``serve`` returned 1 at once; the unit (``Restart=on-failure``, ``RestartSec=2``) restarted it every 2 s,
since it stops only on the statuses of ``RestartPreventExitStatus=`` (2 and 3), and nothing showed on the table.
"""

from __future__ import annotations

import asyncio
import re
import socket
import threading
from pathlib import Path

import pytest
from daemon_kit import CONFIG

from dealerpi.config import load
from dealerpi.daemon import JOURNAL_REFUSED, serve
from dealerpi.devices import FakeDevices
from dealerpi.journal_folder import folder_for
from dealerpi.views.model import Alert, DealerView
from dealerpi.views.render import render_dealer

UNIT = Path(__file__).parents[2] / "systemd" / "dealerpi.service"


def run_until_ready(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[str], FakeDevices]:
    """``serve`` under a fake systemd notify socket, stopped 0.3 s after it says it is ready."""
    config = load(tmp_path / "table.toml")
    notify = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify))
    sock.settimeout(10)
    monkeypatch.setenv("NOTIFY_SOCKET", str(notify))
    monkeypatch.setenv("WATCHDOG_USEC", "150000")          # a ping every 50 ms: several before the stop
    devices = FakeDevices(config)
    messages: list[str] = []

    def collect() -> None:
        while not any(m.startswith("STOPPING=1") for m in messages):
            messages.append(sock.recv(4096).decode())

    reader = threading.Thread(target=collect)
    reader.start()

    async def run() -> int:
        stop = asyncio.Event()
        return await serve(config, devices, shoe_url="loop://", stop=stop,
                           ready=lambda: asyncio.get_running_loop().call_later(0.3, stop.set))

    status = asyncio.run(run())
    reader.join(10)
    sock.close()
    return status, messages, devices


def test_a_damaged_line_keeps_the_daemon_up_showing_one_instruction_and_exits_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A complete line that does not parse (line 2 of segment 1): the daemon touches nothing, tells systemd it
    is up (READY, a STATUS naming the file and line, watchdog pings), shows the fault with one instruction on
    the dealer's display and every seat's, and when stopped exits with 2, a status the unit does not restart
    on."""
    (tmp_path / "table.toml").write_text(CONFIG)
    folder = folder_for(tmp_path / "state" / "journal.jsonl")
    folder.mkdir(parents=True)
    damaged = (b'{"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3]}\n'
               b'{"type": "sit", "seat": 1\n{"type": "button", "seat": 1}\n')
    (folder / "000001.jsonl").write_bytes(damaged)
    status, messages, devices = run_until_ready(tmp_path, monkeypatch)
    assert status == JOURNAL_REFUSED == 2
    restart_prevented = re.search(r"^RestartPreventExitStatus=(.*)$", UNIT.read_text(), re.MULTILINE)
    assert restart_prevented is not None and "2" in restart_prevented.group(1).split()
    assert messages[0] == "READY=1"
    assert messages[1] == (f"STATUS=journal damaged: {folder}/000001.jsonl: line 2 is not a JSON object: "
                           """b'{"type": "sit", "seat": 1'""")
    assert messages.count("WATCHDOG=1") >= 2 and messages[-1] == "STOPPING=1"
    expected = render_dealer(DealerView(0, "JOURNAL DAMAGED", alerts=(Alert(
        "JOURNAL", """000001.jsonl: line 2 is not a JSON object: b'{"type": "sit", "seat": 1'. """
                   "Repair it (see the log), then restart the table"),)))
    config = devices.config
    for display in (config.dealer.display, *(panel.display for panel in config.seats)):
        assert devices.image(display).tobytes() == expected.tobytes()
    assert sorted(p.name for p in folder.iterdir()) == ["000001.jsonl"]
    assert (folder / "000001.jsonl").read_bytes() == damaged
    devices.close()
