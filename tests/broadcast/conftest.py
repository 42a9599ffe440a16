"""The broadcast tests' kit (broadcast_kit.py, beside this file) is imported by name, as tests/*_kit.py are."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
