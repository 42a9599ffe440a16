"""Fakes for the shoe firmware's logic: a scripted RFID reader and a PN532 chip on a fake I2C bus.

Plain Python that also runs under MicroPython (the micropython self-test imports it), so: no
dataclasses, typing module or f-string tricks. Annotations are fine: MicroPython parses and ignores them.
"""

ACK = b"\x00\x00\xff\x00\xff\x00"


class ScriptedReader:
    """A reader whose field the test sets: ``field`` holds the UIDs (bytes) a scan sees now."""

    def __init__(self) -> None:
        self.field: list[bytes] = []
        self.failures = 0  # the next this-many scans raise OSError, like an I2C NACK
        self.reset_failures = 0  # the next this-many resets raise too
        self.scans = 0
        self.resets = 0

    def scan(self) -> list[bytes]:
        self.scans += 1
        if self.failures:
            self.failures -= 1
            raise OSError(5)
        return list(self.field)

    def reset(self) -> None:
        self.resets += 1
        if self.reset_failures:
            self.reset_failures -= 1
            raise OSError(19)


def pn532_answer(command: int, payload: bytes) -> bytes:
    """A PN532 answer frame, built here from the user manual's layout (not with the driver's code)."""
    body = bytes([0xD5, command + 1]) + bytes(payload)
    length = len(body)
    return (bytes([0x00, 0x00, 0xFF, length, (0x100 - length) & 0xFF]) + body
            + bytes([(0x100 - (sum(body) & 0xFF)) & 0xFF, 0x00]))


def target_data(number: int, uid: bytes, sel_res: int = 0x00, ats: bytes = b"") -> bytes:
    """One target of an InListPassiveTarget answer at 106 kbps type A."""
    data = bytes([number, 0x00, 0x44, sel_res, len(uid)]) + uid
    if sel_res & 0x20:
        data += bytes([len(ats) + 1]) + ats
    return data


class FakePN532:
    """A PN532 as the driver sees it through machine.I2C's ``writeto`` and ``readfrom``.

    Each command is answered with the ACK frame, then the answer frame; every read starts with the
    status byte (0x01 = ready). ``tags`` is a list of ``(uid, sel_res, ats)`` in the field.
    """

    def __init__(self, address: int = 0x24) -> None:
        self.address = address
        self.tags: list[tuple[bytes, int, bytes]] = []
        self.ic = 0x32
        self.absent = False  # nothing answers on the bus: every transfer raises OSError
        self.never_ready = False
        self.busy_reads = 0  # status reads that say "not ready" before each frame
        self.corrupt_answer = False
        self.error_frame = False
        self.commands: list[tuple[int, bytes]] = []  # (command, params) as received, checked byte by byte
        self.max_retries: bytes | None = None  # RFConfiguration item 5 as last set
        self.sam_mode: int | None = None
        self._queue: list[bytes] = []
        self._busy = 0

    def writeto(self, address: int, buf: bytes) -> None:
        if self.absent or address != self.address:
            raise OSError(5)
        frame = bytes(buf)
        assert frame[:3] == b"\x00\x00\xff", frame
        length = frame[3]
        assert (length + frame[4]) & 0xFF == 0, "bad LCS"
        body = frame[5:5 + length]
        assert (sum(body) + frame[5 + length]) & 0xFF == 0, "bad DCS"
        assert frame[6 + length] == 0x00 and len(frame) == 7 + length, "bad postamble"
        assert body[0] == 0xD4, "bad TFI"
        command, params = body[1], bytes(body[2:])
        self.commands.append((command, params))
        answer = self._answer(command, params)
        if self.error_frame:
            answer = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
        elif self.corrupt_answer:
            answer = answer[:-2] + bytes([(answer[-2] + 1) & 0xFF]) + answer[-1:]
        self._queue = [ACK, answer]
        self._busy = self.busy_reads

    def readfrom(self, address: int, count: int) -> bytes:
        if self.absent or address != self.address:
            raise OSError(5)
        if self.never_ready or not self._queue or self._busy:
            if self._busy:
                self._busy -= 1
            return bytes(count)
        if count == 1:
            return b"\x01"
        data = b"\x01" + self._queue.pop(0)
        self._busy = self.busy_reads
        return (data + bytes(count))[:count]

    def _answer(self, command: int, params: bytes) -> bytes:
        if command == 0x02:
            return pn532_answer(command, bytes([self.ic, 0x01, 0x06, 0x07]))
        if command == 0x14:
            self.sam_mode = params[0]
            return pn532_answer(command, b"")
        if command == 0x32:
            if params[0] == 0x05:
                self.max_retries = bytes(params[1:])
            return pn532_answer(command, b"")
        if command == 0x4A:
            max_targets = params[0]
            assert params[1] == 0x00, "only 106 kbps type A"
            tags = self.tags[:max_targets]
            payload = bytes([len(tags)])
            for number, tag in enumerate(tags):
                payload += target_data(number + 1, tag[0], tag[1], tag[2])
            return pn532_answer(command, payload)
        raise AssertionError("command not emulated: " + hex(command))
