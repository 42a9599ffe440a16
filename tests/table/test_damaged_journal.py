"""A journal the daemon cannot start from (issue 23, item 7c): one clear message on the dealer's display, not a
restart loop.

Before, ``serve`` returned 1 at once; the unit (``Restart=on-failure``, ``RestartSec=2``) restarted it every 2 s,
since it stops only on the statuses of ``RestartPreventExitStatus=`` (2 and 3), and nothing showed on the table.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import threading
from pathlib import Path
from typing import Any

import pytest
from daemon_kit import CONFIG, FakeDecks, screen, untimed
from journal_kit import scripted_session

from dealerpi.config import load
from dealerpi.devices import FakeDevices
from dealerpi.engine import Table
from dealerpi.journal.folder import JournalFolder, checksum, folder_for
from dealerpi.table.controller import Controller
from dealerpi.table.daemon import JOURNAL_REFUSED, serve
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

        def ready() -> None:
            asyncio.get_running_loop().call_later(0.3, stop.set)

        return await serve(config, devices, shoe_url="loop://", stop=stop, ready=ready)

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
        assert screen(devices, display) == expected.tobytes()
    assert sorted(p.name for p in folder.iterdir()) == ["000001.jsonl"]
    assert (folder / "000001.jsonl").read_bytes() == damaged
    devices.close()


def test_a_journal_folder_that_cannot_be_opened_is_shown_the_same_way(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The journal's folder name is taken by a file (a copy gone wrong): the folder cannot be made, an
    OSError, not damage; the same message on every display, the daemon up until stopped, then status 2."""
    (tmp_path / "table.toml").write_text(CONFIG)
    folder = folder_for(tmp_path / "state" / "journal.jsonl")
    folder.parent.mkdir()
    folder.write_bytes(b"not a folder")
    status, messages, devices = run_until_ready(tmp_path, monkeypatch)
    assert status == JOURNAL_REFUSED
    assert messages[:2] == ["READY=1", f"STATUS=cannot open the journal {folder}: File exists (EEXIST)"]
    expected = render_dealer(DealerView(0, "JOURNAL UNREADABLE", alerts=(Alert(
        "JOURNAL", f"cannot open the journal {folder}: File exists (EEXIST). Check the SD card, then restart "
                   "the table"),)))
    assert screen(devices, devices.config.dealer.display) == expected.tobytes()
    assert folder.read_bytes() == b"not a folder"
    devices.close()


# --- start-up verifies what it relies on (issue 23, item 7b) ---------------------------------------------------

SCRIPT = scripted_session(seed=12, hands=6)
STARTS = [n for n, e in enumerate(SCRIPT) if e["type"] == "start"]


def evening(tmp_path: Path, upto: int) -> Path:
    """The daemon's journal folder after SCRIPT[:upto], written by its own controller; returns the folder."""
    (tmp_path / "table.toml").write_text(CONFIG)
    config = load(tmp_path / "table.toml")
    journal, recovered = JournalFolder.open(config.journal, Table.from_snapshot)
    controller = Controller(config, FakeDevices(config), journal, decks=FakeDecks())
    controller.replay(recovered.entries, recovered)
    for entry in SCRIPT[1:upto]:                 # the first start-up journaled the config's table: SCRIPT[0]
        assert controller.submit(entry).accepted, entry
    controller.close()
    journal.close()
    return folder_for(config.journal)


def start_up(tmp_path: Path) -> tuple[int, Controller | None, FakeDevices]:
    """``serve`` once over the folder, stopped as soon as it is ready; the controller if the table started."""
    config = load(tmp_path / "table.toml")
    devices = FakeDevices(config)
    seen: list[Controller] = []

    async def run() -> int:
        stop = asyncio.Event()

        def ready() -> None:
            asyncio.get_running_loop().call_soon(stop.set)

        return await serve(config, devices, shoe_url="loop://", stop=stop, started=seen.append, ready=ready)

    status = asyncio.run(run())
    return status, (seen[0] if seen else None), devices


def table_now(table: Table) -> dict[str, Any]:
    snapshot = table.snapshot()
    snapshot["inputs"] = untimed(snapshot["inputs"])
    return snapshot


def reference(inputs: list[dict[str, Any]]) -> dict[str, Any]:
    table = Table()
    for entry in inputs:
        table.apply(entry)
    return table_now(table)


def journal_alerts(controller: Controller) -> list[str]:
    return [a.message for a in controller.alerts if a.rule == "JOURNAL"]


@pytest.mark.parametrize("damage", ["torn", "swapped", "doubled"])
def test_damage_in_an_old_segment_is_found_at_start_up_and_the_dealer_told(
        tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture) -> None:
    """Segment 3 (hand 2) is closed and older than the newest checkpoint (7): start-up does not replay it, yet
    it is the evening's record (hand histories, ``replay --journal``). A last line cut short, two lines
    swapped, a line doubled: each is found (checkpoint 4 recorded the segment's SHA-256), the table plays
    on from checkpoint 7, and the dealer is told which file, with one instruction."""
    folder = evening(tmp_path, STARTS[5] + 4)
    segment = folder / "000003.jsonl"
    lines = segment.read_bytes().splitlines(keepends=True)
    if damage == "torn":
        segment.write_bytes(b"".join(lines)[:-10])
        found = f"000003.jsonl: the last line is incomplete (line {len(lines)})"
    elif damage == "swapped":
        lines[2], lines[3] = lines[3], lines[2]
        segment.write_bytes(b"".join(lines))
        found = ("000003.jsonl: not as written (a line changed, moved, doubled or removed since "
                 "000004.checkpoint.json recorded it)")
    else:
        segment.write_bytes(b"".join([*lines[:3], lines[2], *lines[3:]]))
        found = ("000003.jsonl: not as written (a line changed, moved, doubled or removed since "
                 "000004.checkpoint.json recorded it)")
    status, controller, devices = start_up(tmp_path)
    assert status == 0 and controller is not None
    assert table_now(controller.table) == reference(SCRIPT[:STARTS[5] + 4])
    assert journal_alerts(controller) == [
        f"Journal damaged in an old hand: {found}. Copy the journal folder away after the session"]
    assert any(r.levelname == "WARNING" and f"{folder}/{found}" in r.getMessage() for r in caplog.records)
    devices.close()


def test_a_checkpoint_edited_with_its_hash_recomputed_is_not_trusted(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The newest checkpoint (7) edited by hand, a stack changed and its SHA-256 recomputed: start-up replays
    segment 6 from checkpoint 6 and finds another table, so it starts from checkpoint 6 (one hand more to
    replay) and the table is the journal's, not the edit's."""
    folder = evening(tmp_path, STARTS[5] + 4)
    newest = folder / "000007.checkpoint.json"
    document = json.loads(newest.read_bytes())
    body = {k: v for k, v in document.items() if k != "sha256"}
    text = json.dumps(body["table"]["state"])
    stack = re.search(r'"stack": (\d+)', text)
    assert stack is not None
    body["table"]["state"] = json.loads(text.replace(stack.group(0), f'"stack": {int(stack.group(1)) + 500}', 1))
    newest.write_text(json.dumps({**body, "sha256": checksum(body)}))
    status, controller, devices = start_up(tmp_path)
    assert status == 0 and controller is not None
    assert table_now(controller.table) == reference(SCRIPT[:STARTS[5] + 4])
    assert any(f"checkpoint {newest} is not usable (it does not match the journal" in r.getMessage()
               for r in caplog.records)
    devices.close()


def test_a_line_doubled_in_a_segment_start_up_replays_refuses_to_start(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The newest checkpoint (7) is whole but not a table the engine takes, so start-up must replay segment 6
    from checkpoint 6; segment 6 has a line doubled since checkpoint 7 recorded it. The table would not be
    the one that was played, so the daemon does not start it (item 7c; run by hand here: it says so and
    exits 2 at once)."""
    folder = evening(tmp_path, STARTS[5] + 4)
    newest = folder / "000007.checkpoint.json"
    document = json.loads(newest.read_bytes())
    body = {k: v for k, v in document.items() if k != "sha256"}
    body["table"]["inputs"] = [{"type": "act", "seat": 9, "action": "fold"}]
    newest.write_text(json.dumps({**body, "sha256": checksum(body)}))
    segment = folder / "000006.jsonl"
    lines = segment.read_bytes().splitlines(keepends=True)
    segment.write_bytes(b"".join([*lines[:2], lines[1], *lines[2:]]))
    status, controller, devices = start_up(tmp_path)
    assert status == JOURNAL_REFUSED and controller is None
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == [
        f"journal damaged: {segment}: not as written (a line changed, moved, doubled or removed since "
        "000007.checkpoint.json recorded it); start-up needs it (it comes after the last usable checkpoint)"]
    devices.close()


def test_start_up_removes_the_temporary_files_of_checkpoints_a_kill_cut_short(tmp_path: Path) -> None:
    folder = evening(tmp_path, STARTS[2] + 2)
    stale = [folder / "000003.checkpoint.json.tmp", folder / "000004.checkpoint.json.tmp"]
    for path in stale:
        path.write_bytes(b'{"format": 1, "segment": 3, "sh')
    status, controller, devices = start_up(tmp_path)
    assert status == 0 and controller is not None
    assert not any(path.exists() for path in stale)
    assert not list(folder.glob("*.tmp"))
    devices.close()


def test_an_older_checkpoint_edited_with_its_hash_recomputed_is_not_a_fallback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Checkpoint 6 edited (a stack changed, its SHA-256 recomputed) and the newest, 7, not a table the engine
    takes: start-up falls back past 6, which no longer matches what 7 recorded of its bytes, to checkpoint 5,
    and the table is the journal's."""
    folder = evening(tmp_path, STARTS[5] + 4)
    older = folder / "000006.checkpoint.json"
    document = json.loads(older.read_bytes())
    body = {k: v for k, v in document.items() if k != "sha256"}
    text = json.dumps(body["table"]["state"])
    stack = re.search(r'"stack": (\d+)', text)
    assert stack is not None
    body["table"]["state"] = json.loads(text.replace(stack.group(0), f'"stack": {int(stack.group(1)) + 500}', 1))
    older.write_text(json.dumps({**body, "sha256": checksum(body)}))
    newest = folder / "000007.checkpoint.json"         # whole (its record of 6 readable), not a table
    document = json.loads(newest.read_bytes())
    body = {k: v for k, v in document.items() if k != "sha256"}
    body["table"]["inputs"] = [{"type": "act", "seat": 9, "action": "fold"}]
    newest.write_text(json.dumps({**body, "sha256": checksum(body)}))
    status, controller, devices = start_up(tmp_path)
    assert status == 0 and controller is not None
    assert table_now(controller.table) == reference(SCRIPT[:STARTS[5] + 4])
    assert any(f"checkpoint {older} is not usable (it does not match what 000007.checkpoint.json recorded of it"
               in r.getMessage() for r in caplog.records)
    devices.close()
