"""The phone's tap to answer (issue 19): how long from a finger on the table-first page to the page showing
the table's answer, against the daemon's own round trip for the same inputs, in one run.

    .venv/bin/python bench/bench_phone_taps.py [--rounds 50]

``dealerpi run --fake`` and ``dealerpi console`` as separate processes (as systemd runs them) on a 3-seat table,
three players seated, a hand started; the host's page in Debian's Chromium (headless, 390x844, touch). Each
round taps a card in the bar's picker (rank, then suit: the suit's tap sends the card) and then UNDO twice
(the second tap confirms and sends it). A tap's time runs from the page's ``pointerdown`` to the answer drawn
(the toast filled with the table's answer: page -> console -> daemon socket -> journal fsync -> engine -> views
-> console -> page, and the view's change rendered). The daemon's round trip: the same card and undo sent
over its Unix socket by this script (the journal's fsync included), between the page's rounds.
Prints p50 and p99 of each, and their ratio.
"""

from __future__ import annotations

import argparse
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dealerpi.wire.protocol import Decoder, encode  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
TABLE = """
devices = "fake"
journal = "state/journal.jsonl"
decks = "decks"

[table]
game = "nlhe"
rules = "home"
seats = 3
blinds = [1, 3]

[[seats]]
seat = 1
buttons = { fold = "GPIO4", call = "GPIO5", bet = "GPIO6" }
display = { bus = 1, address = 0x3C }

[[seats]]
seat = 2
buttons = { fold = "GPIO9", call = "GPIO10", bet = "GPIO11" }
display = { bus = 1, address = 0x3D }

[[seats]]
seat = 3
buttons = { fold = "GPIO14", call = "GPIO15", bet = "GPIO16" }
display = { bus = 3, address = 0x3C }

[dealer]
buttons = { start = "GPIO19", exposed = "GPIO20", misdeal = "GPIO21", undo = "GPIO22", confirm = "GPIO23" }
display = { bus = 3, address = 0x3D }

[console]
socket = "run/api.sock"
state = "console"
listen = "127.0.0.1:0"
"""
# in the page: the time of each pointerdown, and of each answer drawn in the toast
PROBE = """() => {
  window.bench = {taps: [], answers: []};
  document.addEventListener("pointerdown", () => window.bench.taps.push(performance.now()), true);
  new MutationObserver(() => window.bench.answers.push(performance.now()))
    .observe(document.getElementById("toast"), {childList: true});
}"""


def start(command: list[str], log: Path, pattern: str) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "dealerpi", *command], stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while not re.search(pattern, log.read_text()):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise SystemExit(f"dealerpi {command[0]} did not start:\n{log.read_text()}")
        time.sleep(0.05)
    return process


class Link:
    """The daemon's socket as the host."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(path))
        self.decoder, self.number = Decoder(), 0
        self.request("hello", {"role": "host"})

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.number += 1
        self.sock.sendall(encode({"id": self.number, "method": method, "params": params}))
        while True:
            for message in self.decoder.feed(self.sock.recv(65536)):
                if message.get("id") == self.number:
                    return message

    def send(self, entry: dict[str, Any], confirm: bool = False) -> None:
        answer = self.request("input", {"entry": entry, "confirm": confirm})
        assert answer.get("result", {}).get("accepted"), answer


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=50)
    rounds = parser.parse_args().rounds
    folder = Path(tempfile.mkdtemp(prefix="bench-phone-"))
    config = folder / "table.toml"
    config.write_text(TABLE)
    daemon = start(["run", "--fake", "--config", str(config), "--shoe", "loop://"], folder / "daemon.log",
                   r"dealerpi ready")
    console = start(["console", "--config", str(config)], folder / "console.log", r"DealerPi console on")
    try:
        urls = dict(line.split(" ", 1) for line in (folder / "console" / "pairing.txt").read_text().splitlines())
        link = Link(folder / "run" / "api.sock")
        for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
            link.send({"type": "sit", "seat": seat, "player": name, "stack": 100})
        link.send({"type": "start"})
        page_ms: list[float] = []
        socket_ms: list[float] = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
            page = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                       is_mobile=True).new_page()
            page.goto(urls["host"])
            page.wait_for_selector("#bar [data-rank='A']")
            page.evaluate(PROBE)

            def timed(tap: str) -> None:
                before = page.evaluate("window.bench.answers.length")
                page.tap(tap)
                page.wait_for_function(f"window.bench.answers.length > {before}")
                page_ms.append(page.evaluate("window.bench.answers.at(-1) - window.bench.taps.at(-1)"))
                page.tap("#toast .toast-ok")                      # read: the finger takes it away

            for _ in range(rounds):
                page.tap("#bar [data-rank='A']")
                timed("#bar [data-suit='s']")                     # the suit's tap sends As
                page.tap("#bar button[data-key=tf-undo]")
                timed("#bar button[data-key=tf-undo]")            # the confirming tap sends the undo
                for entry, confirm in (({"type": "card", "card": "Kd"}, False), ({"type": "undo"}, True)):
                    began = time.perf_counter()
                    link.send(entry, confirm)
                    socket_ms.append((time.perf_counter() - began) * 1000)
            browser.close()
        page_p50, page_p99 = percentiles(page_ms)
        sock_p50, sock_p99 = percentiles(socket_ms)
        print(f"{len(page_ms)} taps, {len(socket_ms)} socket inputs")
        print(f"tap -> answer on the phone page: p50 {page_p50:.1f} ms, p99 {page_p99:.1f} ms")
        print(f"the daemon's socket round trip:  p50 {sock_p50:.1f} ms, p99 {sock_p99:.1f} ms")
        print(f"ratio page / socket: p50 x{page_p50 / sock_p50:.2f}, p99 x{page_p99 / sock_p99:.2f}")
    finally:
        for process in (console, daemon):
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    main()
