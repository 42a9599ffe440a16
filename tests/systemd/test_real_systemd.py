"""Issue 23: DealerPi under a real systemd as PID 1 (a Debian bookworm VM, vm_kit.py), installed by
docs/install-pi.md's steps, checked for what only systemd shows.

Slow (minutes: the VM runs under QEMU's TCG where KVM cannot boot a guest), so it is left out of the default
run (pyproject's ``-m "not slow"``); run it as root with

    .venv/bin/python -m pytest tests/systemd -m vm -v

It needs debootstrap, qemu-system-x86 and e2fsprogs (Debian packages) and fails, naming what is missing,
without them. The first run debootstraps the root into /var/cache/dealerpi-test-root (a few minutes).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from vm_kit import Run, boot, missing_tools

pytestmark = [pytest.mark.slow, pytest.mark.vm]


@pytest.fixture(scope="module")
def run() -> Iterator[Run]:
    missing = missing_tools()
    assert not missing, f"the real-systemd test needs {', '.join(missing)} (tests/systemd/test_real_systemd.py)"
    # Not pytest's tmp_path: other pytest runs on the machine prune /tmp/pytest-of-<user>/ while the guest
    # still writes there; the 3 GB image goes in /var/tmp and is removed afterwards.
    with tempfile.TemporaryDirectory(dir="/var/tmp", prefix="dealerpi-vm-") as work:
        result = boot(Path(work))
    print(f"\nVM run: {result.seconds:.0f} s from power-on to power-off; what the probe saw:")
    for key, value in result.facts.items():
        print(f"  {key}: {json.dumps(value)}")
    yield result


def _fact(run: Run, key: str) -> Any:
    assert key in run.facts, (f"the probe did not report {key!r}; errors: "
                              f"{ {k: v for k, v in run.facts.items() if k.startswith('error')} }\n"
                              + run.console[-3000:])
    return run.facts[key]


def test_probe_ran_to_the_end(run: Run) -> None:
    assert _fact(run, "done") is True
    assert [key for key in run.facts if key.startswith("error")] == []


def test_type_notify_service_is_active_after_ready(run: Run) -> None:
    """Type=notify: systemd counts the unit started (active/running) only on READY=1; the watchdog is armed."""
    unit = _fact(run, "dealerpi")
    assert (unit["Type"], unit["ActiveState"], unit["SubState"]) == ("notify", "active", "running")
    assert unit["WatchdogUSec"] == "10s"
    assert unit["NRestarts"] == "0"
    assert int(unit["ActiveEnterTimestampMonotonic"]) > int(unit["ExecMainStartTimestampMonotonic"]) > 0


def test_modules_load_file_loads_cdc_acm_and_i2c_dev_at_boot(run: Run) -> None:
    """Item 1: systemd/modules-load-dealerpi.conf, installed as /etc/modules-load.d/dealerpi.conf, had
    systemd-modules-load load cdc_acm and i2c-dev, so their majors were in /proc/devices before the unit."""
    assert _fact(run, "modules_load") == {"ActiveState": "active", "Result": "success"}
    modules = _fact(run, "modules")
    assert modules["cdc_acm"] and modules["i2c_dev"] and modules["usbserial"]
    assert {"ttyACM", "i2c", "ttyUSB"} <= set(_fact(run, "proc_devices"))


def test_udev_rule_gives_the_i2c_bus_to_the_i2c_group(run: Run) -> None:
    """Item 4: on plain Debian, systemd/99-dealerpi-gpio.rules gives /dev/i2c-N to the i2c group made in step 6."""
    assert _fact(run, "nodes")["/dev/i2c-0"] == {"mode": "0o660", "owner": "root", "group": "i2c", "socket": False,
                                                 "char": True}


def test_the_journal_is_written_inside_the_sandbox(run: Run) -> None:
    """ProtectSystem=strict leaves the StateDirectory writable: the journal folder exists, owned by dealerpi."""
    assert _fact(run, "nodes")["/var/lib/dealerpi/journal"]["owner"] == "dealerpi"
    assert any(name.endswith(".jsonl") for name in _fact(run, "journal_files"))


def test_console_socket_permissions(run: Run) -> None:
    """/run/dealerpi is 0750 dealerpi:dealerpi, the socket 0660: the console's user (in the dealerpi group) can
    connect, another user cannot even reach it."""
    nodes = _fact(run, "nodes")
    assert nodes["/run/dealerpi"] == {"mode": "0o750", "owner": "dealerpi", "group": "dealerpi", "socket": False,
                                      "char": False}
    assert nodes["/run/dealerpi/api.sock"] == {"mode": "0o660", "owner": "dealerpi", "group": "dealerpi",
                                               "socket": True, "char": False}
    assert _fact(run, "console")["ActiveState"] == "active"
    assert _fact(run, "connect_as_dealerpi-console") == ["connected"]
    assert _fact(run, "connect_as_nobody") == ["PermissionError: [Errno 13] Permission denied"]


def test_watchdog_restarts_a_hung_daemon(run: Run) -> None:
    """SIGSTOP: no WATCHDOG=1 for WatchdogSec=10; systemd kills it (SIGABRT after SIGCONT) and Restart=on-failure
    starts a new one, which is active again (READY=1) under a new pid."""
    after = _fact(run, "after_sigstop")
    assert after["seconds"] is not None, after
    assert after["ActiveState"] == "active" and after["MainPID"] != after["before"]["MainPID"]
    assert int(after["NRestarts"]) == int(after["before"]["NRestarts"]) + 1
    assert any("Watchdog timeout" in line for line in _fact(run, "after_sigstop_log"))


def test_sigkill_restarts_with_the_journal_intact(run: Run) -> None:
    """SIGKILL: Restart=on-failure brings it back; every journal byte written before the kill is still there."""
    after = _fact(run, "after_sigkill")
    assert after["seconds"] is not None, after
    assert after["ActiveState"] == "active" and int(after["NRestarts"]) == int(after["before"]["NRestarts"]) + 1
    assert _fact(run, "bet_presses")[0] is True
    journal = _fact(run, "journal_after_sigkill")
    # the table input, then a seat taken by each BET on seats 1-3 (docs/install-pi.md step 9)
    assert journal["files_before"] >= 1 and journal["lines_before"] == 4, journal
    assert journal["kept"] is True and journal["lines_after"] >= journal["lines_before"]


def test_shoe_refused_by_the_sandbox_when_cdc_acm_was_not_loaded(run: Run) -> None:
    """Item 1's fault, shown: without cdc_acm when the unit starts, DeviceAllow=char-ttyACM allows nothing
    (bpf_devices_allow_list_major finds no "ttyACM" in /proc/devices), so the service gets EPERM on the shoe;
    root outside the sandbox gets ENXIO (the driver, autoloaded, has no device there). Item 2: the doctor's
    sandbox mode fails on it the same way, with the fix."""
    assert _fact(run, "acm_unloaded_in_proc_devices") is False
    log = _fact(run, "acm_unloaded_service_log")
    assert log and "[Errno 1] Operation not permitted: '/dev/ttyACM0'" in log[0], log
    doctor = _fact(run, "acm_unloaded_doctor")
    assert doctor["status"] == 1
    assert ("FAIL  shoe in the sandbox: /dev/ttyACM0: the unit's sandbox refuses it (Operation not permitted): "
            "DeviceAllow=char-ttyACM/char-ttyUSB found no such driver in /proc/devices when the unit started; "
            "install systemd/modules-load-dealerpi.conf as /etc/modules-load.d/dealerpi.conf and reboot "
            "(docs/install-pi.md step 8)") in doctor["lines"]
    assert _fact(run, "acm_root_open") == "No such device or address"


def test_shoe_plugged_in_after_the_unit_started_stays_refused_until_a_restart(run: Run) -> None:
    """The shoe's driver loaded after the unit started (a shoe plugged in after boot, without the
    modules-load file): "ttyACM" is in /proc/devices now, but the unit's device program was made at its
    start, so the daemon's retries still get EPERM."""
    assert _fact(run, "acm_late_in_proc_devices") is True
    log = _fact(run, "acm_late_service_log")
    assert log and all("Operation not permitted" in line for line in log), log


def test_shoe_allowed_once_cdc_acm_is_loaded_before_the_unit(run: Run) -> None:
    """With cdc_acm loaded when the unit starts, the same node is allowed: the daemon's open and the doctor's
    reach the driver, which has no device there (ENXIO) instead of the sandbox's EPERM."""
    log = _fact(run, "acm_loaded_service_log")
    assert log and "[Errno 6] No such device or address: '/dev/ttyACM0'" in log[0], log
    lines = _fact(run, "acm_loaded_doctor")["lines"]
    shoe = [line for line in lines if "shoe in the sandbox" in line]
    assert shoe == ["WARN  shoe in the sandbox: /dev/ttyACM0: allowed, but no device behind it (No such device or "
                    "address): plugged in?"]
    assert _fact(run, "acm_loaded_doctor")["status"] == 1           # the missing bus 7 and silent 0x3d


def test_doctor_sandbox_tells_a_missing_bus_from_a_silent_display(run: Run) -> None:
    """Item 2: inside the sandbox, /dev/i2c-0 (i2c-stub) opens; 0x3c answers, 0x3d does not ("check its
    cable"), and bus 7 does not exist at all (not "check its cable")."""
    lines = _fact(run, "acm_loaded_doctor")["lines"]
    assert "OK    seat 1 display in the sandbox: /dev/i2c-0 0x3c answers" in lines
    assert ("FAIL  seat 2 display in the sandbox: /dev/i2c-0 0x3d opens but nothing answers: check its cable, "
            "power and address (i2cdetect -y 0)") in lines
    assert ("FAIL  dealer display in the sandbox: no /dev/i2c-7: the kernel has no I2C bus 7 (i2cdetect -l lists "
            "them; dtparam=i2c_arm=on and the i2c-mux overlays in /boot/firmware/config.txt)") in lines
    assert any(line.startswith("OK    sandbox: running as dealerpi (uid ") and "in /var/lib/dealerpi" in line
               for line in lines)
    assert "OK    journal in the sandbox: /var/lib/dealerpi/journal writable" in lines
    assert "OK    lgpio in the sandbox: imported in /var/lib/dealerpi" in lines


def test_exposure_of_the_running_unit(run: Run) -> None:
    line = _fact(run, "security")
    assert len(line) == 1 and line[0].startswith("→ Overall exposure level for dealerpi.service: 0.")



# docs/room.md (the broker and the room) and docs/broadcast.md ("On the Pi") on the same machine as the table

HAND_1 = ["As", "Kd", "7c", "7h", "2s", "3d"]         # guest_probe.HANDS: the hole cards entered by hand
HAND_2 = ["Qs", "Jd", "9c", "8h", "5s", "4d"]


def _active_since_start(unit: dict[str, str]) -> None:
    assert (unit["ActiveState"], unit["SubState"], unit["NRestarts"]) == ("active", "running", "0"), unit
    assert int(unit["ActiveEnterTimestampMonotonic"]) >= int(unit["ExecMainStartTimestampMonotonic"]) > 0


def test_broker_room_and_broadcast_units_are_active_by_their_type(run: Run) -> None:
    """Debian's mosquitto is Type=notify (active only on its READY=1) and listens on docs/room.md's
    ``listener 1883 0.0.0.0``; the room's and the broadcast's units are Type=exec (active once their
    ExecStart ran), both running with no restart since boot."""
    mosquitto = _fact(run, "unit_mosquitto")
    assert mosquitto["Type"] == "notify"
    _active_since_start(mosquitto)
    assert _fact(run, "mosquitto_listens") == ["00000000:075B"]        # 0.0.0.0:1883 in /proc/net/tcp
    for name in ("dealerpi-room", "dealerpi-broadcast"):
        unit = _fact(run, f"unit_{name}")
        assert unit["Type"] == "exec", unit
        _active_since_start(unit)


def test_the_room_stores_the_tables_hand_in_sqlite(run: Run) -> None:
    """Hand 1 at table t1 (START, six hole cards by hand, seats 1 and 2 fold: seat 3, the big blind, wins;
    BLD-1's first hand: button 1, small blind 2, big blind 3) goes through the console's bridge and mosquitto
    into the room's SQLite once hand 2 has started (a hand is final then), hole cards included now that it
    is over; hand 2, not final yet, is not there."""
    hand = _fact(run, "hand_1")
    # the big blind's 3 is called by nobody: 2 of it comes back, the pot is the small blind's 1 and 1 (POT-2)
    assert hand == {"accepted": [True] * 7, "folds": [1, 2], "hand": 1, "in_hand": False, "won": {"3": 2}}, hand
    # hand 2: the button moves to 2, blinds 3 and 1 (BLD-1): 2 and 3 fold, seat 1 wins the same 2
    hand = _fact(run, "hand_2")
    assert hand == {"accepted": [True] * 7, "folds": [2, 3], "hand": 2, "in_hand": False, "won": {"1": 2}}, hand
    stored = _fact(run, "room_after_hand_2")["hands"]
    assert [row[:2] for row in stored] == [["t1", 1]], stored
    assert stored[0][3] == HAND_1


def test_the_venue_page_answers_and_the_delayed_feed_refuses_before_its_time(run: Run) -> None:
    """broadcast.toml's listen 0.0.0.0:8791 (not loopback): the venue page with the venue token, 401 without;
    the delayed feed 401 without its own token (the venue's is not enough), and with it only the countdown:
    "waiting" before the first hand, "filling" after it, never a frame before delay_minutes = 30."""
    venue = _fact(run, "venue_page")
    assert venue["token"][0] == 200 and venue["token"][1].startswith("<!doctype html>")
    assert venue["none"][0] == 401
    before = _fact(run, "overlay_before")
    assert before["none"] == {"opened": False, "status": 401}
    assert before["venue_token"] == {"opened": False, "status": 401}
    assert before["broadcast_token"] == {"opened": True, "first": {"type": "status", "status": {
        "state": "waiting", "delay_s": 1800}}}
    after = _fact(run, "overlay_after_hand_1")["first"]
    assert after["type"] == "status" and after["status"]["state"] == "filling", after
    assert after["status"]["delay_s"] == 1800 and 0 < after["status"]["seconds_left"] <= 1800


def test_the_room_survives_a_sigkill_with_no_hand_lost(run: Run) -> None:
    """SIGKILL to the room, then hand 3 at once (its start makes hand 2 final): Restart=on-failure brings the
    room back, and hand 2 (received live or asked for again on reconnect, docs/room.md "After an outage") is
    stored beside hand 1, each once."""
    after = _fact(run, "room_after_sigkill")
    assert after["seconds"] is not None, after
    assert after["ActiveState"] == "active" and int(after["NRestarts"]) == int(after["before"]["NRestarts"]) + 1
    assert _fact(run, "hand_3")["hand"] == 3 and _fact(run, "hand_3")["in_hand"] is False
    stored = _fact(run, "room_after_hand_3")["hands"]
    assert [row[:2] for row in stored] == [["t1", 1], ["t1", 2]], stored
    assert stored[1][3] == HAND_2
    assert [row[:2] for row in _fact(run, "room_hands_after_broadcast_kill")] == [["t1", 1], ["t1", 2]]


def test_the_broadcast_survives_a_sigkill_with_its_delayed_hour_kept(run: Run) -> None:
    """SIGKILL to the broadcast: restarted, its state folder (the session and its inputs, the tokens) kept
    byte for byte, the venue page back, and the delayed feed still counting down the same session
    ("filling", not "waiting" again: the restart did not lose the hands it holds)."""
    after = _fact(run, "broadcast_after_sigkill")
    assert after["seconds"] is not None, after
    assert after["ActiveState"] == "active" and int(after["NRestarts"]) == int(after["before"]["NRestarts"]) + 1
    state = _fact(run, "broadcast_state_after_sigkill")
    assert {"events.jsonl", "session.json", "tokens.json"} <= set(state["kept"]), state
    assert all(state["kept"].values()), state
    assert state["venue"] == 200
    assert state["overlay"]["first"]["status"]["state"] == "filling", state


def test_the_sandboxes_let_each_write_its_own_state_and_nothing_else(run: Run) -> None:
    """ProtectSystem=strict, ReadOnlyPaths= and StateDirectory=, tried inside each running unit's own mount and
    user namespaces as its user: its StateDirectory is writable, nothing else is. The broadcast runs as the
    journal's owner (dealerpi, mode 0640 in 0750): only its sandbox (ReadOnlyPaths=/var/lib/dealerpi) keeps
    it from the table's journal, so that must be EROFS; elsewhere a read-only mount (EROFS) or a folder not
    theirs (EACCES) refuses."""
    broadcast = _fact(run, "sandbox_broadcast")
    segment = [path for path in broadcast if path.startswith("/var/lib/dealerpi/journal/0")]
    assert len(segment) == 1 and broadcast[segment[0]] == "EROFS", broadcast
    assert broadcast["/var/lib/dealerpi/journal/probe-write"] == "EROFS", broadcast
    assert broadcast["/etc/dealerpi/probe-write"] == "EROFS", broadcast
    assert broadcast.pop("/var/lib/dealerpi-broadcast/probe-write") == "written", broadcast
    assert set(broadcast.values()) <= {"EROFS", "EACCES"} and len(broadcast) == 5, broadcast
    room = _fact(run, "sandbox_room")
    assert room.pop("/var/lib/dealerpi-room/probe-write") == "written", room
    assert set(room.values()) <= {"EROFS", "EACCES"} and len(room) == 5, room


def test_exposure_of_the_room_and_broadcast_units(run: Run) -> None:
    for name in ("dealerpi-room", "dealerpi-broadcast"):
        line = _fact(run, f"security_{name}")
        assert len(line) == 1 and line[0].startswith(f"→ Overall exposure level for {name}.service: 1."), line
