"""Reading a table's public view (the bridge's retained ``P/T`` state, docs/room.md) for the room's
tournament director (:mod:`dealerpi.room.director.mtt`): who sits where, which seats are open, whether the
table is held, and how far its hand is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

View = Mapping[str, Any]


def view_seats(view: View) -> dict[str, dict[str, Any]]:
    seats = view.get("seats")
    return {n: v for n, v in seats.items() if isinstance(v, dict)} if isinstance(seats, dict) else {}


def open_seats(view: View) -> list[int]:
    return sorted(int(n) for n, v in view_seats(view).items() if not v.get("player"))


def held(view: View) -> bool:
    return not view.get("in_hand") and view.get("paused") is not None


def asked_to_pause(view: View) -> bool:
    """Paused, or to be paused once its hand is over (the engine's ``pausing``): a second pause is refused."""
    return view.get("paused") is not None or view.get("pausing") is not None
