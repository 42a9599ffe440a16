"""Exactly-once card reads through the real link (issue 12, item 1): the daemon process (``dealerpi run
--fake``) reads a fake shoe on a pseudo-terminal and is killed with SIGKILL again and again.

The shoe is the firmware's own logic (tests/shoe/shoe_pty.py) in this process, so its ring of unacknowledged
reads lives on across daemon restarts, as on a powered Pico. Every hand is an all-in bomb pot (POT-12: three
players ante their whole 90, so no betting) and needs exactly 14 reads with no button press (DEAL-3, DEAL-4:
6 hole cards, then burn + 3, burn + 1, burn + 1). The kills come at two kinds of moments:

- *journaled, not acknowledged*: the shoe stops hearing the host (its ACK is lost), the card is dealt, and the
  daemon is killed the moment the card's line is in the journal; after the restart the shoe resends the read;
- *random*: anywhere from before the read arrives to after its ACK.

After each restart the dealt card must be in the journal exactly once. At the end: every read (boot, seq)
journaled once, in order, none lost; the table equals the uninterrupted replay of the same inputs.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from daemon_kit import CONFIG
from shoe_pty import PtyShoe

from dealerpi.engine import Table
from dealerpi.history.journal_replay import Replayed, summary
from dealerpi.journal.folder import JournalFolder, folder_for, read_folder, segments_of

pytestmark = pytest.mark.slow   # the real daemon SIGKILLed again and again: 63 s

ROOT = Path(__file__).resolve().parents[2]
CARDS = [rank + suit for rank in "23456789TJQKA" for suit in "shdc"]
BOMB = {"type": "start", "bomb": {"ante": 90, "boards": 1}}
HANDS = 4
READS_PER_HAND = 14


def uid(card: str, deck: int) -> bytes:
    """A tag of deck ``deck``: each hand uses another enrolled deck, as the shoe's tracker does not count a
    tag seen again within QUIET_MS as a new card (firmware/shoefw/tracker.py)."""
    return bytes([0x04, CARDS.index(card), deck, 0x20, 0x30, 0x40, 0x50])


def new_hand() -> list[dict[str, Any]]:
    """Everyone back to 90 chips (leave and sit again), then an all-in bomb pot: 14 reads and no betting."""
    entries: list[dict[str, Any]] = []
    for seat in (1, 2, 3):
        entries += [{"type": "leave", "seat": seat}, {"type": "sit", "seat": seat, "player": f"P{seat}", "stack": 90}]
    return [*entries, BOMB]


def first_inputs() -> list[dict[str, Any]]:
    return [{"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3], "by": "config"},
            *({"type": "sit", "seat": s, "player": f"P{s}", "stack": 90} for s in (1, 2, 3)),
            {"type": "button", "seat": 1}, BOMB]


def table_after(entries: list[dict[str, Any]]) -> dict[str, Any]:
    replayed = Replayed(Table())
    for entry in entries:
        assert replayed.apply(entry).accepted, entry
    state = summary(replayed)
    return {key: state[key] for key in ("seats", "button", "hands", "next")}


class Daemon:
    """``dealerpi run --fake`` as systemd runs it: READY=1 arrives on a notify socket."""

    def __init__(self, config: Path, shoe: Path, notify: Path) -> None:
        self.config, self.shoe, self.notify_path = config, shoe, notify
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(notify))
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NOTIFY_SOCKET": str(self.notify_path)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dealerpi", "run", "--config", str(self.config), "--fake", "--shoe",
             str(self.shoe)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.starts += 1
        self.sock.settimeout(60)
        while b"READY=1" not in self.sock.recv(4096):
            pass

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        assert self.process.wait(timeout=30) == -signal.SIGKILL

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.sock.close()


@contextlib.contextmanager
def short_dir() -> Iterator[Path]:
    """A Unix socket's path must stay under 108 bytes; pytest's tmp_path can be longer."""
    with tempfile.TemporaryDirectory(prefix="dpi-") as name:
        yield Path(name)


def everything(folder: Path) -> list[dict[str, Any]]:
    """Every input so far; the live segment may end in a line being written (read_folder leaves it out)."""
    return read_folder(folder, Table.from_snapshot).entries


def journaled(folder: Path, seq: int) -> list[dict[str, Any]]:
    return [e for e in everything(folder) if e.get("shoe", {}).get("seq") == seq]


def append(path: Path, entries: list[dict[str, Any]]) -> None:
    """Add inputs while the daemon is down, through the journal's own code (the live segment)."""
    journal, _ = JournalFolder.open(path, Table.from_snapshot)
    for entry in entries:
        journal.append(entry)
    journal.close()


def wait_for(predicate: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.001)


def test_sigkill_between_journal_and_ack_and_at_random_points_doubles_and_loses_nothing(tmp_path: Path) -> None:
    (tmp_path / "table.toml").write_text(CONFIG)
    decks = tmp_path / "decks"
    decks.mkdir()
    for hand in range(HANDS):
        tags = {uid(card, hand).hex().upper(): card for card in CARDS}
        (decks / f"deck{hand}.json").write_text(json.dumps({"format": 1, "deck": "standard", "tags": tags}))
    path = tmp_path / "state" / "journal.jsonl"
    folder = folder_for(path)
    append(path, first_inputs())
    rng = random.Random(1212)
    dealt: list[str] = []
    kills = {"journaled": 0, "random": 0}
    with short_dir() as short:
        shoe = PtyShoe(short / "shoe", retry_ms=200, beat_ms=200)
        daemon = Daemon(tmp_path / "table.toml", shoe.path, short / "notify")
        try:
            daemon.start()
            for hand in range(HANDS):
                deck = CARDS[:]
                rng.shuffle(deck)
                for card in deck[:READS_PER_HAND]:
                    dealt.append(card)
                    seq = len(dealt)
                    if seq % 2:     # killed the moment the card is journaled, its ACK never reached the shoe
                        shoe.drop_from_host = True
                        shoe.deal(uid(card, hand))
                        wait_for(lambda seq=seq: journaled(folder, seq))
                        daemon.kill()
                        kills["journaled"] += 1
                        with shoe.lock:
                            assert shoe.protocol.ring.acked < seq     # the read is still the shoe's to resend
                            shoe.drop_from_host = False
                    else:           # killed at a random moment around the read
                        timer = threading.Timer(rng.uniform(0.0, 0.03), daemon.kill)
                        timer.start()
                        shoe.deal(uid(card, hand))
                        timer.join()
                        kills["random"] += 1
                    daemon.start()
                    wait_for(lambda seq=seq: shoe.protocol.ring.acked >= seq)    # resent and taken, or taken
                    assert [e["card"] for e in journaled(folder, seq)] == [card]
                if hand < HANDS - 1:    # between hands: stop, add the next hand's inputs, start again
                    daemon.kill()
                    append(path, new_hand())
                    daemon.start()
        finally:
            daemon.close()
            shoe.close()
    entries = everything(folder)
    reads = [e["shoe"] for e in entries if e.get("type") == "card"]
    assert reads == [{"boot": "0BADCAFE", "seq": n} for n in range(1, len(dealt) + 1)]   # once each, in order
    assert [e["card"] for e in entries if e.get("type") == "card"] == dealt
    expected = first_inputs()
    for hand in range(HANDS):
        expected += [{"type": "card", "card": card} for card in dealt[hand * 14:(hand + 1) * 14]]
        expected += new_hand() if hand < HANDS - 1 else []
    assert [{k: v for k, v in e.items() if k != "shoe"} for e in entries] == expected
    assert table_after(entries) == table_after(expected)
    assert len(table_after(entries)["hands"]) == HANDS
    assert kills["journaled"] + kills["random"] >= 50, kills
    # each bomb pot's start began a segment from a checkpoint: restarts replayed one hand at most
    assert segments_of(folder) == list(range(1, HANDS + 2))
    assert sorted(p.name for p in folder.glob("*.checkpoint.json")) == [
        f"{n:06d}.checkpoint.json" for n in range(2, HANDS + 2)]
