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


def wait_restarted(old_pid: str, limit: float, unit: str = "dealerpi") -> dict[str, Any]:
    """Poll until the unit runs again under another pid and is active (for Type=notify: READY=1 came again;
    for Type=exec: the new ExecStart's execve succeeded)."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        now = show(unit, "MainPID", "ActiveState", "NRestarts")
        if now["MainPID"] not in ("0", old_pid) and now["ActiveState"] == "active":
            return {**now, "seconds": round(time.monotonic() - started, 1)}
        time.sleep(0.5)
    return {**show(unit, "MainPID", "ActiveState", "NRestarts", "Result"), "seconds": None}


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


UNIT_PROPS = ("Type", "ActiveState", "SubState", "Result", "NRestarts", "MainPID", "ExecMainStartTimestampMonotonic",
              "ActiveEnterTimestampMonotonic")
ROOM_DB = "/var/lib/dealerpi-room/room.sqlite"
BROADCAST_STATE = Path("/var/lib/dealerpi-broadcast")
# What each hand deals by hand (the shoe is offline here): hole cards for seats 1-3, known so that the room's
# copy can be checked for them
HANDS = {1: ["As", "Kd", "7c", "7h", "2s", "3d"], 2: ["Qs", "Jd", "9c", "8h", "5s", "4d"],
         3: ["Th", "9d", "6c", "5h", "4s", "2d"]}
# The venv's Python (aiohttp) for the overlay's WebSocket: bookworm's own python3 has no WebSocket client
OVERLAY = """
import asyncio, json, sys
import aiohttp
async def main():
    async with aiohttp.ClientSession() as http:
        try:
            async with http.ws_connect(sys.argv[1], timeout=30) as ws:
                message = await ws.receive_json(timeout=60)
                print(json.dumps({"opened": True, "first": message}))
        except aiohttp.WSServerHandshakeError as exc:
            print(json.dumps({"opened": False, "status": exc.status}))
asyncio.run(main())
"""
# Inside a unit's namespaces (nsenter into the main pid's mount and user namespaces) as the unit's user: what
# its sandbox lets it write. Each path: "written" or the error's name.
TRY_WRITE = """
import errno, json, os, sys
seen = {}
for path in sys.argv[1:]:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.close(fd)
        seen[path] = "written"
    except OSError as exc:
        seen[path] = errno.errorcode[exc.errno]
print(json.dumps(seen))
"""


def panel(path: str = "/run/dealerpi/api.sock") -> tuple[Any, Any]:
    """A connection to the daemon's socket as the virtual-hardware panel; ``ask(method, params)``."""
    import socket

    conn = socket.socket(socket.AF_UNIX)
    conn.settimeout(30)
    conn.connect(path)
    buffer = bytearray()
    ids = [0]

    def ask(method: str, params: dict[str, Any]) -> Any:
        ids[0] += 1
        rid = ids[0]
        conn.sendall(json.dumps({"id": rid, "method": method, "params": params}).encode() + b"\x03")
        while True:
            while b"\x03" in buffer:
                end = buffer.index(b"\x03")
                frame = bytes(buffer[:end])
                del buffer[:end + 1]
                message = json.loads(frame)
                if message.get("id") == rid:
                    return message.get("result", message.get("error"))
            buffer.extend(conn.recv(65536))

    ask("hello", {"role": "panel"})
    return conn, ask


def table_view() -> dict[str, Any]:
    conn, ask = panel()
    with conn:
        return ask("hello", {"role": "panel"})["view"]      # type: ignore[no-any-return]


def play_hand(cards: list[str], on_start: str = "") -> dict[str, Any]:
    """One hand on the seated players (docs/console.md's protocol, the panel's inputs): START, the hole cards
    entered by hand (the shoe is offline), then FOLD on whichever seat's turn it is until the hand is over.
    ``on_start``: a unit whose state is reported as the START is answered."""
    conn, ask = panel()
    with conn:
        answers = [ask("input", {"entry": {"type": "start"}})]
        if on_start:
            emit(f"{on_start}_at_start", show(on_start, "ActiveState", "SubState", "MainPID"))
        answers += [ask("input", {"entry": {"type": "card", "card": card}}) for card in cards]
    folds = []
    for _ in range(8):
        view = table_view()
        if not view["in_hand"]:
            break
        seat = next(int(k) for k, s in view["seats"].items() if s["turn"])
        conn, ask = panel()
        with conn:
            ask("press", {"where": seat, "button": "fold"})
            time.sleep(0.3)
            ask("release", {"where": seat, "button": "fold"})
        folds.append(seat)
        time.sleep(1)
    view = table_view()
    return {"accepted": [bool(a and a.get("accepted")) for a in answers], "folds": folds, "hand": view["hand"],
            "in_hand": view["in_hand"], "won": {k: s["won"] for k, s in view["seats"].items() if s["won"]}}


def room_hands() -> list[Any]:
    """The room's stored hands, read as its user (read-only: root's read would leave root-owned WAL files)."""
    read = ("import json, sqlite3, sys; db = sqlite3.connect(f'file:{sys.argv[1]}?mode=ro', uri=True); "
            "print(json.dumps(db.execute('SELECT tbl, number, seq, phh FROM hands ORDER BY seq').fetchall()))")
    done = sh("runuser", "-u", "dealerpi-room", "--", "python3", "-c", read, ROOM_DB)
    if done.returncode:
        return [done.stderr.strip()[-300:]]
    return [[tbl, number, seq, [c for c in HANDS.get(number, []) if c in phh]]
            for tbl, number, seq, phh in json.loads(done.stdout)]


def wait_room_hands(count: int, limit: float) -> dict[str, Any]:
    started = time.monotonic()
    while True:
        hands = room_hands()
        if (len(hands) >= count and all(isinstance(h, list) for h in hands)) or time.monotonic() - started > limit:
            return {"hands": hands, "seconds": round(time.monotonic() - started, 1)}
        time.sleep(2)


def http_status(url: str) -> Any:
    """GET as a browser would: a ``?token=`` page answers by moving the token into a cookie and redirecting
    to the address without it, so the cookie is kept for the redirect."""
    import http.cookiejar
    import urllib.error
    import urllib.request

    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    try:
        with opener.open(url, timeout=60) as answer:
            return [answer.status, answer.read().decode("utf-8", "replace")[:60]]
    except urllib.error.HTTPError as exc:
        return [exc.code, exc.read().decode("utf-8", "replace")[:80]]
    except OSError as exc:
        return [None, repr(exc)]


def overlay_feed(token: str | None) -> Any:
    url = "ws://127.0.0.1:8791/overlay/feed" + (f"?token={token}" if token else "")
    done = sh("/opt/dealerpi/venv/bin/python", "-c", OVERLAY, url, timeout=180)
    return json.loads(done.stdout) if done.returncode == 0 and done.stdout.strip() else done.stderr[-400:]


def sandbox_writes(unit: str, paths: list[str]) -> Any:
    """Try each path inside the unit's own mount and user namespaces, as its user (setpriv drops root)."""
    props = show(unit, "MainPID", "User")
    user = props["User"]
    import pwd

    entry = pwd.getpwnam(user)
    # root's groups dropped before entering: systemd's PrivateUsers= writes "deny" to the namespace's
    # /proc/PID/setgroups, so no setgroups() inside it
    done = sh("setpriv", "--clear-groups", "--", "nsenter", f"--target={props['MainPID']}", "--mount", "--user",
              "--", "setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--keep-groups", "python3",
              "-c", TRY_WRITE, *paths)
    return json.loads(done.stdout) if done.returncode == 0 and done.stdout.strip() else done.stderr[-400:]


def state_files(folder: Path) -> dict[str, str]:
    return {p.name: p.read_bytes().decode("utf-8", "replace") for p in sorted(folder.glob("*")) if p.is_file()}


def room_and_broadcast() -> None:
    """docs/room.md's broker and room, docs/broadcast.md's broadcast, enabled beside the table's units: active
    under their own Type=, the table's hands in the room's SQLite, the venue page and the refused delayed feed,
    a SIGKILL of each (Restart=) with nothing lost, what their sandboxes let them write, their exposure."""
    for unit in ("mosquitto", "dealerpi-room", "dealerpi-broadcast"):
        emit(f"unit_{unit}", show(unit, *UNIT_PROPS))
    # the broker's listener (docs/room.md's conf.d file), from the kernel: a LISTEN (0A) socket on port 1883
    emit("mosquitto_listens", sorted({line.split()[1] for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
                                      if line.split()[1].endswith(":075B") and line.split()[3] == "0A"}))
    tokens = json.loads((BROADCAST_STATE / "tokens.json").read_text())
    emit("venue_page", {"token": http_status(f"http://127.0.0.1:8791/venue?token={tokens['venue']}"),
                        "none": http_status("http://127.0.0.1:8791/venue")})
    emit("overlay_before", {"none": overlay_feed(None), "venue_token": overlay_feed(tokens["venue"]),
                            "broadcast_token": overlay_feed(tokens["broadcast"])})
    emit("hand_1", play_hand(HANDS[1]))
    emit("overlay_after_hand_1", overlay_feed(tokens["broadcast"]))
    # a hand is final, and sent to the room, when the next one starts (an undo may reach back until then:
    # dealerpi/history/final_hands.py)
    emit("hand_2", play_hand(HANDS[2]))
    emit("room_after_hand_2", wait_room_hands(1, 240))
    emit("broadcast_state", {name: len(text.splitlines()) for name, text in state_files(BROADCAST_STATE).items()})
    # the room killed: Restart=on-failure; hand 2, final when hand 3 starts meanwhile, comes live or by the
    # re-sync on reconnect (docs/room.md "After an outage")
    before = show("dealerpi-room", "MainPID", "NRestarts")
    os.kill(int(before["MainPID"]), signal.SIGKILL)
    emit("hand_3", play_hand(HANDS[3], on_start="dealerpi-room"))
    emit("room_when_hand_3_ended", show("dealerpi-room", "ActiveState", "SubState", "MainPID"))
    emit("room_after_sigkill", {"before": before, **wait_restarted(before["MainPID"], 180, "dealerpi-room")})
    emit("room_after_hand_3", wait_room_hands(2, 240))
    # the broadcast killed: its state folder (the delayed hour's inputs) kept byte for byte
    kept = state_files(BROADCAST_STATE)
    before = show("dealerpi-broadcast", "MainPID", "NRestarts")
    os.kill(int(before["MainPID"]), signal.SIGKILL)
    emit("broadcast_after_sigkill", {"before": before,
                                     **wait_restarted(before["MainPID"], 180, "dealerpi-broadcast")})
    # Type=exec is active once ExecStart ran; the page answers once its Python has started (tens of seconds
    # under emulation)
    venue = f"http://127.0.0.1:8791/venue?token={tokens['venue']}"
    started = time.monotonic()
    while http_status(venue)[0] is None and time.monotonic() - started < 240:
        time.sleep(2)
    after = state_files(BROADCAST_STATE)
    emit("broadcast_state_after_sigkill", {"kept": {name: after.get(name, "").startswith(text)
                                                    for name, text in kept.items()},
                                           "venue": http_status(venue)[0],
                                           "answered_after": round(time.monotonic() - started, 1),
                                           "overlay": overlay_feed(tokens["broadcast"])})
    emit("room_hands_after_broadcast_kill", room_hands())
    emit("broadcast_log", unit_log("dealerpi-broadcast", "-30min")[-12:])
    emit("room_log", unit_log("dealerpi-room", "-30min")[-12:])
    emit("console_log", [line for line in unit_log("dealerpi-console", "-30min") if "room bridge" in line][-8:])
    segment = sorted(p.name for p in JOURNAL.glob("*.jsonl"))[-1]
    emit("sandbox_broadcast", sandbox_writes("dealerpi-broadcast", [
        "/var/lib/dealerpi-broadcast/probe-write", f"/var/lib/dealerpi/journal/{segment}",
        "/var/lib/dealerpi/journal/probe-write", "/etc/dealerpi/probe-write", "/var/lib/dealerpi-room/probe-write",
        "/opt/dealerpi/probe-write"]))
    emit("sandbox_room", sandbox_writes("dealerpi-room", [
        "/var/lib/dealerpi-room/probe-write", f"/var/lib/dealerpi/journal/{segment}",
        "/var/lib/dealerpi-broadcast/probe-write", "/etc/dealerpi/probe-write",
        "/etc/mosquitto/dealerpi/probe-write", "/opt/dealerpi/probe-write"]))
    for path in ("/var/lib/dealerpi-broadcast/probe-write", "/var/lib/dealerpi-room/probe-write"):
        Path(path).unlink(missing_ok=True)
    for unit in ("dealerpi-room", "dealerpi-broadcast"):
        emit(f"security_{unit}", sh("systemd-analyze", "security", f"{unit}.service").stdout.strip()
             .splitlines()[-1:])


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
    for step in (boot_facts, watchdog_and_kill, room_and_broadcast):
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
