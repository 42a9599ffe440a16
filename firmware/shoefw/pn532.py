"""A small PN532 driver over I2C: only what the shoe needs, the UIDs of the ISO 14443-A tags in the field.

Written here because micropython-lib has no PN532 driver and Adafruit's (CircuitPython) needs busio and
adafruit_bus_device. It takes any object with machine.I2C's ``writeto(addr, buf)`` and
``readfrom(addr, n)``, so the tests drive it with a fake chip. Frame layout and commands from NXP's PN532
User Manual (UM0701-02): chapter 6 (frames, the I2C status byte) and chapter 7 (GetFirmwareVersion,
SAMConfiguration, RFConfiguration, InListPassiveTarget).

Any reader with the same two methods can replace it (an MFRC522 or a PN5180 driver)::

    scan() -> list of bytes    UIDs of the tags in the field now (may raise: the caller counts it)
    reset() -> None            re-initialise after repeated failures
"""

I2C_ADDRESS = 0x24
ACK_FRAME = b"\x00\x00\xff\x00\xff\x00"
HOST_TO_PN532 = 0xD4
PN532_TO_HOST = 0xD5

CMD_GET_FIRMWARE_VERSION = 0x02
CMD_SAM_CONFIGURATION = 0x14
CMD_RF_CONFIGURATION = 0x32
CMD_IN_LIST_PASSIVE_TARGET = 0x4A

BAUD_106_TYPE_A = 0x00
CFG_MAX_RETRIES = 0x05
SEL_RES_ISO14443_4 = 0x20  # the target also sends an ATS after its UID


class ReaderError(Exception):
    """The reader did not answer, or answered with a frame that does not check out."""


def command_frame(command: int, params: bytes = b"") -> bytes:
    """A normal information frame carrying one host command (UM0701 6.2.1.1)."""
    data = bytes([HOST_TO_PN532, command]) + bytes(params)
    length = len(data)
    checksum = (-sum(data)) & 0xFF
    return bytes([0x00, 0x00, 0xFF, length, (-length) & 0xFF]) + data + bytes([checksum, 0x00])


def parse_response(raw: bytes, command: int) -> bytes:
    """The payload of the PN532's answer to ``command`` in ``raw`` (status byte already removed)."""
    start = raw.find(b"\x00\xff")
    if start < 0 or len(raw) < start + 4:
        raise ReaderError("no PN532 frame start")
    length, length_check = raw[start + 2], raw[start + 3]
    if length == 0x00 and length_check == 0xFF:
        raise ReaderError("PN532 sent an ACK where an answer was due")
    if length == 0x01 and length_check == 0xFF:
        raise ReaderError("PN532 error frame")  # the command was not understood
    if (length + length_check) & 0xFF:
        raise ReaderError("bad PN532 length checksum")
    body = raw[start + 4:start + 4 + length]
    if len(body) != length or len(raw) < start + 5 + length:
        raise ReaderError("short PN532 frame")
    if (sum(body) + raw[start + 4 + length]) & 0xFF:
        raise ReaderError("bad PN532 data checksum")
    if length < 2 or body[0] != PN532_TO_HOST or body[1] != command + 1:
        raise ReaderError("PN532 answered another command")
    return body[2:]


def parse_targets(payload: bytes) -> list:
    """The UIDs in an InListPassiveTarget answer at 106 kbps type A."""
    if not payload:
        raise ReaderError("empty InListPassiveTarget answer")
    count = payload[0]
    uids = []
    pos = 1
    for _ in range(count):
        # Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID1..., [ATS length, ATS...]
        if len(payload) < pos + 5:
            raise ReaderError("short target data")
        sel_res = payload[pos + 3]
        uid_length = payload[pos + 4]
        uid = payload[pos + 5:pos + 5 + uid_length]
        if len(uid) != uid_length or uid_length not in (4, 7, 10):
            raise ReaderError("bad UID length")
        uids.append(bytes(uid))
        pos += 5 + uid_length
        if sel_res & SEL_RES_ISO14443_4:
            if len(payload) <= pos:
                raise ReaderError("missing ATS")
            pos += payload[pos]  # the ATS length byte counts itself
    return uids


class PN532:
    """A PN532 on an I2C bus; ``sleep_ms`` is injected so the tests need no clock."""

    def __init__(self, i2c: object, *, sleep_ms: object, address: int = I2C_ADDRESS, max_targets: int = 2,
                 ready_polls: int = 40, poll_ms: int = 1) -> None:
        self.i2c = i2c
        self.sleep_ms = sleep_ms
        self.address = address
        self.max_targets = max_targets  # 2: two stacked cards are both seen (the PN532's limit)
        self.ready_polls = ready_polls
        self.poll_ms = poll_ms

    def reset(self) -> None:
        """Wake the chip, check it is a PN532, and set it up for quick, non-blocking scans."""
        try:
            version = self.firmware_version()
        except (OSError, ReaderError):
            self.sleep_ms(10)  # a PN532 in power-down may miss the I2C transaction that wakes it
            version = self.firmware_version()
        if version[0] != 0x32:
            raise ReaderError("not a PN532")
        # Normal mode, no virtual-card timeout, use the IRQ pin.
        self.command(CMD_SAM_CONFIGURATION, b"\x01\x14\x01")
        # MaxRetries: ATR 0xFF, PSL 0x01, passive activation 0x00 (try once, so a scan returns at once
        # when the field is empty instead of waiting for a tag forever).
        self.command(CMD_RF_CONFIGURATION, bytes([CFG_MAX_RETRIES, 0xFF, 0x01, 0x00]))

    def firmware_version(self) -> tuple:
        """(IC, version, revision, support): IC is 0x32 for a PN532."""
        payload = self.command(CMD_GET_FIRMWARE_VERSION)
        if len(payload) != 4:
            raise ReaderError("bad firmware version answer")
        return tuple(payload)

    def scan(self) -> list:
        """UIDs of the type A tags in the field, at most ``max_targets``."""
        payload = self.command(CMD_IN_LIST_PASSIVE_TARGET, bytes([self.max_targets, BAUD_106_TYPE_A]))
        return parse_targets(payload)

    def command(self, command: int, params: bytes = b"", answer_size: int = 64) -> bytes:
        """Send one command, check the PN532's ACK, return the payload of its answer."""
        self.i2c.writeto(self.address, command_frame(command, params))
        self._wait_ready()
        ack = self.i2c.readfrom(self.address, len(ACK_FRAME) + 1)
        if bytes(ack[1:]) != ACK_FRAME:
            raise ReaderError("PN532 did not acknowledge")
        self._wait_ready()
        return parse_response(bytes(self.i2c.readfrom(self.address, answer_size + 1)[1:]), command)

    def _wait_ready(self) -> None:
        # In I2C mode every read starts with a status byte whose bit 0 says the answer is ready.
        for _ in range(self.ready_polls):
            if self.i2c.readfrom(self.address, 1)[0] & 0x01:
                return
            self.sleep_ms(self.poll_ms)
        raise ReaderError("PN532 not ready")
