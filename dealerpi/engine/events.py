"""What an accepted input did, as typed events in its ``Outcome``: the engine says what happened.

Readers (the daemon's observers, the console's journal readers, the recorder of finished hands) subscribe to
these instead of re-deriving them from the inputs and the table; a rule re-derived by a reader is a second
copy that will disagree one day (commit 7fe889c fixed a wrong PHH that such a copy of "when is a hand final"
caused).

When a hand is final (``HandFinal``): an undo can no longer reach it. An undo reaches back to the start of
the hand in play (``Table``); once a hand is complete, back into it until the table accepts another input
that is not a tick (a ``start``, a ``sit``, a ``leave``, a table change, a pause, chips, ...). That input
fixes the hand: the engine emits ``HandFinal`` for every deal since the hand's start (a misdealt deal
included, ``record.misdeal``) and the undo stops there. So the last hand of a table that stops dealing is
final when the room takes its players away (their ``leave``) or the host cashes them out, not only when a
next ``start`` comes. A tick does not fix it: the level clock ticks every 5 s, and the dealer's UNDO of a
hand's last action (a wrong fold) must not depend on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealerpi.engine.reading import DealtHand
from dealerpi.engine.records import Alert, DealRecord


@dataclass(frozen=True, slots=True)
class Sat:
    """A player took a seat (``sit``)."""

    seat: int
    player: str


@dataclass(frozen=True, slots=True)
class Left:
    """A player left a seat (``leave``): cashed out, moved to another table or busted."""

    seat: int
    player: str


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand was dealt (``start``; a fouled deal's replay too, with the same number: MIS-7)."""

    number: int
    button: int
    seats: tuple[int, ...]      # the seats dealt in, first left of the button


@dataclass(frozen=True, slots=True)
class HandFinal:
    """A deal no undo can reach any more (module docstring): its record and, for a hand played out (not a
    misdealt deal, ``record.misdeal``), the hand as the PHH writer needs it."""

    record: DealRecord
    dealt: DealtHand | None


@dataclass(frozen=True, slots=True)
class Undone:
    """An undo took back ``inputs`` accepted inputs; ``reopened``: the number of the complete hand it brought
    back into play (its last action taken back), else None."""

    inputs: int
    reopened: int | None = None


Event = Sat | Left | HandStarted | HandFinal | Undone


@dataclass(frozen=True, slots=True)
class Outcome:
    """What came of one input: accepted or refused (the reason), the alerts for the dealer, and what happened
    (events.py: a player sat or left, a hand started, a hand is final, an undo took inputs back)."""

    accepted: bool
    reason: str | None = None
    alerts: tuple[Alert, ...] = ()
    events: tuple[Event, ...] = ()
