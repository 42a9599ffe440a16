"""The shoe's frame codec (dealerpi/shoe/codec.py): exact bytes, round trips, and garbage that never
crashes it. The CRC oracle is the standard library's binascii.crc_hqx (CRC-CCITT, poly 0x1021), which
with initial value 0xFFFF is CRC-16/CCITT-FALSE.
"""

import binascii
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpi.shoe.codec import (
    HELLO,
    MAX_LINE,
    MAX_SEQ,
    Ack,
    Beat,
    Card,
    Decoder,
    crc16,
    encode,
    uid_hex,
)

BOOT = "0BADCAFE"
hex_digits = "0123456789ABCDEF"
boots = st.text(hex_digits, min_size=8, max_size=8)
uids = st.sampled_from([8, 14, 20]).flatmap(lambda n: st.text(hex_digits, min_size=n, max_size=n))
seqs = st.integers(1, MAX_SEQ)
frames = st.one_of(
    st.builds(Card, boots, seqs, uids),
    st.builds(Ack, boots, st.integers(0, MAX_SEQ)),
    st.just(HELLO),
    st.integers(0, MAX_SEQ).flatmap(lambda newest: st.builds(
        Beat, boots, st.integers(max(1, newest - 200), newest + 1), st.just(newest), st.integers(0, 255))),
)


def wire(body: bytes) -> bytes:
    """A frame built by hand from the format in codec.py's docstring, CRC from the oracle."""
    return b"$" + body + b"*" + b"%04X" % binascii.crc_hqx(body, 0xFFFF) + b"\n"


def test_crc_is_crc16_ccitt_false() -> None:
    assert crc16(b"123456789") == 0x29B1  # the catalogue check value
    rng = random.Random(7)
    for _ in range(200):
        data = rng.randbytes(rng.randrange(60))
        assert crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_frames_have_exact_bytes() -> None:
    assert encode(Card(BOOT, 12, "04A224B2C15E80")) == wire(b"C,0BADCAFE,12,04A224B2C15E80")
    assert encode(Beat(BOOT, 1, 0, 0)) == wire(b"B,0BADCAFE,1,0,0")
    assert encode(Ack(BOOT, 7)) == wire(b"A,0BADCAFE,7")
    assert encode(HELLO) == wire(b"H")
    assert uid_hex(bytes.fromhex("04a224b2c15e80")) == "04A224B2C15E80"


def test_the_longest_frames_fit_in_max_line() -> None:
    longest = [encode(Card(BOOT, MAX_SEQ, "F" * 20)), encode(Beat(BOOT, MAX_SEQ + 1, MAX_SEQ, 255))]
    assert max(len(f) - 1 for f in longest) == 47 <= MAX_LINE


@pytest.mark.parametrize("frame", [
    Card("0badcafe", 1, "DEADBEEF"), Card(BOOT, 0, "DEADBEEF"), Card(BOOT, MAX_SEQ + 1, "DEADBEEF"),
    Card(BOOT, 1, "DEADBEE"), Card(BOOT, 1, "04A224B2C15E8"), Card(BOOT, True, "DEADBEEF"),
    Beat(BOOT, 3, 1, 0), Beat(BOOT, 0, 0, 0), Beat(BOOT, 1, 0, 256), Ack(BOOT, -1), Ack("0BADCAF", 1),
    ("C", BOOT, 1),
])
def test_encode_refuses_frames_it_could_not_decode(frame: object) -> None:
    with pytest.raises(ValueError):
        encode(frame)


@given(frames)
def test_every_frame_round_trips(frame: object) -> None:
    data = encode(frame)
    decoder = Decoder()
    assert decoder.feed(data) == [frame]
    assert decoder.counters()["frames"] == 1


@given(st.lists(frames, max_size=8), st.data())
def test_chunking_does_not_matter(stream: list[object], data: st.DataObject) -> None:
    raw = b"".join(encode(f) for f in stream)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=10)))
    decoder = Decoder()
    got = []
    for start, end in zip([0, *cuts], [*cuts, len(raw)], strict=True):
        got += decoder.feed(raw[start:end])
    assert got == stream


@pytest.mark.parametrize(("data", "counter"), [
    (wire(b"C,0BADCAFE,01,DEADBEEF"), "malformed"),  # leading zero
    (wire(b"C,0BADCAFE,1,deadbeef"), "malformed"),  # lower-case hex
    (wire(b"C,0BADCAFE,1,DEADBEEF,9"), "malformed"),  # one field too many
    (wire(b"C,0BADCAFE,0x1,DEADBEEF"), "malformed"),  # int() would take it
    (wire(b"A,0BADCAFE,1_0"), "malformed"),  # so would this
    (wire(b"B,0BADCAFE,3,1,0"), "malformed"),  # first > newest + 1
    (wire(b"Z"), "malformed"),
    (wire(b"C,0BADCAFE,1,DEADBEEF")[:-6] + b"*29b1\n", "malformed"),  # lower-case CRC digits
    (wire(b"A,0BADCAFE,7").replace(b"7", b"8", 1), "bad_crc"),
    (b"$" + b"A" * 70 + b"\n", "overlong"),
    (b"$C,0BAD$H*1234\n", "truncated"),
])
def test_bad_input_is_dropped_and_counted_by_reason(data: bytes, counter: str) -> None:
    decoder = Decoder()
    decoder.feed(data)
    counts = decoder.counters()
    assert counts["frames"] == 0
    assert counts[counter] == 1
    assert sum(counts.values()) - counts["noise_bytes"] == 1 + (counter == "truncated")  # and nothing else


def test_noise_is_counted_in_bytes_and_a_frame_after_it_survives() -> None:
    decoder = Decoder()
    frame = encode(Ack(BOOT, 3))
    assert decoder.feed(b"MPY: soft reboot\r\n\x00\xff" + frame) == [Ack(BOOT, 3)]
    assert decoder.counters()["noise_bytes"] == len(b"MPY: soft reboot") + 2


def test_an_endless_line_is_dropped_once_and_the_next_frame_decodes() -> None:
    decoder = Decoder()
    for _ in range(1000):
        assert decoder.feed(b"$" + b"7" * 99) == []
        assert len(decoder._pending) <= MAX_LINE
    assert decoder.feed(b"\n" + encode(HELLO)) == [HELLO]
    assert decoder.counters()["overlong"] == 1000  # each "$" started a frame that grew too long


def test_every_single_bit_flip_is_caught() -> None:
    frame = encode(Card(BOOT, 4242, "04A224B2C15E80"))
    for index in range(len(frame)):
        for bit in range(8):
            mangled = bytearray(frame)
            mangled[index] ^= 1 << bit
            assert Decoder().feed(bytes(mangled)) == [], (index, bit)


@settings(max_examples=200)
@given(frames, st.data())
def test_two_bit_flips_never_forge_a_different_frame(frame: object, data: st.DataObject) -> None:
    raw = bytearray(encode(frame))
    positions = data.draw(st.lists(st.integers(0, len(raw) * 8 - 1), min_size=2, max_size=2, unique=True))
    for position in positions:
        raw[position // 8] ^= 1 << (position % 8)
    assert all(got == frame for got in Decoder().feed(bytes(raw)))


@settings(max_examples=200)
@given(st.lists(st.one_of(st.binary(max_size=80), frames.map(encode)), max_size=12))
def test_arbitrary_bytes_never_raise_and_every_frame_decoded_was_sent(chunks: list[bytes]) -> None:
    decoder = Decoder()
    raw = b"".join(chunks)
    for chunk in chunks:
        for frame in decoder.feed(chunk):
            assert encode(frame).rstrip(b"\n") in raw
        assert len(decoder._pending) <= MAX_LINE


def test_the_example_frames_in_the_firmware_readme_are_valid() -> None:
    readme = (Path(__file__).resolve().parents[2] / "firmware" / "README.md").read_text()
    examples = re.findall(r"^\s+(\$\S+\*[0-9A-F]{4})\s", readme, flags=re.MULTILINE)
    examples += re.findall(r"`(\$[^`]*\*[0-9A-F]{4})`", readme)
    assert len(examples) >= 5
    for example in examples:
        assert Decoder().feed(example.encode() + b"\n") != [], example
