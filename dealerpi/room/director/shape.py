"""What the director's parts (controls.py, hand_for_hand.py, mtt_summary.py) use of the
:class:`~dealerpi.room.director.mtt.Director`, which calls them: typed by this shape, they import nothing of
mtt.py (issue 22: no circle, not even one only the type checker follows)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from dealerpi.room.director.money import Money
from dealerpi.room.director.mtt_config import TournamentSettings
from dealerpi.room.director.table_view import View


class DirectorLike(Protocol):
    """The director's state and the three things its parts ask of it."""

    settings: TournamentSettings
    state: dict[str, Any]
    cap: int

    @property
    def money(self) -> Money: ...

    def level_at(self, now: float) -> tuple[int, float | None]: ...

    def hold(self, tables: Mapping[str, View]) -> bool: ...
