"""The firmware on real MicroPython tools: mpy-cross compiles every file, the micropython unix port runs
the codec and the firmware logic, and the firmware's copy of the codec is the daemon's codec byte for byte.
"""

import random
import re
import subprocess
import sys
from pathlib import Path

from codec import Ack, Beat, Card, encode
from fw_tools import FIRMWARE, HERE, REPO, tool

IMPORT_ROOTS = ":".join(str(p) for p in (FIRMWARE, FIRMWARE / "lib", HERE))


def run_micropython(script: Path, *args: str) -> str:
    done = subprocess.run([tool("micropython"), str(script), *args], capture_output=True, text=True,
                          env={"MICROPYPATH": IMPORT_ROOTS}, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def run_cpython(script: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True,
                          env={"PYTHONPATH": IMPORT_ROOTS}, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_firmware_copy_of_the_codec_is_byte_identical() -> None:
    """firmware/flash.sh copies dealerpi/shoe/codec.py to firmware/lib/codec.py: one source of truth."""
    assert (FIRMWARE / "lib" / "codec.py").read_bytes() == (REPO / "dealerpi" / "shoe" / "codec.py").read_bytes()


def test_flash_script_installs_every_firmware_module() -> None:
    script = (FIRMWARE / "flash.sh").read_text()
    listed = set(re.findall(r"shoefw/(\w+\.py)", script))
    assert listed == {p.name for p in (FIRMWARE / "shoefw").glob("*.py")}
    assert "cp lib/codec.py :lib/codec.py" in script and "cp main.py :main.py" in script
    assert 'cp "$here/../dealerpi/shoe/codec.py" "$here/lib/codec.py"' in script


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path: Path) -> None:
    sources = [*sorted(FIRMWARE.rglob("*.py")), *sorted(HERE.glob("mp_*.py")), HERE / "fw_fakes.py"]
    assert {p.name for p in sources} >= {"main.py", "board.py", "protocol.py", "tracker.py", "ring.py",
                                          "pn532.py", "codec.py"}
    for source in sources:
        done = subprocess.run([tool("mpy-cross"), "-o", str(tmp_path / "out.mpy"), str(source)],
                              capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, f"{source}: {done.stderr}"
        assert (tmp_path / "out.mpy").read_bytes()[:1] == b"M"  # the .mpy header


def test_codec_and_firmware_logic_pass_under_micropython_as_under_cpython() -> None:
    output = run_micropython(HERE / "mp_selftest.py")
    assert output.splitlines()[-1] == "ALL OK 12"
    assert output == run_cpython(HERE / "mp_selftest.py")


def test_both_interpreters_decode_a_mangled_stream_identically(tmp_path: Path) -> None:
    """Seeded random chunks of valid frames, bit flips, cuts, noise and repeats: same frames, same counts."""
    rng = random.Random(20240601)
    chunks = []
    for i in range(3000):
        frame = rng.choice([Card("0BADCAFE", i + 1, "04A224B2C15E80"), Beat("0BADCAFE", 1, i, 0),
                            Ack("0BADCAFE", i), Card("DEADBEEF", i + 1, "DEADBEEF")])
        data = bytearray(encode(frame))
        mangle = rng.randrange(6)
        if mangle == 1:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif mangle == 2:
            data = data[:rng.randrange(len(data))]
        elif mangle == 3:
            data = bytearray(rng.randbytes(rng.randrange(1, 90)))
        elif mangle == 4:
            data = data * 2
        cut = rng.randrange(len(data) + 1)
        chunks += [bytes(data[:cut]), bytes(data[cut:])]
    corpus = tmp_path / "corpus.hex"
    corpus.write_text("".join(chunk.hex() + "\n" for chunk in chunks))
    output = run_micropython(HERE / "mp_codec_corpus.py", str(corpus))
    assert output == run_cpython(HERE / "mp_codec_corpus.py", str(corpus))
    lines = output.splitlines()
    counts = dict(line.split() for line in lines[-6:])
    assert int(counts["frames"]) == len(lines) - 6 > 2000
    assert all(int(counts[name]) > 0 for name in ("bad_crc", "truncated", "noise_bytes", "malformed"))
