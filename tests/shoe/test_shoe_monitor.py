"""The bench monitor (python -m dealerpi.shoe.monitor) against the firmware logic over a pty."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from shoe_pty import PtyShoe

from dealerpi.cards import STANDARD
from dealerpi.shoe.decks import DeckMap, save
from dealerpi.shoe.monitor import main


def test_monitor_names_enrolled_cards_and_unknown_tags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save(DeckMap("red-1", STANDARD, {"04A224B2C15E80": "Qs"}), tmp_path / "decks")
    shoe = PtyShoe(tmp_path / "ttyACM-shoe")
    try:
        worker = threading.Thread(target=main, args=([str(shoe.path), "--decks-dir", str(tmp_path / "decks"),
                                                      "--seconds", "2.5"],))
        worker.start()
        deadline = time.monotonic() + 10
        while not shoe.protocol.decoder.frames:  # wait for the monitor's HELLO
            assert time.monotonic() < deadline
            time.sleep(0.005)
        shoe.deal(bytes.fromhex("04A224B2C15E80"))
        shoe.deal(bytes.fromhex("DEADBEEF"))
        worker.join(timeout=20)
    finally:
        shoe.close()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"event: ShoeOnline(url='{shoe.path}')"
    assert out[1] == "read ('0BADCAFE', 1): 04A224B2C15E80 Qs of deck red-1"
    assert out[2] == "read ('0BADCAFE', 2): DEADBEEF unknown tag"
    assert out[3].startswith("counters: frames=") and "delivered=2" in out[3]
