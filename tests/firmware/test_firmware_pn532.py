"""The PN532 driver against a fake chip on a fake I2C bus (firmware/shoefw/pn532.py).

Expected command bytes are the frames printed in NXP's PN532 User Manual (UM0701-02) and checked by hand:
LCS = -LEN, DCS = -(TFI + data), all mod 256.
"""

import pytest
from fw_fakes import FakePN532, pn532_answer, target_data
from shoefw.pn532 import PN532, ReaderError, command_frame, parse_response, parse_targets

NTAG = bytes.fromhex("04A224B2C15E80")
NTAG2 = bytes.fromhex("04112233445566")


def no_sleep(ms: int) -> None:
    pass


def test_command_frames_match_the_manual() -> None:
    assert command_frame(0x02).hex(" ") == "00 00 ff 02 fe d4 02 2a 00"  # GetFirmwareVersion
    assert command_frame(0x14, b"\x01\x14\x01").hex(" ") == "00 00 ff 05 fb d4 14 01 14 01 02 00"
    assert command_frame(0x4A, b"\x01\x00").hex(" ") == "00 00 ff 04 fc d4 4a 01 00 e1 00"


def test_parse_response_checks_every_checksum() -> None:
    good = pn532_answer(0x02, b"\x32\x01\x06\x07")
    assert good.hex(" ") == "00 00 ff 06 fa d5 03 32 01 06 07 e8 00"
    assert parse_response(good + bytes(10), 0x02) == b"\x32\x01\x06\x07"
    with pytest.raises(ReaderError, match="data checksum"):
        parse_response(good[:-2] + b"\xe9\x00", 0x02)
    with pytest.raises(ReaderError, match="length checksum"):
        parse_response(good[:4] + b"\xfb" + good[5:], 0x02)
    with pytest.raises(ReaderError, match="another command"):
        parse_response(good, 0x4A)
    with pytest.raises(ReaderError, match="error frame"):
        parse_response(b"\x00\x00\xff\x01\xff\x7f\x81\x00", 0x02)
    with pytest.raises(ReaderError, match="short"):
        parse_response(good[:9], 0x02)
    with pytest.raises(ReaderError, match="no PN532 frame"):
        parse_response(bytes(20), 0x02)


def test_parse_targets_reads_uids_and_skips_an_ats() -> None:
    payload = b"\x02" + target_data(1, b"\x11\x22\x33\x44", 0x20, b"\x75\x77\x81\x02") + target_data(2, NTAG)
    assert parse_targets(payload) == [b"\x11\x22\x33\x44", NTAG]
    assert parse_targets(b"\x00") == []
    with pytest.raises(ReaderError):
        parse_targets(b"\x01\x01\x00\x44\x00\x05" + bytes(5))  # a 5-byte UID does not exist
    with pytest.raises(ReaderError):
        parse_targets(b"\x01\x01\x00")


def test_reset_configures_quick_scans_and_scan_lists_two_stacked_tags() -> None:
    chip = FakePN532()
    reader = PN532(chip, sleep_ms=no_sleep)
    reader.reset()
    assert [c for c, _ in chip.commands] == [0x02, 0x14, 0x32]
    assert chip.sam_mode == 0x01
    assert chip.max_retries == b"\xff\x01\x00"  # passive activation tried once: an empty field returns
    assert reader.scan() == []
    chip.tags = [(NTAG, 0x00, b""), (NTAG2, 0x00, b"")]
    assert reader.scan() == [NTAG, NTAG2]
    assert chip.commands[-1] == (0x4A, b"\x02\x00")


def test_a_slow_chip_is_waited_for() -> None:
    chip = FakePN532()
    chip.busy_reads = 5
    chip.tags = [(NTAG, 0x00, b"")]
    slept: list[int] = []
    assert PN532(chip, sleep_ms=slept.append).scan() == [NTAG]
    assert slept == [1] * 10  # five not-ready polls before the ACK, five before the answer


@pytest.mark.parametrize("fault", ["absent", "never_ready", "corrupt_answer", "error_frame"])
def test_faults_raise_for_the_caller_to_count(fault: str) -> None:
    chip = FakePN532()
    setattr(chip, fault, True)
    reader = PN532(chip, sleep_ms=no_sleep, ready_polls=3)
    with pytest.raises((OSError, ReaderError)):
        reader.scan()


def test_reset_retries_once_for_a_chip_that_missed_its_wake_up() -> None:
    chip = FakePN532()
    chip.absent = True
    reader = PN532(chip, sleep_ms=lambda ms: setattr(chip, "absent", False))
    reader.reset()
    assert [c for c, _ in chip.commands] == [0x02, 0x14, 0x32]


def test_reset_refuses_a_chip_that_is_not_a_pn532() -> None:
    chip = FakePN532()
    chip.ic = 0x31
    with pytest.raises(ReaderError, match="not a PN532"):
        PN532(chip, sleep_ms=no_sleep).reset()
