"""Issue 13 item 7: a gpiochip or multiplexer channel missing at boot is waited for (with --wait-for-hardware,
as the unit runs it) with the fault on every display that works, or refused with a clear message by hand;
never a traceback and a restart loop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from luma.core.device import dummy
from pi_trees import PI5_NEW, build_gpio, build_muxes

from dealerpi.config import DisplayConfig, load
from dealerpi.devices.factory import PiDevices
from dealerpi.devices.gpio import HardwareMissing
from dealerpi.table.hardware_wait import wait_for_hardware
from dealerpi.views.model import Alert, DealerView
from dealerpi.views.render import render_dealer

ROOT = Path(__file__).resolve().parents[2]


class Factory:
    def __init__(self, chip: int | None = None) -> None:
        self.chip = chip

    def close(self) -> None:
        pass


def chip_of(factory: object) -> int | None:
    assert isinstance(factory, Factory)
    return factory.chip


class DummyScreens(PiDevices):
    """PiDevices whose displays are luma dummies: a display behind a missing channel fails as a real one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.screens: dict[DisplayConfig, Any] = {}

    def open_display(self, display: DisplayConfig) -> Any:
        if display.mux is not None:
            assert display.channel is not None
            from dealerpi.devices.gpio import mux_channel_bus

            mux_channel_bus(self._muxes[display.mux], display.channel, self._sysfs_i2c)
        self.screens[display] = dummy(width=128, height=64, mode="1")
        return self.screens[display]


def _pi5_without(tmp_path: Path, missing: int) -> tuple[DummyScreens, dict[int, Any]]:
    tree = dict(PI5_NEW)
    held = {missing: tree.pop(missing)}
    bus, _ = build_gpio(tmp_path / "gpio", tree)
    i2c = build_muxes(tmp_path / "i2c", {"1-0070": 0x70, "1-0071": 0x71})

    def info(number: int) -> tuple[str, int]:
        label, lines, _parent = PI5_NEW[number]
        return label, lines

    config = load(ROOT / "hardware" / "example.toml")
    devices = DummyScreens(config, sysfs_gpio=bus, sysfs_i2c=i2c, chip_info=info, factory_class=Factory)
    return devices, held


def test_waits_for_a_late_expander_and_shows_it_on_the_displays(tmp_path: Path) -> None:
    """x2 (0x22, gpiochip3) binds after the daemon started: one look finds it missing, the message goes to all
    11 displays (the muxes are there), systemd hears STATUS/WATCHDOG/EXTEND_TIMEOUT_USEC (3 x 2 s = 6000000 us),
    and once the driver has bound (during the sleep) the factories open: header 0, x0-x3 = 1-4."""
    devices, held = _pi5_without(tmp_path, 3)
    messages: list[str] = []

    def sleep(seconds: float) -> None:
        assert seconds == 2.0
        build_gpio(tmp_path / "gpio", held)      # meanwhile the mcp23017 driver binds gpiochip3

    wait_for_hardware(devices, wait=True, notify=messages.append, sleep=sleep)
    expected = "expander x2: no mcp23017 gpiochip on I2C 1-0022"
    assert messages == [f"STATUS=waiting for hardware: {expected}; check dtoverlay=mcp23017,addr=0x22 in "
                        "/boot/firmware/config.txt, the chip's address pins and wiring, and `dmesg | grep -i mcp23`"
                        "\nWATCHDOG=1\nEXTEND_TIMEOUT_USEC=6000000"]
    shown = render_dealer(DealerView(0, "WAITING FOR HARDWARE",
                                     alerts=(Alert("HARDWARE", f"{expected}. Run dealerpi doctor"),)))
    assert len(devices.screens) == 11
    assert all(screen.image.tobytes() == shown.tobytes() for screen in devices.screens.values())
    assert {name: chip_of(factory) for name, factory in devices._factories.items()} == {
        None: 0, "x0": 1, "x1": 2, "x2": 3, "x3": 4}


def test_by_hand_a_missing_chip_is_refused_at_once(tmp_path: Path) -> None:
    devices, _ = _pi5_without(tmp_path, 0)

    def sleep(seconds: float) -> None:
        raise AssertionError("no wait without --wait-for-hardware")

    with pytest.raises(HardwareMissing, match=r"^no header gpiochip labelled pinctrl-rp1"):
        wait_for_hardware(devices, wait=False, notify=lambda message: None, sleep=sleep)


def test_a_mux_still_joining_channels_is_waited_for(tmp_path: Path) -> None:
    """Two muxes and idle_state -1 (the udev rule not applied yet): displays at 0x3C on both would answer
    together, so that counts as missing until it reads -2."""
    devices, held = _pi5_without(tmp_path, 3)
    build_gpio(tmp_path / "gpio", held)
    (tmp_path / "i2c" / "bus" / "i2c" / "devices" / "1-0071" / "idle_state").write_text("-1\n")
    assert devices.missing() == ["multiplexer m1: idle_state is -1, not -2 (disconnect on idle); install "
                                 "systemd/99-dealerpi-i2c-mux.rules (docs/install-pi.md step 8)"]


def test_run_by_hand_refuses_with_a_message_and_status_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """``dealerpi run`` on a machine with no Pi header chip: exit status 3 (the unit's RestartPreventExitStatus)
    and one message naming what is missing and the doctor, no traceback."""
    from dealerpi.devices import factory
    from dealerpi.table import daemon

    monkeypatch.setattr(factory, "list_chips", lambda root, info: [])
    config = tmp_path / "table.toml"
    config.write_text((ROOT / "hardware" / "example.toml").read_text()
                      .replace("/var/lib/dealerpi", str(tmp_path)))
    assert daemon.main(["--config", str(config)]) == 3
    err = capsys.readouterr().err
    assert err.startswith("dealerpi run: no header gpiochip labelled pinctrl-rp1 or pinctrl-bcm2711 or "
                          "pinctrl-bcm2835 (found: no gpiochip at all)")
    assert f"(see `dealerpi doctor --config {config}`)" in err
    assert "Traceback" not in err
