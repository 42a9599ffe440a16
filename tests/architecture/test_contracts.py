"""Issue 22: packages follow processes, and import-linter holds it (``[tool.importlinter]`` in pyproject.toml).

The README's test command runs ``lint-imports`` on the tree; these tests are its positive controls: a copy of
the package with one import that a contract forbids must break that contract, naming the import. Without them
a contract that matched nothing (a typo in a module name, a layer left out) would pass forever.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT = str(Path(sys.executable).with_name("lint-imports"))

def lint(tree: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on ``tree`` (a project root with pyproject.toml and dealerpi/), its package first."""
    env = {**os.environ, "PYTHONPATH": str(tree), "COLUMNS": "400"}   # one line per contract (rich wraps at 80)
    return subprocess.run([LINT, "--no-cache"], cwd=tree, env=env, capture_output=True, text=True, timeout=300)


def copy_with(tmp_path: Path, module: str, line: str) -> Path:
    """The project's pyproject.toml and package, with ``line`` added at the end of ``module``."""
    tree = tmp_path / "tree"
    tree.mkdir()
    shutil.copy(ROOT / "pyproject.toml", tree)
    shutil.copytree(ROOT / "dealerpi", tree / "dealerpi", ignore=shutil.ignore_patterns("__pycache__", "static"))
    path = tree / "dealerpi" / (module.replace(".", "/") + ".py")
    path.write_text(path.read_text() + f"\n{line}\n")
    return tree


def test_the_tree_keeps_every_contract(tmp_path: Path) -> None:
    """The copy with a comment added: every contract kept (the comparison base of the cases below)."""
    result = lint(copy_with(tmp_path, "cards", "# nothing added"))
    assert result.returncode == 0, result.stdout
    assert "Contracts: 7 kept, 0 broken." in result.stdout


@pytest.mark.parametrize(("module", "line", "broken", "named"), [
    # the daemon imports the simulator, even for types only: three contracts break
    ("table.durable", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import dealerpi.sim.panel",
     ["Imports point down", "The table daemon stays off the network", "No circle"],
     "dealerpi.table.durable -> dealerpi.sim.panel"),
    ("table.api.server", "import aiohttp", ["The table daemon stays off the network"],
     "dealerpi.table.api.server -> aiohttp"),
    ("console.server", "import dealerpi.room.web", ["Imports point down"],
     "dealerpi.console.server -> dealerpi.room.web"),
    ("views.build", "from dealerpi.engine.play import HandPlay", ["The engine's face"],
     "dealerpi.views.build -> dealerpi.engine.play"),
    ("engine.pots", "import random", ["The engine is pure"], "dealerpi.engine.pots -> random"),
    ("room.director.seating", "import asyncio", ["The room's director is pure"],
     "dealerpi.room.director.seating -> asyncio"),
    ("devices.leds", "import dealerpi.views.render", ["Devices never decide a rule"],
     "dealerpi.devices.leds -> dealerpi.views.render"),
])
def test_a_forbidden_import_breaks_its_contract_and_is_named(tmp_path: Path, module: str, line: str,
                                                             broken: list[str], named: str) -> None:
    result = lint(copy_with(tmp_path, module, line))
    assert result.returncode == 1
    broken_now = [text for text in result.stdout.splitlines() if text.endswith(" BROKEN")]
    assert len(broken_now) == len(broken), result.stdout         # those contracts, and no other
    assert all(any(text.startswith(name) for text in broken_now) for name in broken), result.stdout
    assert named in result.stdout
