"""hardware/install-config-txt.sh (issue 13 item 9): DealerPi's overlays land under [all] whatever section the
firmware config ends in, and a second run replaces the block instead of adding it twice."""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "hardware" / "install-config-txt.sh"
BLOCK = (REPO / "hardware" / "config.txt").read_text()

# The tail of Raspberry Pi OS Bookworm's own /boot/firmware/config.txt, with a host's [pi4] section last and
# no newline at the end.
STOCK = """# For more options and information see
# http://rptl.io/configtxt
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1

[cm4]
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]

[pi4]
dtoverlay=disable-bt"""


def _install(target: Path) -> str:
    done = subprocess.run(["sh", str(SCRIPT), str(target)], capture_output=True, text=True, check=False, timeout=30)
    assert done.returncode == 0, done.stderr
    return target.read_text()


def test_block_opens_with_all_and_ends_with_its_marker() -> None:
    lines = BLOCK.splitlines()
    assert lines[0].startswith("# DealerPi begin") and lines[-1] == "# DealerPi end"
    sections = [line for line in lines if line.startswith("[")]
    assert sections == ["[all]"]
    assert lines.index("[all]") < min(i for i, line in enumerate(lines) if line.startswith(("dtparam", "dtoverlay")))


def test_install_twice_gives_the_stock_file_then_one_block(tmp_path: Path) -> None:
    target = tmp_path / "config.txt"
    target.write_text(STOCK)
    once = _install(target)
    assert once == STOCK + "\n" + BLOCK                # the last line got its newline, then the block
    assert _install(target) == once                    # idempotent
    assert once.count("dtoverlay=mcp23017,addr=0x20,gpiopin=17") == 1
    # the overlays follow an [all] that comes after the host's [pi4]: they apply to every model
    after_pi4 = once[once.index("[pi4]"):]
    assert after_pi4.index("[all]") < after_pi4.index("dtoverlay=mcp23017")
    assert (tmp_path / "config.txt.dealerpi-bak").read_text() == STOCK    # the original, not the first run's


def test_a_changed_block_replaces_the_old_one_and_keeps_lines_after_it(tmp_path: Path) -> None:
    target = tmp_path / "config.txt"
    old_block = BLOCK.replace("dtparam=i2c_arm_baudrate=400000", "dtparam=i2c_arm_baudrate=100000")
    target.write_text(STOCK + "\n" + old_block + "[all]\nhdmi_force_hotplug=1\n")
    assert _install(target) == STOCK + "\n" + "[all]\nhdmi_force_hotplug=1\n" + BLOCK


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    done = subprocess.run(["sh", str(SCRIPT), str(tmp_path / "nope.txt")], capture_output=True, text=True,
                          check=False, timeout=30)
    assert (done.returncode, done.stderr) == (2, f"install-config-txt: no {tmp_path / 'nope.txt'} (Raspberry Pi "
                                                 "OS Bookworm keeps it in /boot/firmware)\n")


def test_second_run_keeps_the_original_backup(tmp_path: Path) -> None:
    """Issue 23 item 6: config.txt.dealerpi-bak is the file as it was before DealerPi's first run, also after
    a second run (which used to overwrite it with the first run's result, losing the original)."""
    target = tmp_path / "config.txt"
    target.write_text(STOCK)
    _install(target)
    _install(target)
    assert (tmp_path / "config.txt.dealerpi-bak").read_text() == STOCK
