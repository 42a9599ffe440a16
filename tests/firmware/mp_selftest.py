"""Runs the shoe's codec and firmware logic under MicroPython (and CPython): python mp_selftest.py.

The import roots (firmware, firmware/lib, tests/firmware) come from MICROPYPATH or PYTHONPATH. Every
check asserts values worked out by hand from the wire format; the script prints one line per check and
"ALL OK" last. tests/firmware/test_firmware_micropython.py runs it under both interpreters.
"""

from codec import HELLO, Ack, Beat, Card, Decoder, crc16, encode
from fw_fakes import FakePN532, ScriptedReader
from shoefw.pn532 import PN532
from shoefw.protocol import ShoeProtocol
from shoefw.tracker import CardTracker

BOOT = "0BADCAFE"
passed: list[str] = []


def check(name: str, condition: object) -> None:
    if not condition:
        raise AssertionError(name)
    passed.append(name)
    print("ok", name)


check("crc check value", crc16(b"123456789") == 0x29B1)
check("card frame bytes", encode(Card(BOOT, 12, "04A224B2C15E80"))
      == b"$C,0BADCAFE,12,04A224B2C15E80*" + (b"%04X" % crc16(b"C,0BADCAFE,12,04A224B2C15E80")) + b"\n")
check("hello frame bytes", encode(HELLO) == b"$H*" + (b"%04X" % crc16(b"H")) + b"\n")

frames = [Card(BOOT, 1, "04A224B2C15E80"), Beat(BOOT, 2, 7, 1), Ack(BOOT, 0), HELLO]
stream = b"".join([encode(f) for f in frames])
decoder = Decoder()
got = []
for i in range(len(stream)):  # one byte at a time, as the Pico reads USB
    got += decoder.feed(stream[i:i + 1])
check("byte-wise decode", got == frames)

flipped = bytearray(encode(frames[0]))
flipped[5] ^= 0x04  # "A" becomes "E": a one-bit error
leading_zero = b"A,0BADCAFE,01"  # checksums fine, but 01 is not how 1 is spelled
decoder = Decoder()
out = decoder.feed(b"boot banner\r\n" + bytes(flipped) + b"$C,0B" + encode(frames[1]) + b"$" + b"7" * 80
                   + b"\n" + encode(frames[1]) + b"$" + leading_zero + b"*" + (b"%04X" % crc16(leading_zero))
                   + b"\n")
counts = decoder.counters()
check("garbage dropped", out == [frames[1], frames[1]])
check("garbage counted", (counts["noise_bytes"], counts["bad_crc"], counts["truncated"], counts["overlong"],
                          counts["frames"], counts["malformed"]) == (11, 1, 1, 1, 2, 1))

tracker = CardTracker(quiet_ms=500)
reports = [tracker.update(["A1"], t) for t in range(0, 3000, 30)]
check("lingering tag once", reports[0] == ["A1"] and all(r == [] for r in reports[1:]))
check("two cards in quick succession", tracker.update(["B2"], 3000) == ["B2"])

reader = ScriptedReader()
shoe = ShoeProtocol(reader, BOOT, retry_ms=60000)
host = Decoder()
shoe.step(0)
reader.field = [b"\x04\xa2\x24\xb2\xc1\x5e\x80"]
shoe.step(30)
shoe.step(60)
reader.field = [b"\xde\xad\xbe\xef"]
shoe.step(90)
reader.field = []
reader.failures = 3
shoe.step(120)
shoe.step(150)
shoe.step(180)
check("shoe sends each card once", host.feed(shoe.take_output())
      == [Beat(BOOT, 1, 0, 0), Card(BOOT, 1, "04A224B2C15E80"), Card(BOOT, 2, "DEADBEEF")])
check("reader errors counted and reset", (shoe.scan_errors, reader.resets, shoe.flags()) == (3, 1, 1))
shoe.receive(encode(Ack(BOOT, 1)) + encode(HELLO), 200)
check("hello resends the unacked", host.feed(shoe.take_output())
      == [Beat(BOOT, 2, 2, 1), Card(BOOT, 2, "DEADBEEF")])

chip = FakePN532()
pn532 = PN532(chip, sleep_ms=lambda ms: None)
pn532.reset()
chip.tags = [(b"\x04\xa2\x24\xb2\xc1\x5e\x80", 0x00, b""), (b"\x11\x22\x33\x44", 0x20, b"\x75\x77\x81\x02")]
check("pn532 scan", pn532.scan() == [b"\x04\xa2\x24\xb2\xc1\x5e\x80", b"\x11\x22\x33\x44"])

print("ALL OK", len(passed))
