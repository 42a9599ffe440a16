"""What the daemon's pipeline publishes: one input the table applied, to every observer in one order.

The controller (controller.py) journals an input, applies it, then hands the same :class:`Applied` to each
:class:`Observer` in the order they subscribed; a replayed input at start-up goes the same way (``live``
False: it was journaled before). What happened comes from the engine's events in the outcome
(engine/events.py: a hand started, a hand is final, ...), not from the input's type. An observer has one job
and is told nothing else; the local API (socket_api.py) is one of them, typed by :class:`LocalApi`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple, Protocol

from dealerpi.engine import HandStarted, Input, Outcome, Table

Submitted = Input | dict[str, Any]
"""What the pipeline takes (``Controller.submit``): a record from the daemon's own producers (the seat panels,
the dealer's buttons, the shoe, the timers), written with the engine's ``to_json``; or a journal line as a
dict where the producer's keys are the journal's own: a page's or the room's input (checked key by key by
wire/inputs.py, tagged by the API), a ``table`` from the config or the host (issue 22)."""


class Applied(NamedTuple):
    """``entry`` as journaled, the engine's ``outcome``, the table after it. ``live``: an input given just now,
    which the dealer is told of and which may start a hand (False: replayed at start-up, or a host's table
    change queued for the hand's end, which the engine refuses during the hand: controller.queue_table). A
    NamedTuple, not a frozen dataclass: made for every input a start-up replays, it is the cheapest immutable
    record (a frozen dataclass's ``__init__`` goes through ``object.__setattr__`` per field)."""

    entry: Mapping[str, Any]        # a journal line: the inputs are the journal's dicts (docs/journal.md)
    outcome: Outcome
    table: Table
    live: bool

    @property
    def started(self) -> bool:
        """The engine dealt a hand (its event, not the input's type: a refused or undone start deals none)."""
        events = self.outcome.events       # most inputs have none: no generator then (start-up's hot path)
        return bool(events) and any(isinstance(event, HandStarted) for event in events)


class Observer(Protocol):
    """One subscriber of the pipeline."""

    def applied(self, step: Applied) -> None: ...


class LocalApi(Observer, Protocol):
    """The console's local API (socket_api.ApiServer) as the pipeline sees it: the first observer of every
    input, the only one that also sees the table before it (the session ledger's buy-ins), told when a
    display changed, with its own part of each checkpoint and of a new journal."""

    def before(self, entry: Mapping[str, Any], table: Table) -> None: ...
    def changed(self) -> None: ...
    def checkpoint_data(self) -> dict[str, Any]: ...
    def new_journal(self) -> None: ...
