"""firmware/main.py and board.py on the micropython unix port, with a fake ``machine`` module
(tests/firmware/fake_device/machine.py): stdin/stdout stand in for USB CDC, a scripted fake PN532 for
the reader. This checks the glue's loop, not the real USB stack or chip (see firmware/README.md).
"""

import os
import subprocess
import threading
import time
from pathlib import Path

from codec import HELLO, Ack, Beat, Card, Decoder, encode
from fw_tools import FIRMWARE, HERE, tool

IMPORT_ROOTS = ":".join(str(p) for p in (HERE / "fake_device", FIRMWARE, FIRMWARE / "lib", HERE))


class Device:
    """The shoe's firmware in a micropython process; frames it writes are collected by a thread."""

    def __init__(self, cwd: Path, **env: str) -> None:
        self.process = subprocess.Popen([tool("micropython"), str(FIRMWARE / "main.py")], cwd=cwd,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env={"MICROPYPATH": IMPORT_ROOTS, **env})
        self.decoder = Decoder()
        self.frames: list[object] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._collect, daemon=True)
        self._thread.start()

    def _collect(self) -> None:
        assert self.process.stdout is not None
        while chunk := os.read(self.process.stdout.fileno(), 4096):
            with self._lock:
                self.frames += self.decoder.feed(chunk)

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def wait_for(self, predicate: object, timeout: float = 20.0) -> list[object]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                frames = list(self.frames)
            if predicate(frames):  # type: ignore[operator]
                return frames
            assert self.process.poll() is None, self.process.stderr.read().decode()  # type: ignore[union-attr]
            time.sleep(0.02)
        raise AssertionError(f"timed out; frames so far: {frames}")

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)


def cards(frames: list[object]) -> list[Card]:
    return [f for f in frames if isinstance(f, Card)]


def test_main_loop_reports_scripted_cards_once_and_resends_on_hello(tmp_path: Path) -> None:
    device = Device(tmp_path)
    try:
        frames = device.wait_for(lambda fs: len({c.seq for c in cards(fs)}) >= 5)
        assert isinstance(frames[0], Beat) and frames[0][1:] == (1, 0, 0)
        boot = frames[0].boot
        got: list[str] = []
        for card in cards(frames):  # resends (no ACK yet) repeat a seq with the same UID
            if card.seq > len(got):
                got.append(card.uid)
        assert got == ["04A224B2C15E80", "DEADBEEF", "04010203040506", "04111111111111", "04222222222222"]
        assert {(c.seq, c.uid) for c in cards(frames)} == {(i + 1, uid) for i, uid in enumerate(got)}
        device.send(encode(Ack(boot, 3)) + encode(HELLO))
        # The answer to HELLO: a heartbeat whose window starts after the ACK, then reads 4 and 5 at once.
        # (A timed resend of 1..5 written before the ACK arrived may come first; that is fine.)
        answer = [Beat(boot, 4, 5, 0), Card(boot, 4, "04111111111111"), Card(boot, 5, "04222222222222")]
        device.wait_for(lambda fs: any(fs[i:i + 3] == answer for i in range(len(fs))))
    finally:
        device.stop()


def test_main_loop_survives_a_missing_reader_and_flags_it(tmp_path: Path) -> None:
    device = Device(tmp_path, FAKE_READER="absent")
    try:
        frames = device.wait_for(lambda fs: any(isinstance(f, Beat) and f.flags == 1 for f in fs), timeout=30)
        assert cards(frames) == []
    finally:
        device.stop()


def test_a_maintenance_flag_skips_the_shoe_for_one_boot(tmp_path: Path) -> None:
    (tmp_path / "maintenance").write_text("1")
    done = subprocess.run([tool("micropython"), str(FIRMWARE / "main.py")], cwd=tmp_path, capture_output=True,
                          text=True, env={"MICROPYPATH": IMPORT_ROOTS}, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    assert "maintenance mode" in done.stdout
    assert not (tmp_path / "maintenance").exists()  # the next boot runs the shoe again
