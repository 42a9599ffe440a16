"""Fuzzing the shoe link's decoder and host session with a million mangled inputs each.

    .venv/bin/python bench/bench_shoe_fuzz.py [--inputs 1000000] [--seed 1]

Goal (issue): garbage, bit flips, overlong lines and repeated frames are dropped and counted, never a
crash, and nothing is delivered twice or out of order. Two runs, each of ``--inputs`` inputs, every input
fed as its own chunk (a frame may be split in two chunks, so frames straddle ``feed`` calls):

1. Decoder: valid frames, frames with 1-3 flipped bits, cut frames, repeated frames, random bytes,
   overlong lines, noise before a frame. Checked after every input: no exception, at most MAX_LINE bytes
   held, and every decoded frame is one that was sent intact (CRC-16/CCITT-FALSE has Hamming distance 4
   at these lengths, so 1-3 flipped bits must never forge a frame).
2. Host session: a go-back-N shoe that sends read ``last + 1`` (or repeats an old read, or skips ahead),
   through the same mangling. Checked: the reads delivered are 1, 2, 3, ... with no gap or repeat.

Prints inputs per second and every counter.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from dealerpi.shoe.codec import HELLO, MAX_LINE, Ack, Beat, Card, Decoder, encode
from dealerpi.shoe.session import CardRead, HostSession

BOOT = "0BADCAFE"
KINDS = ("valid", "bitflip", "cut", "repeat", "garbage", "overlong", "noise+valid")
WEIGHTS = (40, 20, 10, 10, 10, 5, 5)


def sample_frame(rng: random.Random, seq: int) -> object:
    pick = rng.randrange(8)
    if pick < 5:
        return Card(BOOT, seq, "".join(rng.choice("0123456789ABCDEF") for _ in range(rng.choice((8, 14, 20)))))
    if pick == 5:
        return Beat(BOOT, max(1, seq - rng.randrange(3)), seq, rng.randrange(2))
    if pick == 6:
        return Ack(BOOT, seq)
    return HELLO


def mangle(rng: random.Random, kind: str, frame: bytes) -> tuple[bytes, bool]:
    """The bytes of one input and whether ``frame`` is in them intact."""
    if kind == "valid":
        return frame, True
    if kind == "repeat":
        return frame + frame, True
    if kind == "noise+valid":
        return rng.randbytes(rng.randrange(1, 20)).replace(b"$", b"%") + b"\n" + frame, True
    if kind == "bitflip":
        data = bytearray(frame)
        for position in rng.sample(range(len(data) * 8), rng.randrange(1, 4)):
            data[position // 8] ^= 1 << (position % 8)
        return bytes(data), False
    if kind == "cut":
        return frame[:rng.randrange(1, len(frame) - 1)], False
    if kind == "garbage":
        return rng.randbytes(rng.randrange(1, 100)), False
    return b"$" + bytes(rng.choice(b"0123456789ABC,") for _ in range(rng.randrange(MAX_LINE, 300))) + b"\n", False


def fuzz_decoder(inputs: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    decoder = Decoder()
    kinds = rng.choices(KINDS, WEIGHTS, k=inputs)
    intact: set[bytes] = set()
    forged = 0
    max_pending = 0
    fed = 0
    start = time.perf_counter()
    for kind in kinds:
        frame = encode(sample_frame(rng, rng.randrange(1, 10**6)))
        data, whole = mangle(rng, kind, frame)
        if whole:
            intact.add(frame)
        cut = rng.randrange(len(data) + 1)
        for chunk in (data[:cut], data[cut:]):
            fed += len(chunk)
            for got in decoder.feed(chunk):
                if encode(got) not in intact:
                    forged += 1
        max_pending = max(max_pending, len(decoder._pending))
        intact.discard(frame)
    elapsed = time.perf_counter() - start
    return {**decoder.counters(), "forged": forged, "max_pending": max_pending, "bytes": fed,
            "seconds": elapsed, "inputs_per_s": inputs / elapsed}


def fuzz_session(inputs: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed + 1)
    session = HostSession()
    session.connected()
    session.receive_data(encode(Beat(BOOT, 1, 0, 0)))
    kinds = rng.choices(KINDS, WEIGHTS, k=inputs)
    uids: dict[int, str] = {}
    delivered: list[int] = []
    start = time.perf_counter()
    for kind in kinds:
        offset = rng.choices((1, 0, -3, 2), (80, 10, 5, 5))[0]  # next read, a repeat, an old one, a gap
        seq = max(1, session.last + offset)
        uid = uids.setdefault(seq, f"{rng.getrandbits(56) | 0x04 << 48:014X}")
        data, _ = mangle(rng, kind, encode(Card(BOOT, seq, uid)))
        for event in session.receive_data(data):
            assert isinstance(event, CardRead) and event.uid == uids[event.seq]
            delivered.append(event.seq)
        session.data_to_send()
    elapsed = time.perf_counter() - start
    assert delivered == list(range(1, len(delivered) + 1)), "a read was delivered twice or out of order"
    return {**session.counters(), "seconds": elapsed, "inputs_per_s": inputs / elapsed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for name, run in (("decoder", fuzz_decoder), ("host session", fuzz_session)):
        results = run(args.inputs, args.seed)
        print(f"{name}: {args.inputs:,} inputs in {results.pop('seconds'):.1f} s "
              f"({results.pop('inputs_per_s'):,.0f} inputs/s), no exception")
        for key, value in sorted(results.items()):
            print(f"  {key:<12} {value:>12,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
