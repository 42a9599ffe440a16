"""The shoe's frame codec: one source file shared by the daemon (CPython) and the shoe (MicroPython).

Sans-I/O (like h11): ``Decoder.feed(bytes)`` returns the frames found, ``encode(frame)`` returns bytes.
Nothing here reads a port, a clock or a random source.

Wire format (line-based ASCII, NMEA-like; see firmware/README.md for why)::

    $<body>*<CRC>\\n       body = TYPE ["," FIELD]...   CRC = 4 upper-case hex digits

The CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over the body, the bytes between ``$`` and
``*``. A ``\\r`` before the ``\\n`` is ignored. Frames (``boot`` is the shoe's random 8-hex-digit boot
id, ``seq`` a decimal read number counted from 1 at each boot)::

    C,boot,seq,uid            shoe -> host  a card left the shoe; uid is 4, 7 or 10 bytes in hex
    B,boot,first,newest,flags shoe -> host  heartbeat: reads first..newest can still be resent
    A,boot,seq                host -> shoe  cumulative ACK: every read up to seq is safe
    H                         host -> shoe  HELLO: send a heartbeat, then resend every unACKed read

Every number has one spelling (no leading zeros, upper-case hex), so ``encode(decode(x)) == x``.
Anything else is dropped and counted, never raised: noise bytes outside frames, frames cut short by a
new ``$``, lines longer than ``MAX_LINE``, bad CRCs, and well-checksummed frames with invalid fields.

MicroPython constraints (checked by tests/firmware): no ``__future__``, ``typing`` or dataclasses; no
``del`` on bytearray slices; ``int(x, 16)`` accepts "0x" and "_" on both, so digits are checked by hand.
Annotations are fine: MicroPython parses and ignores them (so no module-level type aliases, which it
would have to evaluate).
"""

from collections import namedtuple

MAX_LINE = 64
"""Longest frame in bytes from ``$`` to the last CRC digit (the longest valid frame is 47)."""
MAX_SEQ = 999999999
"""Largest read number: nine digits, a small int on a 32-bit MCU; 30 years at one card a second."""
UID_LENGTHS = (4, 7, 10)
"""ISO 14443-A UID sizes in bytes (single, double, triple size); NTAG21x tags have 7."""
FLAG_READER_FAULT = 1
"""Heartbeat flag: the shoe's RFID reader has failed its last scans (the shoe keeps retrying)."""

Card = namedtuple("Card", ("boot", "seq", "uid"))
Beat = namedtuple("Beat", ("boot", "first", "newest", "flags"))
Ack = namedtuple("Ack", ("boot", "seq"))
Hello = namedtuple("Hello", ())

HELLO = Hello()

_HEX = "0123456789ABCDEF"
_DIGITS = "0123456789"
# Bytes a frame body may hold: upper-case letters, digits and commas.
_BODY_BYTES = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,"


def _make_table() -> list[int]:
    table: list[int] = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _make_table()


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of ``data`` (check value: ``crc16(b"123456789") == 0x29B1``)."""
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc


def uid_hex(raw: bytes) -> str:
    """A tag UID as the codec spells it: upper-case hex, two digits a byte."""
    return "".join([f"{byte:02X}" for byte in raw])


def _is_hex(text: str, lengths: tuple[int, ...]) -> bool:
    return len(text) in lengths and all(char in _HEX for char in text)


def _number(text: str, low: int, high: int) -> int | None:
    """The value of a canonical decimal in [low, high], else None."""
    if not text or len(text) > 10 or (len(text) > 1 and text[0] == "0"):
        return None
    if not all(char in _DIGITS for char in text):
        return None
    value = int(text)
    if value < low or value > high:
        return None
    return value


def _valid_int(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _body(frame: object) -> str:
    """The frame's body text; ValueError if a field is out of range (we never send a bad frame)."""
    if isinstance(frame, Card):
        if not (_is_hex(frame.boot, (8,)) and _valid_int(frame.seq, 1, MAX_SEQ)
                and isinstance(frame.uid, str) and _is_hex(frame.uid, (8, 14, 20))):
            raise ValueError("bad card frame: " + repr(frame))
        return f"C,{frame.boot},{frame.seq},{frame.uid}"
    if isinstance(frame, Beat):
        if not (_is_hex(frame.boot, (8,)) and _valid_int(frame.first, 1, MAX_SEQ + 1)
                and _valid_int(frame.newest, 0, MAX_SEQ) and frame.first <= frame.newest + 1
                and _valid_int(frame.flags, 0, 255)):
            raise ValueError("bad heartbeat frame: " + repr(frame))
        return f"B,{frame.boot},{frame.first},{frame.newest},{frame.flags}"
    if isinstance(frame, Ack):
        if not (_is_hex(frame.boot, (8,)) and _valid_int(frame.seq, 0, MAX_SEQ)):
            raise ValueError("bad ack frame: " + repr(frame))
        return f"A,{frame.boot},{frame.seq}"
    if isinstance(frame, Hello):
        return "H"
    raise ValueError("not a shoe frame: " + repr(frame))


def encode(frame: object) -> bytes:
    """The bytes of one frame, newline included; ValueError for a frame with an invalid field."""
    body = _body(frame)
    return f"${body}*{crc16(body.encode()):04X}\n".encode()


def _parse_body(text: str) -> Card | Beat | Ack | Hello | None:
    """The frame a checksummed body spells, else None."""
    fields = text.split(",")
    kind = fields[0]
    if kind == "C" and len(fields) == 4:
        seq = _number(fields[2], 1, MAX_SEQ)
        if _is_hex(fields[1], (8,)) and seq is not None and _is_hex(fields[3], (8, 14, 20)):
            return Card(fields[1], seq, fields[3])
    elif kind == "B" and len(fields) == 5:
        first = _number(fields[2], 1, MAX_SEQ + 1)
        newest = _number(fields[3], 0, MAX_SEQ)
        flags = _number(fields[4], 0, 255)
        if (_is_hex(fields[1], (8,)) and first is not None and newest is not None and flags is not None
                and first <= newest + 1):
            return Beat(fields[1], first, newest, flags)
    elif kind == "A" and len(fields) == 3:
        seq = _number(fields[2], 0, MAX_SEQ)
        if _is_hex(fields[1], (8,)) and seq is not None:
            return Ack(fields[1], seq)
    elif kind == "H" and len(fields) == 1:
        return HELLO
    return None


class Decoder:
    """Turns a byte stream into frames; drops and counts everything that is not a valid frame.

    Between calls it holds at most ``MAX_LINE`` bytes, whatever it is fed.
    """

    def __init__(self) -> None:
        self._pending = b""
        self._discarding = False  # inside an overlong line: drop bytes up to the next "\n" or "$"
        self.frames = 0
        self.noise_bytes = 0
        self.truncated = 0
        self.overlong = 0
        self.bad_crc = 0
        self.malformed = 0

    def counters(self) -> dict[str, int]:
        """Frames decoded and inputs dropped, by reason (noise is counted in bytes, the rest in frames)."""
        return {
            "frames": self.frames,
            "noise_bytes": self.noise_bytes,
            "truncated": self.truncated,
            "overlong": self.overlong,
            "bad_crc": self.bad_crc,
            "malformed": self.malformed,
        }

    def reset(self) -> None:
        """Forget a partial line (after a reconnect); counters are kept."""
        self._pending = b""
        self._discarding = False

    def feed(self, data: bytes) -> list[Card | Beat | Ack | Hello]:
        """Take the next bytes of the stream; return the complete valid frames in them, in order."""
        frames: list[Card | Beat | Ack | Hello] = []
        buf = self._pending + bytes(data) if self._pending else bytes(data)
        start = 0
        while True:
            end = buf.find(b"\n", start)
            if end < 0:
                break
            line = buf[start:end]
            if line.endswith(b"\r"):
                line = line[:-1]
            candidate = self._split(line)
            self._discarding = False
            if candidate is not None:
                self._frame(candidate, frames)
            start = end + 1
        self._pending = self._hold(buf[start:])
        return frames

    def _split(self, chunk: bytes) -> bytes | None:
        """Count what precedes the chunk's last "$"; return the bytes from that "$" on, or None."""
        parts = chunk.split(b"$")
        if not self._discarding:
            self.noise_bytes += len(parts[0])
        if len(parts) == 1:
            return None
        self.truncated += len(parts) - 2  # frames cut short by a new "$" (a cable pulled mid-frame)
        return b"$" + parts[-1]

    def _hold(self, rest: bytes) -> bytes:
        """What to keep of an unterminated line, dropping what can no longer become a frame."""
        if len(rest) <= MAX_LINE:
            return rest
        candidate = self._split(rest)
        if candidate is None:
            return b""
        self._discarding = False
        if len(candidate) > MAX_LINE:
            self.overlong += 1
            self._discarding = True
            return b""
        return candidate

    def _frame(self, candidate: bytes, frames: list[Card | Beat | Ack | Hello]) -> None:
        if len(candidate) > MAX_LINE:
            self.overlong += 1
            return
        if len(candidate) < 7 or candidate[-5] != 0x2A:  # "$" body "*" CRC
            self.malformed += 1
            return
        body = candidate[1:-5]
        digits = candidate[-4:].decode() if _ascii(candidate[-4:]) else ""
        if not _is_hex(digits, (4,)):
            self.malformed += 1
            return
        if crc16(body) != int(digits, 16):
            self.bad_crc += 1
            return
        for byte in body:
            if byte not in _BODY_BYTES:
                self.malformed += 1
                return
        frame = _parse_body(body.decode())
        if frame is None:
            self.malformed += 1
            return
        self.frames += 1
        frames.append(frame)


def _ascii(data: bytes) -> bool:
    return all(byte < 0x80 for byte in data)
