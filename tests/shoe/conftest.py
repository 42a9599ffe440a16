"""The shoe tests drive the firmware logic (fake reader) over a pty: the device import roots go on sys.path."""

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
for path in (REPO / "firmware", REPO / "firmware" / "lib", REPO / "tests" / "firmware", REPO / "tests" / "shoe"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
