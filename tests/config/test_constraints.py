"""hardware/constraints-aarch64.txt (issue 13 item 8) pins every package the Pi install pulls in: each
dependency of DealerPi and of its [pi] and [shoe] extras, and what those need, with ``==``."""

from __future__ import annotations

import contextlib
import importlib.metadata
import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
CONSTRAINTS = ROOT / "hardware" / "constraints-aarch64.txt"
# What pip evaluates markers with on the Pi: CPython 3.11, Linux, aarch64.
PI = {"python_version": "3.11", "platform_system": "Linux", "platform_machine": "aarch64", "sys_platform": "linux",
      "extra": "", "implementation_name": "cpython", "os_name": "posix"}


def _pins() -> dict[str, str]:
    pins = {}
    for line in (raw.split(" #", 1)[0].strip() for raw in CONSTRAINTS.read_text().splitlines()):
        if line and not line.startswith("#"):
            match = re.fullmatch(r"([A-Za-z0-9_.\-]+)==(\S+)", line)
            assert match is not None, f"{CONSTRAINTS.name}: {line!r} is not NAME==VERSION"
            pins[_norm(match.group(1))] = match.group(2)
    return pins


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_package_of_the_pi_install_is_pinned() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [Requirement(r) for r in [*project["dependencies"], *project["optional-dependencies"]["pi"],
                                       *project["optional-dependencies"]["shoe"]]]
    assert "rpi-gpio" not in {_norm(r.name) for r in wanted}       # unused, compiled, no Pi 5 support
    pins = _pins()
    seen: set[str] = set()
    while wanted:
        requirement = wanted.pop()
        name = _norm(requirement.name)
        if name in seen or (requirement.marker is not None and not requirement.marker.evaluate(PI)):
            continue
        seen.add(name)
        assert name in pins, f"{requirement.name} is installed on the Pi but not pinned in {CONSTRAINTS.name}"
        assert requirement.specifier.contains(pins[name], prereleases=True), (requirement, pins[name])
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):   # its needs, where installed here
            wanted += [Requirement(r) for r in importlib.metadata.requires(requirement.name) or []]
    assert pins["gpiozero"] == "2.0.1.post3" and pins["lgpio"] == "0.2.2.0"
