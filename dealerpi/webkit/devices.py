"""Paired devices: one token per phone or TV, which the host lists and revokes, and one-time pairing codes.

Before issue 19 each role had one token for ever (a 400-day cookie): a lost phone could only be shut out by
un-pairing every device. Now a device is paired by a one-time code (the QR's ``/?t=CODE``) or by a role's
token from ``pairing.txt``; either way the browser gets a token of its own, never the code nor the role's
token, and the host can revoke it alone (``POST /devices/ID/revoke``).

A code is good once and for :data:`CODE_SECONDS` (kept in memory: a restart voids every code). The dealer
display is a screen every player can photograph, so its code lives 30 s (a scan takes a few seconds) and
the display drops it as soon as it is used; a code on the host's own phone 120 s (time to pick up the
other device or type the address on a TV). A used or late code pairs nothing: 401.

``devices.json`` (0600 in the console's 0700 StateDirectory) keeps each device's role, a name read from its
User-Agent (a hint for the list, not a proof), the time it was paired, and a SHA-256 of its token: a copy
of the file lets nobody in.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dealerpi.webkit.pairing import write_private

CODE_SECONDS = {"display": 30.0, "host": 120.0}
_VAGUE = {"Linux", "U", "X11", "K", "wv", "Mobile", "Windows NT 10.0", "Win64", "x64"}


def device_name(user_agent: str) -> str:
    """A short name for the list from a User-Agent: "Android 14; Pixel 8", "iPhone", else "a browser"."""
    found = re.search(r"\(([^)]*)\)", user_agent)
    parts = [p.strip() for p in found.group(1).split(";")] if found else []
    named = [p for p in parts if p and p not in _VAGUE]
    return "; ".join(named[:2])[:40] or "a browser"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Devices:
    """See the module docstring. ``path`` None keeps the devices in memory only."""

    def __init__(self, path: Path | None, clock: Callable[[], float] = time.time) -> None:
        self.path, self.clock = path, clock
        self._codes: dict[str, tuple[str, float]] = {}        # digest of a code -> (role, good until)
        self._devices: list[dict[str, str]] = []
        if path is not None and path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                self._devices = [{k: str(d[k]) for k in ("id", "role", "name", "made", "hash")} for d in data]
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{path}: not a list of paired devices ({exc}); delete it to un-pair every "
                                 "device paired with a code") from None

    def issue(self, role: str, seconds: float) -> str:
        """A new one-time code for ``role``, good for ``seconds``."""
        now = self.clock()
        self._codes = {k: v for k, v in self._codes.items() if v[1] > now}        # late ones go
        code = secrets.token_urlsafe(16)
        self._codes[_digest(code)] = (role, now + seconds)
        return code

    def redeem(self, code: str) -> str | None:
        """The role of a code still good, used up now; None for a used, late or unknown one."""
        role, until = self._codes.pop(_digest(code), ("", 0.0))
        return role if role and self.clock() <= until else None

    def pair(self, role: str, user_agent: str) -> str:
        """A new device of ``role``: its token (the cookie), kept only as a digest."""
        token = secrets.token_urlsafe(16)
        made = datetime.fromtimestamp(self.clock(), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        self._devices.append({"id": secrets.token_hex(4), "role": role, "name": device_name(user_agent),
                              "made": made, "hash": _digest(token)})
        self._save()
        return token

    def role_of(self, token: str) -> tuple[str, str] | None:
        """(role, device id) of a device token (compared in constant time), or None (unknown or revoked)."""
        digest = _digest(token)
        found = None
        for device in self._devices:
            if hmac.compare_digest(digest, device["hash"]):
                found = (device["role"], device["id"])
        return found

    def listing(self) -> list[dict[str, Any]]:
        """The paired devices, oldest first, without their digests."""
        return [{k: d[k] for k in ("id", "role", "name", "made")} for d in self._devices]

    def revoke(self, device: str) -> bool:
        """Forget a device: its token stops working at once. False if there is no such device."""
        kept = [d for d in self._devices if d["id"] != device]
        if len(kept) == len(self._devices):
            return False
        self._devices = kept
        self._save()
        return True

    def _save(self) -> None:
        if self.path is not None:
            write_private(self.path, json.dumps(self._devices, indent=1) + "\n")
