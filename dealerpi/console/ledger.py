"""The session ledger: every buy-in, top-up and cash-out of a cash game, the in = out check, and who pays whom.

The ledger watches the inputs the table accepts (the daemon calls :meth:`Ledger.before` and
:meth:`Ledger.after` around each one, journal replay included): ``sit`` is a buy-in, ``chips`` a top-up
(BET-16, between hands), ``leave`` a cash-out of the stack the seat had. Each event remembers where its
input stands in the table's accepted inputs, so an ``undo`` that takes the input back takes the event too.

The check: chips on the table plus cash-outs equal buy-ins plus top-ups (poker moves chips, it makes none).
Settlement: each player's net (out + on the table - in), settled with the fewest transfers: players are
split into as many groups with a zero sum as possible (a subset search, exact up to :data:`EXACT_PLAYERS`),
and a group of k players settles in k - 1 transfers, the largest debt paid to the largest credit first.
A tournament has no ledger: its chips are not money (its entry fees are ``buy_in``, TRN-4).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from dealerpi.engine.table import Table

EXACT_PLAYERS = 12          # 2**12 subsets x 12: a few milliseconds; more players are settled greedily


@dataclass(frozen=True)
class Event:
    index: int              # where the input stands in the table's accepted inputs
    kind: str               # "buy-in", "top-up", "cash-out"
    player: str
    seat: int
    amount: int
    at: str | None          # UTC time, ISO 8601; None for inputs journaled without one


class Ledger:
    """See the module docstring. ``now`` gives the time of a live event; a replayed one has its input's."""

    def __init__(self, now: Callable[[], str | None] = lambda: None) -> None:
        self.now = now
        self.events: list[Event] = []
        self._candidate: Event | None = None

    def before(self, entry: Mapping[str, Any], table: Table) -> None:
        """An input about to be applied: note what it would add to the ledger."""
        self._candidate = None
        config = table.config
        if config is None or config.policies.tournament or not isinstance(entry.get("seat"), int):
            return
        kind, seat, at = entry.get("type"), entry["seat"], entry.get("at")
        at = at if isinstance(at, str) else self.now()
        index = table.accepted_count
        if kind == "sit" and isinstance(entry.get("stack"), int) and isinstance(entry.get("player"), str):
            self._candidate = Event(index, "buy-in", entry["player"], seat, entry["stack"], at)
        elif kind == "chips" and seat in table.seats and isinstance(entry.get("amount"), int):
            self._candidate = Event(index, "top-up", table.seats[seat].player, seat, entry["amount"], at)
        elif kind == "leave" and seat in table.seats:
            info = table.seats[seat]
            self._candidate = Event(index, "cash-out", info.player, seat, info.stack, at)

    def after(self, accepted: bool, table: Table) -> None:
        """The input was applied (or refused): keep its event, and drop events of inputs taken back."""
        keep = table.accepted_count
        self.events = [event for event in self.events if event.index < keep]
        if accepted and self._candidate is not None and self._candidate.index < keep:
            self.events.append(self._candidate)
        self._candidate = None

    def summary(self, table: Table) -> dict[str, Any]:
        """The ledger as the host's page shows it (JSON-ready)."""
        players: dict[str, dict[str, int]] = {}
        for event in self.events:
            row = players.setdefault(event.player, {"in": 0, "out": 0, "on_table": 0})
            row["out" if event.kind == "cash-out" else "in"] += event.amount
        for info in table.seats.values():
            if info.player in players:
                players[info.player]["on_table"] += info.stack
        totals = {key: sum(row[key] for row in players.values()) for key in ("in", "out", "on_table")}
        nets = {name: row["out"] + row["on_table"] - row["in"] for name, row in players.items()}
        return {
            "events": [{"at": e.at, "kind": e.kind, "player": e.player, "seat": e.seat, "amount": e.amount}
                       for e in self.events],
            "players": [{"player": name, **row, "net": nets[name]} for name, row in players.items()],
            **totals,
            "balanced": totals["on_table"] + totals["out"] == totals["in"],
            "transfers": [{"from": a, "to": b, "amount": amount} for a, b, amount in settle(nets)],
        }


def settle(nets: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """Transfers (payer, payee, amount) that settle ``nets`` (positive: is owed) in the fewest transfers.

    Nets that do not add up to zero cannot be settled: nothing is returned for them (the page shows the
    in = out check failing instead).
    """
    people = [name for name, net in nets.items() if net]
    if sum(nets[name] for name in people) != 0:
        return []
    groups = _zero_sum_groups(people, nets) if len(people) <= EXACT_PLAYERS else [people]
    transfers: list[tuple[str, str, int]] = []
    for group in groups:
        owed = {name: nets[name] for name in group}
        while any(owed.values()):
            payer = min(owed, key=lambda name: (owed[name], name))        # the largest debt
            payee = max(owed, key=lambda name: (owed[name], name))        # the largest credit
            amount = min(-owed[payer], owed[payee])
            transfers.append((payer, payee, amount))
            owed[payer] += amount
            owed[payee] -= amount
    return transfers


def _zero_sum_groups(people: list[str], nets: Mapping[str, int]) -> list[list[str]]:
    """``people`` split into the most groups that each sum to zero: best[mask] is the most zero-sum groups a
    removal order of mask passes through; the masks where the chain sums to zero cut it into groups."""
    n = len(people)
    total = [0] * (1 << n)
    best = [0] * (1 << n)
    drop = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + nets[people[low]]
        choice = max((i for i in range(n) if mask >> i & 1), key=lambda i: best[mask ^ (1 << i)])
        drop[mask] = choice
        best[mask] = best[mask ^ (1 << choice)] + (total[mask] == 0)
    groups: list[list[str]] = []
    mask, group = (1 << n) - 1, []
    while mask:
        group.append(people[drop[mask]])
        mask ^= 1 << drop[mask]
        if total[mask] == 0:
            groups.append(group)
            group = []
    return groups


def csv_text(summary: Mapping[str, Any]) -> str:
    """The ledger's events, then the players' totals and the transfers, as CSV for a spreadsheet."""
    out = io.StringIO()
    writer = _SafeWriter(csv.writer(out, lineterminator="\n"))
    writer.writerow(["time (UTC)", "kind", "player", "seat", "amount"])
    for event in summary["events"]:
        writer.writerow([event["at"] or "", event["kind"], event["player"], event["seat"], event["amount"]])
    writer.writerow([])
    writer.writerow(["player", "in", "out", "on table", "net"])
    for row in summary["players"]:
        writer.writerow([row["player"], row["in"], row["out"], row["on_table"], row["net"]])
    writer.writerow([])
    writer.writerow(["pays", "to", "amount"])
    for transfer in summary["transfers"]:
        writer.writerow([transfer["from"], transfer["to"], transfer["amount"]])
    return out.getvalue()


class _SafeWriter:
    """A cell starting with = + - @ is quoted as text (a name is never run as a spreadsheet formula);
    numbers stay numbers."""

    def __init__(self, writer: Any) -> None:
        self._writer = writer

    def writerow(self, row: list[Any]) -> None:
        self._writer.writerow([f"'{cell}" if isinstance(cell, str) and cell[:1] in ("=", "+", "-", "@") else cell
                               for cell in row])
