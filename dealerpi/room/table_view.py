"""Reading a table's public view (the bridge's retained ``P/T`` state, docs/room.md) for the room's
tournament director (:mod:`dealerpi.room.mtt`): who sits where, which seats are open, whether the table is held,
and where TRN-8 finds the player due the big blind."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealerpi.room.tournament import Layout

View = Mapping[str, Any]


def view_seats(view: View) -> dict[str, dict[str, Any]]:
    seats = view.get("seats")
    return {n: v for n, v in seats.items() if isinstance(v, dict)} if isinstance(seats, dict) else {}


def view_players(view: View) -> dict[int, str]:
    return {int(n): v["player"] for n, v in view_seats(view).items() if v.get("player")}


def open_seats(view: View) -> list[int]:
    return sorted(int(n) for n, v in view_seats(view).items() if not v.get("player"))


def held(view: View) -> bool:
    return not view.get("in_hand") and view.get("paused") is not None


def asked_to_pause(view: View) -> bool:
    """Paused, or to be paused once its hand is over (the engine's ``pausing``): a second pause is refused."""
    return view.get("paused") is not None or view.get("pausing") is not None


def layout_of(table: str, view: View, seats: int) -> Layout | None:
    """TRN-8 reads the last hand's blind seats (the player due the big blind is the first after the last big
    blind). Before a table's first hand it reads the engine's plan for it (``next_hand``): its button and small
    blind stand where a last hand's small and big blind would, so the first player after that small blind is
    the plan's own big blind (BLD-1; heads-up the button is the small blind, BLD-4). None: neither is known."""
    players = {n: p for n, p in view_players(view).items() if view_seats(view)[str(n)]["stack"] > 0}
    blinds = view.get("last_blinds") or [None, None]
    if isinstance(blinds[1], int):
        return Layout(table, seats, players, blinds[0] if isinstance(blinds[0], int) else blinds[1], blinds[1])
    plan = view.get("next_hand") or {}
    if isinstance(plan.get("button"), int) and isinstance(plan.get("sb"), int):
        return Layout(table, seats, players, plan["button"], plan["sb"])
    return None
