"""The evening's ledger, session by session: a cash game's buy-ins, top-ups and cash-outs, a tournament's
entries and prizes, the in = out check, and who pays whom.

An evening is a row of sessions (issue 19): a cash game, then a tournament, then a cash game again. A new
session starts when the table switches between a cash game and a tournament, or when the host closes the
session in force (a ``table`` input that repeats the table with ``"session": "close"``, journaled like any
other, so a replay finds the same sessions). Each session has its own ledger and settlement: a tournament
after a cash game no longer mixes its chips into the cash game's (the issue's worked example: six seats at
1000 counted as 5,500 "on the table" of the cash game).

The ledger watches the inputs the table accepts (the daemon calls :meth:`Ledger.before` and
:meth:`Ledger.after` around each one, journal replay included). A cash game: ``sit`` is a buy-in, ``chips``
a top-up (BET-16, between hands), ``leave`` a cash-out of the stack the seat had; the check is chips on the
table plus cash-outs equal buy-ins plus top-ups (poker moves chips, it makes none). A tournament: the
engine's record of its buy-ins (``TableState.buys``, engine/tournament_money.py) gives the entries and
re-entries (the buy-in each), the rebuys (the buy-in) and the add-ons (their price); its money out is the
prizes (the standings, TRN-4) and the bounty cash won (PKO, engine/bounties.py); in = out once it is
finished (the pool and every head paid out). Chips of a tournament are not money: they are in no ledger.
Each event
and session remembers where its input stands in the table's accepted inputs, so an ``undo`` takes back
what its input added.

Settlement: each player's net, settled with the fewest transfers: players are split into as many groups
with a zero sum as possible (a subset search, exact up to :data:`EXACT_PLAYERS`), and a group of k players
settles in k - 1 transfers, the largest debt paid to the largest credit first.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dealerpi.books.game_form import table_input
from dealerpi.engine import Table, TableConfig

EXACT_PLAYERS = 12          # 2**12 subsets x 12: a few milliseconds; more players are settled greedily
CLOSE = "close"             # a ``table`` input's ``"session"`` that closes the session in force


@dataclass(frozen=True)
class Event:
    index: int              # where the input stands in the table's accepted inputs
    kind: str               # "buy-in", "top-up", "cash-out"; "entry", "re-entry", "rebuy", "add-on"
    player: str
    seat: int
    amount: int
    at: str | None          # UTC time, ISO 8601; None for inputs journaled without one
    session: int = 1        # the session's number


@dataclass
class Session:
    """One session of the evening: a cash game or a tournament."""

    number: int
    kind: str                                  # "cash" or "tournament"
    index: int                                 # the accepted input that began it (-1: before a checkpoint)
    at: str | None
    table: dict[str, Any] | None = None        # its table in force, as a table input: what "back to cash" restores
    ended: int | None = None                   # the accepted input that ended it (None: the session in force)
    left: dict[str, int] = field(default_factory=dict)   # a cash game ended: chips each player still had
    places: list[dict[str, Any]] = field(default_factory=list)   # a tournament: (player, place, prize)
    bounties: dict[str, int] = field(default_factory=dict)       # a PKO tournament: bounty cash won
    finished: bool = False                     # a tournament: it has its winner
    closed: bool = False                       # the host closed it (in = out)

    def as_json(self) -> dict[str, Any]:
        return {"number": self.number, "kind": self.kind, "index": self.index, "at": self.at, "table": self.table,
                "ended": self.ended, "left": self.left, "places": self.places, "bounties": self.bounties,
                "finished": self.finished, "closed": self.closed}


def _kind(config: TableConfig) -> str:
    return "tournament" if config.policies.tournament else "cash"


class Ledger:
    """See the module docstring. ``now`` gives the time of a live event; a replayed one has its input's."""

    def __init__(self, now: Callable[[], str | None] = lambda: None) -> None:
        self.now = now
        self.events: list[Event] = []
        self.sessions: list[Session] = []
        self._candidate: Event | None = None
        self._close = False
        self._config: TableConfig | None = None     # the config last turned into a session's table
        self._at: str | None = None                 # the time of the input being applied
        self._buys = 0                              # the engine's tournament buy-ins before it
        self._seat: int | None = None

    @property
    def current(self) -> Session | None:
        return self.sessions[-1] if self.sessions else None

    def before(self, entry: Mapping[str, Any], table: Table) -> None:
        """An input about to be applied: note what it would add to the ledger."""
        self._candidate = None
        config = table.config
        self._close = entry.get("type") == "table" and entry.get("session") == CLOSE
        # the input's own time only (never now): a replay gives a session the same time
        self._at = entry.get("at") if isinstance(entry.get("at"), str) else None
        self._buys = len(table.state.buys)
        self._seat = entry["seat"] if isinstance(entry.get("seat"), int) else None
        if config is None or not isinstance(entry.get("seat"), int) or config.policies.tournament:
            return                                   # a tournament's buy-ins: the engine's record (after)
        kind, seat, at = entry.get("type"), entry["seat"], entry.get("at")
        at = at if isinstance(at, str) else self.now()
        index = table.accepted_count
        number = self.current.number if self.current is not None else 1
        if kind == "sit" and isinstance(entry.get("stack"), int) and isinstance(entry.get("player"), str):
            self._candidate = Event(index, "buy-in", entry["player"], seat, entry["stack"], at, number)
        elif kind == "chips" and seat in table.seats and isinstance(entry.get("amount"), int):
            self._candidate = Event(index, "top-up", table.seats[seat].player, seat, entry["amount"], at, number)
        elif kind == "leave" and seat in table.seats and entry.get("ends") != "tournament":   # sessions.carried
            info = table.seats[seat]
            self._candidate = Event(index, "cash-out", info.player, seat, info.stack, at, number)

    def after(self, accepted: bool, table: Table) -> None:
        """The input was applied (or refused): keep its event, drop events and sessions of inputs taken
        back, and follow the sessions (a switch between cash and tournament, or a close, starts one)."""
        keep = table.accepted_count
        self.events = [event for event in self.events if event.index < keep]
        if any(session.index >= keep for session in self.sessions):
            self.sessions = [session for session in self.sessions if session.index < keep]
            self._config = None
        if (last := self.current) is not None and last.ended is not None and last.ended >= keep:
            last.ended, last.left, last.closed = None, {}, False        # its end was undone: open again
        if accepted and self._candidate is not None and self._candidate.index < keep:
            self.events.append(self._candidate)
        self._candidate = None
        config = table.config
        if accepted and config is not None and len(table.state.buys) > self._buys:
            self._bought(table, config, keep - 1)
        if config is None:
            return
        at = self._at
        current = self.current
        if current is None:
            self.sessions.append(Session(1, _kind(config), keep - 1, at))
        elif accepted and (current.kind != _kind(config) or self._close):
            current.ended = keep - 1
            current.closed = self._close
            if current.kind == "cash":
                current.left = self._on_table(current, table)
            self.sessions.append(Session(current.number + 1, _kind(config), keep - 1, at))
            self._config = None
        self._close = False
        self._follow(table, config)

    def _bought(self, table: Table, config: TableConfig, index: int) -> None:
        """The tournament buy-ins the input just made (engine/tournament_money.py's record), as events."""
        at = self._at if self._at is not None else self.now()
        number = self.current.number if self.current is not None else 1
        for player, kind in table.state.buys[self._buys:]:
            price = config.addon_price if kind == "addon" else config.buy_in
            words = {"reentry": "re-entry", "addon": "add-on"}.get(kind, kind)
            self.events.append(Event(index, words, player, self._seat or 0, price, at, number))

    def _follow(self, table: Table, config: TableConfig) -> None:
        """The session in force keeps its table and, a tournament, its standings as they are now."""
        session = self.sessions[-1]
        if config is not self._config:
            self._config = config
            session.table = table_input(config)
        if session.kind == "tournament" and table.standings is not None:
            standings = table.standings
            session.places = [{"player": f.player, "place": f.place, "prize": f.prize} for f in standings.results()]
            session.finished = standings.remaining == 0 and bool(standings.finishes)
            bounties = table.state.bounties
            session.bounties = dict(bounties.won) if bounties is not None else {}

    @staticmethod
    def _on_table(session: Session, table: Table) -> dict[str, int]:
        return {info.player: info.stack for info in table.seats.values()}

    def last_cash_table(self) -> dict[str, Any] | None:
        """The table of the last cash game this evening: what going back from a tournament restores."""
        return next((s.table for s in reversed(self.sessions) if s.kind == "cash" and s.table), None)

    def summary(self, table: Table) -> dict[str, Any]:
        """The ledger as the host's page shows it (JSON-ready): the session in force at the top level (as
        before sessions existed), and every session of the evening under ``sessions``."""
        sessions = [self.session_summary(session, table) for session in self.sessions]
        if not sessions:
            sessions = [self.session_summary(Session(1, "cash", -1, None), table)]
        return {**sessions[-1], "sessions": sessions}

    def session_summary(self, session: Session, table: Table) -> dict[str, Any]:
        events = [e for e in self.events if e.session == session.number]
        players: dict[str, dict[str, int]] = {}
        for event in events:
            row = players.setdefault(event.player, {"in": 0, "out": 0, "on_table": 0})
            row["out" if event.kind == "cash-out" else "in"] += event.amount
        if session.kind == "cash":
            stacks = self._on_table(session, table) if session.ended is None else session.left
            for player, stack in stacks.items():
                if player in players:
                    players[player]["on_table"] += stack
        else:
            paid = [(place["player"], place["prize"]) for place in session.places] + list(session.bounties.items())
            for player, amount in paid:
                if amount:
                    players.setdefault(player, {"in": 0, "out": 0, "on_table": 0})["out"] += amount
        totals = {key: sum(row[key] for row in players.values()) for key in ("in", "out", "on_table")}
        nets = {name: row["out"] + row["on_table"] - row["in"] for name, row in players.items()}
        balanced = totals["on_table"] + totals["out"] == totals["in"]
        if session.kind == "tournament":
            balanced = session.finished and balanced        # the pool is paid out once there is a winner
        return {
            "session": {"number": session.number, "kind": session.kind, "at": session.at,
                        "rules": (session.table or {}).get("rules"), "open": session.ended is None,
                        "closed": session.closed, "finished": session.finished},
            "events": [{"at": e.at, "kind": e.kind, "player": e.player, "seat": e.seat, "amount": e.amount}
                       for e in events],
            "players": [{"player": name, **row, "net": nets[name]} for name, row in players.items()],
            **totals,
            "balanced": balanced,
            "transfers": [{"from": a, "to": b, "amount": amount} for a, b, amount in settle(nets)]
            if session.kind == "cash" or balanced else [],
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
