"""The room's tournament with its money over engine tables (tests/tda_kit.py's checked room with a clock the
test moves, and each table's alerts kept): what the room's money tests drive (tests/room/test_room_money.py,
test_room_money_60.py)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from books_kit import NOW
from tda_kit import TdaRoom, bad_seat

from dealerpi.engine import Outcome, Table
from dealerpi.room.director.mtt_config import TournamentSettings, parse_tournament


def money_settings(tables: list[str], **more: object) -> TournamentSettings:
    """Tables of 6, 5000 each, buy-in 100, 3 paid 50/30/20 %, one 600-minute level unless given."""
    raw: dict[str, object] = {"tables": tables, "seats": 6, "buy_in": 100, "starting_stack": 5000,
                              "payouts": [50, 30, 20], "levels": [{"blinds": [50, 100], "minutes": 600}], **more}
    parsed, errors = parse_tournament(raw, "room.toml")
    assert parsed is not None, errors
    return parsed


class MoneyRoom(TdaRoom):
    """TdaRoom at the clock ``now`` (seconds; the start is at books_kit.NOW), each table's alerts in ``alerts``."""

    def __init__(self, folder: Path, settings: TournamentSettings, players: list[str]) -> None:
        self.now = NOW
        self.alerts: dict[str, list[str]] = {name: [] for name in settings.tables}
        super().__init__(folder, settings, players)

    def _decide(self) -> list[tuple[str, str, dict[str, Any]]]:
        commands = self.director.step(self.seen, self.answers.get, self.now,
                                      lambda t, s, q: self.stored.get((t, s, q)))
        for cid, name, payload in commands:
            self.apply(cid, name, payload)
        return commands

    def apply(self, cid: str, name: str, payload: dict[str, Any]) -> None:
        table = self.tables[name]
        submit = table.submit

        def kept(entry: dict[str, Any]) -> Outcome:
            outcome = submit(entry)
            self.alerts[name] += [alert.message for alert in outcome.alerts]
            return outcome

        table.submit = kept                   # type: ignore[method-assign]
        try:
            super().apply(cid, name, payload)
        finally:
            del table.submit

    def at(self, minutes: float) -> None:
        """The room's clock ``minutes`` after the start; the director looks at every table."""
        self.now = NOW + minutes * 60
        for name in self.tables:
            self.look(name)
        self.step()

    def journal(self, name: str) -> list[dict[str, Any]]:
        with (self.tables[name].journal).open(encoding="utf-8") as file:
            return [json.loads(line) for line in file]

    def journaled_chips(self) -> dict[str, int]:
        """Per player, the chips every table's journal added with ``chips`` (the room's rebuys and add-ons),
        the seat read back from the ``sit`` before it."""
        added: dict[str, int] = {}
        for name in self.tables:
            at: dict[int, str] = {}
            for entry in self.journal(name):
                if entry["type"] == "sit":
                    at[entry["seat"]] = entry["player"]
                elif entry["type"] == "chips":
                    added[at[entry["seat"]]] = added.get(at[entry["seat"]], 0) + entry["amount"]
        return added

    def money(self) -> dict[str, Any]:
        money: dict[str, Any] = self.director.summary(self.seen, self.now)["money"]
        return money


def smallest_dealt(table: Table) -> str | None:
    """mtt_kit.smallest among the players the next hand surely deals in: those dealt before, and a new player
    (a late entrant, a moved or redrawn one) not on the small blind nor between it and the button (TDA 8: he
    waits there); everyone at a table's first hand. None if nobody."""
    state = table.state
    seats = [s for s in state.seats if s.stack and (not s.new or state.hand_number == 0
                                                    or bad_seat(table, s.seat) is None)]
    return min(seats, key=lambda s: (s.stack, s.seat)).player if seats else None


def paid_in(settings: TournamentSettings, books: Mapping[str, Any]) -> int:
    """All the money paid in, worked from the buys the director booked: every entry, re-entry and rebuy at the
    buy-in, every add-on at its price (TRN-9). The tests check prizes + bounty cash against it."""
    assert settings.engine is not None
    price = {"entry": settings.buy_in, "reentry": settings.buy_in, "rebuy": settings.buy_in,
             "addon": settings.engine.addon_price}
    return sum(price[kind] for _, kind in books["buys"])
