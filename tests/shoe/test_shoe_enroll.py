"""``dealerpi enroll`` (dealerpi/shoe/enroll.py) against the firmware logic over a pseudo-terminal."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from shoe_pty import PtyShoe

from dealerpi.cards import HEXADEC, STANDARD
from dealerpi.shoe.decks import DeckLibrary, DeckMap, save
from dealerpi.shoe.enroll import main


def tag(n: int) -> bytes:
    return bytes([0x04, 0xE0, n, 0x11, 0x22, 0x33, n])


class Enrollment:
    """``dealerpi enroll ...`` running in a thread, the way a dealer runs it at a terminal."""

    def __init__(self, shoe: PtyShoe, argv: list[str]) -> None:
        self.shoe = shoe
        self.status: int | None = None
        self._thread = threading.Thread(target=self._run, args=(argv,), daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while True:  # the shoe has heard our HELLO: reads from now on are for the enrollment
            with shoe.lock:
                if shoe.protocol.decoder.frames:
                    break
            assert time.monotonic() < deadline, "enroll never connected"
            time.sleep(0.005)

    def _run(self, argv: list[str]) -> None:
        self.status = main(argv)

    def finish(self) -> int | None:
        self._thread.join(timeout=30)
        return self.status


@pytest.fixture
def shoe(tmp_path: Path):  # type: ignore[no-untyped-def]
    pty_shoe = PtyShoe(tmp_path / "ttyACM-shoe")
    yield pty_shoe
    pty_shoe.close()


def test_a_standard_deck_is_enrolled_in_the_decks_order(shoe: PtyShoe, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    shoe.deal(tag(200))  # a read from before the enrollment: ignored
    decks = tmp_path / "decks"
    run = Enrollment(shoe, ["red-1", "--port", str(shoe.path), "--decks-dir", str(decks), "--timeout", "10"])
    for n in range(52):
        shoe.deal(tag(n))
    assert run.finish() == 0
    saved = json.loads((decks / "red-1.json").read_text())
    assert saved["deck"] == "standard"
    assert saved["tags"] == {tag(n).hex().upper(): STANDARD.cards[n] for n in range(52)}
    assert list(saved["tags"].values())[:5] == ["2s", "2h", "2d", "2c", "3s"]
    out = capsys.readouterr().out
    assert "[1/52] deal 2s" in out and "[52/52] deal Ac" in out
    assert f"saved 52 tags of deck 'red-1' (standard) to {decks / 'red-1.json'}" in out
    assert DeckLibrary.load(decks).card_for(tag(51).hex()) == ("red-1", "Ac")


def test_a_custom_order_for_a_hexadec_deck(shoe: PtyShoe, tmp_path: Path) -> None:
    order = tmp_path / "order.txt"
    order.write_text("Fh 0s\nAs  # the Hexadec A face card\n")
    decks = tmp_path / "decks"
    run = Enrollment(shoe, ["blue", "--port", str(shoe.path), "--deck", "hexadec", "--order", str(order),
                            "--decks-dir", str(decks)])
    for n in range(3):
        shoe.deal(tag(n))
    assert run.finish() == 0
    library = DeckLibrary.load(decks)
    assert [library.card_for(tag(n).hex()) for n in range(3)] == [("blue", "Fh"), ("blue", "0s"), ("blue", "As")]
    assert library.decks["blue"].deck is HEXADEC


def test_the_same_tag_twice_stops_the_enrollment_and_saves_nothing(shoe: PtyShoe, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    decks = tmp_path / "decks"
    run = Enrollment(shoe, ["red-1", "--port", str(shoe.path), "--decks-dir", str(decks), "--timeout", "10"])
    shoe.deal(tag(1))
    time.sleep(0.05)
    with shoe.lock:
        shoe.protocol.tracker.quiet_ms = 0  # so the shoe reports the same card passing again
    shoe.deal(tag(1))
    assert run.finish() == 1
    assert "tag 04E00111223301 was already read as 2s and came again for 2h" in capsys.readouterr().err
    assert not (decks / "red-1.json").exists()


def test_a_tag_from_another_deck_is_refused(shoe: PtyShoe, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    decks = tmp_path / "decks"
    save(DeckMap("red-1", STANDARD, {tag(7).hex().upper(): "Kd"}), decks)
    run = Enrollment(shoe, ["red-2", "--port", str(shoe.path), "--decks-dir", str(decks)])
    shoe.deal(tag(7))
    assert run.finish() == 1
    assert "tag 04E00711223307 (read for 2s) is already enrolled as Kd in deck 'red-1'" in capsys.readouterr().err
    assert not (decks / "red-2.json").exists()


def test_no_card_within_the_timeout_saves_nothing(shoe: PtyShoe, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    run = Enrollment(shoe, ["red-1", "--port", str(shoe.path), "--decks-dir", str(tmp_path), "--timeout", "0.3"])
    assert run.finish() == 1
    assert "no card read within 0.3 s (waiting for 2s); nothing saved" in capsys.readouterr().err


def test_an_existing_deck_needs_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save(DeckMap("red-1", STANDARD, {}), tmp_path)
    assert main(["red-1", "--port", "loop://", "--decks-dir", str(tmp_path)]) == 1
    assert "deck 'red-1' already exists" in capsys.readouterr().err


def test_no_shoe_on_the_port_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["red-1", "--port", "loop://", "--decks-dir", str(tmp_path), "--timeout", "0.3"]) == 1
    assert "no shoe answered on loop:// within 0.3 s; nothing saved" in capsys.readouterr().err


def test_list_checks_the_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save(DeckMap("red-1", STANDARD, {"DEADBEEF": "Ah"}), tmp_path)
    assert main(["--list", "--decks-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "red-1: 1 of 52 standard cards\n"
    (tmp_path / "bad.json").write_text("{}")
    assert main(["--list", "--decks-dir", str(tmp_path)]) == 1
    assert "bad.json: key 'format' must be 1" in capsys.readouterr().err


def test_a_bad_deck_name_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["../etc", "--port", "loop://", "--decks-dir", str(tmp_path)]) == 1
    assert "deck name '../etc'" in capsys.readouterr().err
