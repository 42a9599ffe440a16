"""Runs inside the test VM (bookworm's python3, stdlib only) as dealerpi-probe.service once the system is up.

It does to the installed units what a host and a fault would, and writes what systemd and the kernel say, one
JSON object per fact, to the serial port named on the command line; the host test asserts on them. It judges
nothing itself: a fact it cannot get is written as the error it got.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

OUT = open(sys.argv[1], "w", buffering=1)  # noqa: SIM115 - the serial port stays open for the whole run
DEALERPI = "/opt/dealerpi/venv/bin/dealerpi"
JOURNAL = Path("/var/lib/dealerpi/journal")


def emit(key: str, value: Any) -> None:
    OUT.write(json.dumps({key: value}) + "\n")
    print(f"probe: {key} = {json.dumps(value)[:300]}", flush=True)


def sh(*command: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


def show(unit: str, *props: str) -> dict[str, str]:
    out = sh("systemctl", "show", unit, *(f"--property={p}" for p in props)).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def unit_log(unit: str, since: str) -> list[str]:
    return sh("journalctl", "--no-pager", "-o", "cat", "-u", unit, "--since", since).stdout.splitlines()


def node(path: str) -> dict[str, Any]:
    try:
        info = os.stat(path)
    except OSError as exc:
        return {"error": exc.strerror}
    import grp
    import pwd
    return {"mode": oct(stat.S_IMODE(info.st_mode)), "owner": pwd.getpwuid(info.st_uid).pw_name,
            "group": grp.getgrgid(info.st_gid).gr_name, "socket": stat.S_ISSOCK(info.st_mode),
            "char": stat.S_ISCHR(info.st_mode)}


def wait_restarted(old_pid: str, limit: float) -> dict[str, Any]:
    """Poll until dealerpi runs again under another pid (and is active, i.e. READY=1 came again)."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        now = show("dealerpi", "MainPID", "ActiveState", "NRestarts")
        if now["MainPID"] not in ("0", old_pid) and now["ActiveState"] == "active":
            return {**now, "seconds": round(time.monotonic() - started, 1)}
        time.sleep(0.5)
    return {**show("dealerpi", "MainPID", "ActiveState", "NRestarts", "Result"), "seconds": None}


def journal_files() -> dict[str, str]:
    return {p.name: p.read_bytes().decode("utf-8", "replace") for p in sorted(JOURNAL.glob("*")) if p.is_file()}


def since_now() -> str:
    time.sleep(1)                         # journalctl --since has one-second steps
    return time.strftime("%Y-%m-%d %H:%M:%S")


def boot_facts() -> None:
    # the probe is Type=exec, so the boot is over without waiting for it
    emit("system", sh("systemctl", "is-system-running", "--wait", timeout=600).stdout.strip())
    emit("dealerpi", show("dealerpi", "ActiveState", "SubState", "Type", "NRestarts", "MainPID", "StatusText",
                          "WatchdogUSec", "Result", "ExecMainStartTimestampMonotonic",
                          "ActiveEnterTimestampMonotonic"))
    emit("dealerpi_log", unit_log("dealerpi", "-10min")[-40:])
    emit("console", show("dealerpi-console", "ActiveState", "SubState", "Result"))
    emit("modules_load", show("systemd-modules-load", "ActiveState", "Result"))
    emit("modules", {m: Path(f"/sys/module/{m}").exists() for m in ("cdc_acm", "i2c_dev", "i2c_stub", "usbserial")})
    devices = Path("/proc/devices").read_text().split("Block devices:")[0]
    emit("proc_devices", sorted(line.split()[1] for line in devices.splitlines()[1:] if line.strip()))
    emit("nodes", {path: node(path) for path in ("/dev/i2c-0", "/run/dealerpi",
                                                 "/run/dealerpi/api.sock", str(JOURNAL))})
    emit("journal_files", sorted(journal_files()))
    connect = ("import socket; s = socket.socket(socket.AF_UNIX); s.connect('/run/dealerpi/api.sock'); "
               "print('connected')")
    for user in ("dealerpi-console", "nobody"):
        done = sh("runuser", "-u", user, "--", "python3", "-c", connect)
        emit(f"connect_as_{user}", (done.stdout + done.stderr).strip().splitlines()[-1:])
    emit("security", sh("systemd-analyze", "security", "dealerpi.service").stdout.strip().splitlines()[-1:])


def press_bet(seats: list[int]) -> list[Any]:
    """BET on each seat through the daemon's socket as the virtual-hardware panel (fake devices only): each
    sits a player, a journal input each (docs/console.md's protocol: JSON, each message ended by 0x03)."""
    import socket

    answers = []
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(20)
        conn.connect("/run/dealerpi/api.sock")
        buffer = b""

        def ask(rid: int, method: str, params: dict[str, Any]) -> Any:
            nonlocal buffer
            conn.sendall(json.dumps({"id": rid, "method": method, "params": params}).encode() + b"\x03")
            while True:
                while b"\x03" in buffer:
                    frame, buffer = buffer.split(b"\x03", 1)
                    message = json.loads(frame)
                    if message.get("id") == rid:
                        return message.get("result", message.get("error"))
                buffer += conn.recv(65536)

        answers.append(bool(ask(1, "hello", {"role": "panel"})))
        for number, seat in enumerate(seats, start=2):
            answers.append(ask(number * 10, "press", {"where": seat, "button": "bet"}))
            time.sleep(0.3)
            answers.append(ask(number * 10 + 1, "release", {"where": seat, "button": "bet"}))
            time.sleep(0.5)
    return answers


def watchdog_and_kill() -> None:
    before = show("dealerpi", "MainPID", "NRestarts")
    since = since_now()
    os.kill(int(before["MainPID"]), signal.SIGSTOP)
    emit("after_sigstop", {"before": before, **wait_restarted(before["MainPID"], 120)})
    emit("after_sigstop_log", [line for line in sh("journalctl", "--no-pager", "-o", "cat", "--since", since)
                               .stdout.splitlines() if "dealerpi.service" in line][:12])
    time.sleep(3)
    emit("bet_presses", press_bet([1, 2, 3]))
    time.sleep(2)
    files = journal_files()
    before = show("dealerpi", "MainPID", "NRestarts")
    since = since_now()
    os.kill(int(before["MainPID"]), signal.SIGKILL)
    emit("after_sigkill", {"before": before, **wait_restarted(before["MainPID"], 120)})
    after = journal_files()
    emit("journal_after_sigkill", {"files_before": len(files),
                                   "lines_before": sum(t.count("\n") for t in files.values()),
                                   "kept": all(after.get(name, "").startswith(text) for name, text in files.items()),
                                   "lines_after": sum(t.count("\n") for t in after.values())})
    emit("after_sigkill_log", [line for line in sh("journalctl", "--no-pager", "-o", "cat", "--since", since)
                               .stdout.splitlines() if "dealerpi" in line][:16])


def shoe_log(since: str, wanted: str, limit: float) -> list[str]:
    """The daemon's lines about the shoe since ``since`` that contain ``wanted``, polled for up to ``limit``
    seconds (the shoe link retries with a growing delay, up to 30 s)."""
    started = time.monotonic()
    while True:
        found = [line for line in unit_log("dealerpi", since) if "ttyACM0" in line and wanted in line]
        if found or time.monotonic() - started > limit:
            return found[:3]
        time.sleep(2)


def doctor_sandbox(tag: str) -> None:
    done = sh(DEALERPI, "doctor", "--config", "/etc/dealerpi/doctor-pi.toml", "--sandbox", "--config-txt",
              "/nonexistent", timeout=300)
    emit(f"{tag}_doctor", {"status": done.returncode, "lines": done.stdout.splitlines(),
                           "stderr": done.stderr.splitlines()[-8:]})
    emit(f"{tag}_doctor_unit_log", sh("journalctl", "--no-pager", "-o", "cat", "-n", "15", "-u",
                                      "dealerpi-doctor-sandbox").stdout.splitlines())


def shoe_on_acm() -> None:
    """The shoe on /dev/ttyACM0 (a node made by hand; no USB device behind it) while cdc_acm is or is not
    loaded when the units start: the service's own error, the doctor's sandbox mode, and an open as root.

    The root open comes last in each case: opening a char-major-166 node outside the sandbox makes the
    kernel load cdc_acm by itself (its char-major-166-* alias), while a sandboxed open is refused first."""
    # stopped first: the running daemon's retries would open the node, and an allowed open of a major-166
    # node makes the kernel load cdc_acm again at once
    sh("systemctl", "stop", "dealerpi")
    sh("modprobe", "-r", "cdc_acm")
    emit("acm_unloaded_in_proc_devices", "ttyACM" in Path("/proc/devices").read_text())
    since = since_now()
    sh("systemctl", "start", "dealerpi")
    emit("acm_unloaded_service_log", shoe_log(since, "attempt 1 failed", 60))
    doctor_sandbox("acm_unloaded")
    # the shoe plugged in after the unit started: udev loads cdc_acm, ttyACM is in /proc/devices now, but the
    # unit's device program was made at its start and still refuses the shoe until a restart
    sh("modprobe", "cdc_acm")
    emit("acm_late_in_proc_devices", "ttyACM" in Path("/proc/devices").read_text())
    since = since_now()
    emit("acm_late_service_log", shoe_log(since, "failed", 75))     # the link's next retry, same process
    since = since_now()
    sh("systemctl", "restart", "dealerpi")
    emit("acm_loaded_service_log", shoe_log(since, "attempt 1 failed", 60))    # the new process's first open
    doctor_sandbox("acm_loaded")
    try:
        os.close(os.open("/dev/ttyACM0", os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK))
        emit("acm_root_open", "opened")
    except OSError as exc:
        emit("acm_root_open", exc.strerror)


def main() -> None:
    for step in (boot_facts, watchdog_and_kill):
        try:
            step()
        except Exception as exc:  # the host test says which fact is missing; this says why
            emit(f"error_{step.__name__}", repr(exc))
    try:
        os.mknod("/dev/ttyACM0", 0o660 | stat.S_IFCHR, os.makedev(166, 0))
        sh("chgrp", "dialout", "/dev/ttyACM0")
        os.chmod("/dev/ttyACM0", 0o660)            # as udev makes it (mknod applied the umask)
        shoe_on_acm()
    except Exception as exc:
        emit("error_shoe_on_acm", repr(exc))
    emit("done", True)


if __name__ == "__main__":
    main()
