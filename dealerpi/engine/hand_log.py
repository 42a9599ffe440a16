"""The hand's log: one typed record per step a ``Hand`` (hand.py) took, in order, by player index.

Deals, actions, shows and mucks, and the irregular steps (a void street taken back, a replaced hole card, a
killed hand, runs agreed). The PHH writer (history/from_hand.py) reads it by matching on the record types, so a
new kind of step is a new type that mypy makes every reader handle (``LogEntry`` is their union).

Named tuples, immutable: under cachegrind one costs about 2,500 instructions more to make than a plain tuple, a
frozen dataclass with slots about 3,900. A table's hand makes some 23 a hand, which is nothing at a table; the
replay, which never reads a log, makes none (``Hand(keep_log=False)``, docs/replay.md "Speed").
"""

from __future__ import annotations

from typing import NamedTuple, TypeAlias

__all__ = ["BetOrRaisedTo", "BoardDealt", "CheckedOrCalled", "Folded", "HoleDealt", "HoleSwapped", "Killed",
           "LogEntry", "Mucked", "RunsAgreed", "Shown", "StreetRetracted"]


class HoleDealt(NamedTuple):
    """Hole cards dealt to ``player`` (``??`` for a card the record does not know)."""

    player: int
    cards: tuple[str, ...]


class BoardDealt(NamedTuple):
    """Cards dealt to board ``board`` (0 is the first); a street may come in several reads."""

    board: int
    cards: tuple[str, ...]


class StreetRetracted(NamedTuple):
    """BRD-1: the board cards of ``street`` were taken back before anyone acted on them; they are due again."""

    street: int


class HoleSwapped(NamedTuple):
    """EXP-1: ``player``'s exposed hole card ``old`` was replaced by ``new``."""

    player: int
    old: str
    new: str


class RunsAgreed(NamedTuple):
    """POT-11: the rest of the board is dealt ``times`` times."""

    times: int


class Folded(NamedTuple):
    player: int


class CheckedOrCalled(NamedTuple):
    player: int


class BetOrRaisedTo(NamedTuple):
    """A bet or raise to ``amount``: the player's whole bet on this street, as PHH writes it."""

    player: int
    amount: int


class Killed(NamedTuple):
    """A hand killed out of turn (MIS-4, MIS-8, DEAL-9, TRN-2's clock): it folds."""

    player: int


class Shown(NamedTuple):
    """A hand tabled at the showdown (POT-7), with the cards it held."""

    player: int
    cards: tuple[str, ...]


class Mucked(NamedTuple):
    player: int


LogEntry: TypeAlias = (HoleDealt | BoardDealt | StreetRetracted | HoleSwapped | RunsAgreed | Folded
                       | CheckedOrCalled | BetOrRaisedTo | Killed | Shown | Mucked)
"""Any one step of the log."""
