"""The room's tournament director checked against the TDA at the moment each command is applied (issue 20).

``TdaRoom`` is books_kit's room (engine tables journaling every input, the console's reader of final hands)
with two differences that real tables have: a table's answer reaches the room before its new view does (the
bridge publishes the answer at once and the state when the daemon pushes it), so the director decides once
more on the old views after every batch it sent; and every command is checked as its table takes it:

- TDA 11 and RP-6: a seat changes (``sit``, ``leave``) only between hands, at the target table as at the
  source;
- TDA 11 (TRN-8), for a balancing move: the mover is the player the source table's engine has due the big
  blind next; his new seat is the worst position at the target: of the empty seats where he would be neither
  the small blind nor between the small blind and the button in the next hand (TDA 8), the one the big blind
  reaches first, the engine's own plan of the next hand deciding;
- TDA 8 (R8): a late entrant is never between the small blind and the button;
- nobody sits twice at once (RP-6: one seat per player, one table), and no moved player goes back to the
  table he came from (bounced).

``problems`` lists every breach; ``log`` every command with its answer (the figures: refusals, the commands
per bust).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from books_kit import NOW, BooksRoom

from dealerpi.engine import Table
from dealerpi.room.director.mtt import Director
from dealerpi.room.director.mtt_config import TournamentSettings


def clockwise(start: int, end: int, seats: int) -> list[int]:
    """The seats strictly between ``start`` and ``end`` going clockwise."""
    out, seat = [], start % seats + 1
    while seat != end:
        out.append(seat)
        seat = seat % seats + 1
    return out


def hands_to_big_blind(table: Table, seat: int) -> int:
    """After ``seat`` is taken: how many hands until it posts the big blind (0: the next hand), the big blind
    moving one player a hand from the engine's next big blind."""
    roles = table.next_blind_seats()
    assert roles is not None and roles[2] is not None, "no next hand to plan"
    seats = table.config.seats if table.config is not None else 0
    if roles[2] == seat:
        return 0
    return sum(1 for s in [*clockwise(roles[2], seat, seats), seat] if s in table.seats and table.seats[s].stack > 0)


def bad_seat(table: Table, seat: int) -> str | None:
    """TDA 8/11: why ``seat`` (taken already at ``table``) is no seat for a new or moved player, or None."""
    roles = table.next_blind_seats()
    assert roles is not None
    button, small, _big = roles
    seats = table.config.seats if table.config is not None else 0
    if seat == small:
        return f"seat {seat} is the next small blind"
    if small is not None and seat in clockwise(button, small, seats):
        return f"seat {seat} is between the button ({button}) and the small blind ({small})"
    return None


def worst_seats(table: Table, player: str, stack: int) -> list[int]:
    """TDA 11: every empty seat of ``table`` (between hands) where ``player`` would be worst placed: never the
    small blind nor between it and the button, and the fewest hands to his big blind. Each seat tried on a copy
    of the engine's table."""
    assert table.config is not None
    tried: dict[int, int] = {}
    for seat in range(1, table.config.seats + 1):
        if seat in table.seats:
            continue
        copy = Table.from_snapshot(table.snapshot())
        outcome = copy.apply({"type": "sit", "seat": seat, "player": player, "stack": stack})
        if outcome.accepted and bad_seat(copy, seat) is None:
            tried[seat] = hands_to_big_blind(copy, seat)
    best = min(tried.values(), default=None)
    return sorted(seat for seat, hands in tried.items() if hands == best)


class TdaChecker:
    """The checks of the module docstring, made as a table takes a command: ``before`` with the table as it is
    (the command not applied yet), ``after`` with its answer. ``tables()``: every table's engine now;
    ``director()``: the room's director (its events say why a player is seated). Used over engine tables
    (TdaRoom) and over a real broker (tests/money_broker_kit.py)."""

    def __init__(self, tables: Callable[[], Mapping[str, Table]], director: Callable[[], Director]) -> None:
        self.tables, self.director = tables, director
        self.problems: list[str] = []
        self.left: dict[str, tuple[str, int, bool]] = {}     # player -> (table, stack, was due the big blind)
        self.drops: list[tuple[str, int]] = []                # (player, stack) of each leave at 0 chips
        self.moves: list[tuple[str, str, str]] = []           # (player, from, to) of each balancing move

    def before(self, name: str, table: Table, payload: dict[str, Any]) -> None:
        kind = payload.get("type")
        if kind in ("sit", "leave") and not table.between_hands:
            self.problems.append(f"RP-6/TDA 11: {kind} {payload} journaled at {name} during hand #{table.hand_number}")
        if kind == "leave" and payload.get("seat") in table.seats:
            info = table.seats[payload["seat"]]
            roles = table.next_blind_seats()
            self.left[info.player] = (name, info.stack, roles is not None and roles[2] == payload["seat"])
            if info.stack == 0:
                self.drops.append((info.player, info.stack))
        if kind == "sit":
            self._check_sit(name, table, payload)

    def after(self, payload: dict[str, Any], accepted: bool) -> None:
        if payload.get("type") == "sit" and accepted:
            self.left.pop(payload["player"], None)

    def _check_sit(self, name: str, table: Table, payload: dict[str, Any]) -> None:
        player, seat = payload["player"], payload["seat"]
        elsewhere = [t for t, other in self.tables().items() if t != name
                     and any(info.player == player for info in other.seats.values())]
        if elsewhere or any(info.player == player for info in table.seats.values()):
            self.problems.append(f"RP-6: {player} seated at {name} while seated at {elsewhere or [name]}")
        if not table.between_hands:
            return                         # a breach already (RP-6): the next hand's plan is not known yet
        events = [e for e in self.director().state["events"] if player in (e.get("player"), *e.get("seats", {}))]
        last = events[-1]["kind"] if events else None
        if last == "move":
            source, _stack, due = self.left.get(player, ("?", 0, False))
            if (player, name, source) in self.moves:
                self.problems.append(f"TDA 11: {player} bounced back from {source} to {name}")
            self.moves.append((player, source, name))
            if not due:
                self.problems.append(f"TDA 11: {player} moved from {source} was not due the big blind there")
            worst = worst_seats(table, player, payload["stack"])
            if seat not in worst:
                self.problems.append(f"TDA 11: {player} moved to {name} seat {seat}, not the worst position "
                                     f"{worst}")
        elif last == "late registration":
            copy = Table.from_snapshot(table.snapshot())
            if copy.apply(payload).accepted and (why := bad_seat(copy, seat)):
                self.problems.append(f"TDA 8: late entrant {player} at {name}: {why}")


class TdaRoom(BooksRoom):
    """See the module docstring."""

    def __init__(self, folder: Path, settings: TournamentSettings, players: list[str]) -> None:
        self.checker = TdaChecker(lambda: {n: t.table for n, t in self.tables.items()}, lambda: self.director)
        self.problems, self.left = self.checker.problems, self.checker.left
        self.drops, self.moves = self.checker.drops, self.checker.moves
        self.log: list[tuple[str, dict[str, Any], bool, str | None]] = []
        super().__init__(folder, settings, players)

    def step(self) -> list[tuple[str, str, dict[str, Any]]]:
        """The director's commands until it has nothing more to send: each batch applied and answered, and
        the director asked again on the views it had (the new ones come after the answers), then on new views."""
        sent: list[tuple[str, str, dict[str, Any]]] = []
        for _ in range(200):
            commands = self._decide()
            if commands:
                commands += self._decide()       # the answers came, the tables' new views not yet
            sent += commands
            before = dict(self.seen)
            for name in self.tables:
                self.look(name)
            if not commands and self.seen == before:
                return sent
        raise AssertionError(f"the director never settles: {sent[-10:]}")

    def _decide(self) -> list[tuple[str, str, dict[str, Any]]]:
        commands = self.director.step(self.seen, self.answers.get, NOW, lambda t, s, q: self.stored.get((t, s, q)))
        for cid, name, payload in commands:
            self.apply(cid, name, payload)
        return commands

    def apply(self, cid: str, name: str, payload: dict[str, Any]) -> None:
        self.checker.before(name, self.tables[name].table, payload)
        outcome = self.tables[name].submit(payload)
        self.answers[cid] = {"accepted": outcome.accepted, "reason": outcome.reason}
        self.log.append((name, payload, outcome.accepted, outcome.reason))
        self.checker.after(payload, outcome.accepted)

    def refused(self) -> list[tuple[str, dict[str, Any], str | None]]:
        return [(name, payload, reason) for name, payload, accepted, reason in self.log if not accepted]
