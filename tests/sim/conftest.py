"""The simulator tests share a harness (simkit.py): put this folder on sys.path."""

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
