"""Decodes a corpus of byte chunks and prints what came out: python mp_codec_corpus.py CORPUS.

The corpus has one chunk per line in hex, all fed to one Decoder in order (so frames straddle chunks).
Each decoded frame is printed re-encoded (its canonical bytes), then the counters sorted by name, so the
output of CPython and MicroPython can be compared line for line.
"""

import binascii
import sys

from codec import Decoder, encode

decoder = Decoder()
with open(sys.argv[1]) as corpus:
    for line in corpus:
        for frame in decoder.feed(binascii.unhexlify(line.strip())):
            print(encode(frame).decode().strip())
counts = decoder.counters()
for name in sorted(counts):
    print(name, counts[name])
