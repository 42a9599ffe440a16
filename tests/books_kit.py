"""The room's tournament director over engine tables, without a broker: what the room sees is in the test's
hands. Each table journals every input (a file ``NAME.jsonl``) and the console's own reader of finished
hands (history/final_hands.py) follows it, so a hand's record exists only once the table accepted an input
after it (engine/events.py: the next start, the room's own leave), as on a real table; ``look`` is the
room hearing a table (its state as the bridge publishes it, and its final hands stored, or not); ``step``
lets the director decide and applies its commands to the tables."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dealerpi.engine import Outcome, Table
from dealerpi.history.final_hands import FinalHand, FinalHands
from dealerpi.room.director.mtt import Director, new_state
from dealerpi.room.director.mtt_config import TournamentSettings
from dealerpi.views.roles import public_view

NOW = 1000.0


class JournaledTable:
    """What mtt_kit.play drives: every input is journaled, then applied (as the daemon does)."""

    def __init__(self, journal: Path) -> None:
        self.table, self.journal = Table(), journal

    def submit(self, entry: dict[str, Any]) -> Outcome:
        with self.journal.open("a", encoding="utf-8") as file:
            file.write(json.dumps(entry) + "\n")
        return self.table.apply(entry)

    def refresh(self) -> None:
        return None


class BooksRoom:
    def __init__(self, folder: Path, settings: TournamentSettings, players: list[str]) -> None:
        self.tables = {name: JournaledTable(folder / f"{name}.jsonl") for name in settings.tables}
        self.final = {name: FinalHands(folder / f"{name}.jsonl") for name in settings.tables}
        self.sent: dict[str, list[FinalHand]] = {name: [] for name in settings.tables}   # final, not yet stored
        self.stored: dict[tuple[str, str, int], tuple[int, str]] = {}
        self.seen: dict[str, dict[str, Any]] = {}
        self.answers: dict[str, dict[str, Any]] = {}
        self.director = Director(settings, new_state("x"))
        for player in players:
            self.director.register(player, NOW)
        for name, table in self.tables.items():     # a table's journal begins before the tournament
            table.submit(settings.table_input(0))
            self.look(name)
        self.director.start(7, NOW)
        self.step()

    def look(self, name: str, store: bool = True) -> None:
        """The room hears ``name``: its retained state and (``store``) the hands it has sent."""
        final = self.final[name]
        self.sent[name] += final.poll()
        if store:
            for hand in self.sent[name]:
                self.stored[(name, final.session, hand.seq)] = (hand.number, hand.phh)
            self.sent[name] = []
        self.seen[name] = {**public_view(self.tables[name].table), "table": name, "session": final.session,
                           "hands": final.count}

    def step(self) -> list[tuple[str, str, dict[str, Any]]]:
        """The director's commands until it has nothing more to send, each applied to its table (which the
        room then hears again)."""
        sent = []
        while commands := self.director.step(self.seen, self.answers.get, NOW,
                                             lambda t, s, q: self.stored.get((t, s, q))):
            for cid, name, payload in commands:
                outcome = self.tables[name].submit(payload)
                self.answers[cid] = {"accepted": outcome.accepted, "reason": outcome.reason}
                self.look(name)
            sent += commands
        return sent

    def finishes(self) -> dict[str, tuple[int, int]]:
        return {player: (place, prize) for player, place, prize in self.director.state["standings"]["finishes"]}

    def seats(self, name: str) -> dict[int, tuple[str, int]]:
        return {seat: (info.player, info.stack) for seat, info in self.tables[name].table.seats.items()}
