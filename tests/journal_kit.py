"""Helpers for journal tests: build inputs tersely, replay them, look at the table the way the dealer would."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

from dealerpi.engine import Outcome, Table
from dealerpi.engine.play import HandPlay
from dealerpi.history.journal_replay import Replayed, replay_entries, summary
from dealerpi.history.phh import HandRecord
from dealerpi.history.recorder import Recorder

THE_END: dict[str, Any] = {"type": "pause", "reason": "the evening is over"}
"""An input after the last hand: the table stops dealing, which makes a complete hand final (engine/events.py)."""


def replay_lines(lines: Iterable[str]) -> Replayed:
    """Apply every line as ``dealerpi replay --journal`` does (replay_entries); a line that is not JSON is
    rejected with its reason. Tests write journals as text."""
    entries: list[Mapping[str, Any] | str] = []
    for line in lines:
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError as error:
            entries.append(f"not JSON: {error.msg} at column {error.colno}")
    return replay_entries(entries)


class JournalTable(Table):
    """A table that keeps the inputs it accepted, less those undone (the engine's keeps the current hand's)."""

    def __init__(self) -> None:
        super().__init__()
        self.accepted: list[dict[str, Any]] = []

    def apply(self, entry: Mapping[str, Any]) -> Outcome:
        outcome = super().apply(entry)
        if outcome.accepted and entry.get("type") == "undo":
            self.accepted.pop()
        elif outcome.accepted:
            self.accepted.append(dict(entry))
        return outcome


def hand_records(inputs: Iterable[Mapping[str, Any]]) -> tuple[list[HandRecord], list[str]]:
    """Every hand ``inputs`` finished, as the one recorder of finished hands writes it (history/recorder.py),
    and the hands PHH cannot write ("hand N: why"). ``THE_END`` follows them (refused during a hand)."""
    table, recorder = Table(), Recorder()
    records: list[HandRecord] = []
    skipped: list[str] = []
    for entry in [*inputs, THE_END]:
        for hand in recorder.note(entry, table.apply(entry)):
            if hand.phh is not None:
                records.append(hand.phh)
            elif hand.phh_missing is not None:
                skipped.append(f"hand {hand.number}: {hand.phh_missing}")
    return records, skipped


def table(game: str = "nlhe", rules: str = "home", seats: int = 6, blinds: tuple[int, int] = (1, 3),
          **extra: Any) -> dict[str, Any]:
    return {"type": "table", "game": game, "rules": rules, "seats": seats, "blinds": list(blinds), **extra}


def sit(seat: int, stack: int = 300, player: str | None = None) -> dict[str, Any]:
    return {"type": "sit", "seat": seat, "player": player or f"P{seat}", "stack": stack}


def cards(*names: str) -> list[dict[str, Any]]:
    return [{"type": "card", "card": name} for name in names]


def act(seat: int, action: str, to: int | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": "act", "seat": seat, "action": action}
    if to is not None:
        entry["to"] = to
    return entry


def three_handed(rules: str = "home", game: str = "nlhe", **extra: Any) -> list[dict[str, Any]]:
    """Seats 1-3 with 300 each; button on seat 1, so seat 2 is the small blind and seat 3 the big blind."""
    return [table(game, rules, **extra), sit(1), sit(2), sit(3), {"type": "button", "seat": 1}, {"type": "start"}]


def replay(entries: list[dict[str, Any]]) -> tuple[Table, dict[str, Any]]:
    """Replay through the journal path (JSON lines), as ``dealerpi replay --journal`` does."""
    replayed = replay_lines(json.dumps(e) for e in entries)
    return replayed.table, summary(replayed)


def play_of(played: Table) -> HandPlay:
    """The hand being played: a test that looks at it fails here, not on ``None``, when no hand was started."""
    assert played.play is not None, "no hand was started"
    return played.play


def holding(played: Table) -> dict[int, list[str]]:
    """Each dealt-in seat's hole cards in the current hand."""
    assert played.play is not None
    held = played.play.hand.hole if played.play.deal.delivered else played.play.deal.buffer
    return {seat: list(held[i]) for i, seat in enumerate(played.play.plan.order)}


def rules_of(result: dict[str, Any]) -> list[str]:
    return [a["rule"] for a in result["alerts"]]


def stacks(result: dict[str, Any]) -> dict[int, int]:
    return {int(seat): info["stack"] for seat, info in result["seats"].items()}


def scripted_session(seed: int, hands: int) -> list[dict[str, Any]]:
    """A valid evening at a three-seat table, played against the engine with a seeded random dealer."""
    rng = random.Random(seed)
    table = Table()
    script: list[dict[str, Any]] = []

    def feed(entry: dict[str, Any]) -> None:
        assert table.apply(entry).accepted, entry
        script.append(entry)

    # the daemon's first line on an empty journal: the config's table, sent by the config (table_source.py)
    feed({"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3], "by": "config"})
    for seat in (1, 2, 3):
        feed({"type": "sit", "seat": seat, "player": f"P{seat}", "stack": 300})
    feed({"type": "button", "seat": 1})
    for _ in range(hands):
        for seat, info in table.seats.items():           # top up the broke between hands, before the next start
            if info.stack < 90:                          # (after the last hand: no input, so it is not final)
                feed({"type": "chips", "seat": seat, "amount": 300 - info.stack})
        if sum(1 for s in table.seats.values() if s.stack > 0) < 2:
            break
        feed({"type": "start"})
        deck = [r + s for r in "23456789TJQKA" for s in "shdc"]
        rng.shuffle(deck)
        while (nxt := table.expectation().as_json())["expect"] != "start":
            if nxt["expect"] in ("card", "burn"):
                feed({"type": "card", "card": deck.pop()})
            elif nxt["expect"] == "action":
                legal = nxt["legal"]
                if legal["raise"] and rng.random() < 0.25:
                    feed({"type": "act", "seat": nxt["seat"], "action": "raise", "to": rng.choice(legal["raise"])})
                elif legal["call"] is not None and rng.random() < 0.2:
                    feed({"type": "act", "seat": nxt["seat"], "action": "fold"})
                else:
                    feed({"type": "act", "seat": nxt["seat"], "action": "call"})
            else:
                feed({"type": "show", "seat": nxt["seats"][0]})
    return script


def table_after(entries: list[dict[str, Any]]) -> dict[str, Any]:
    replayed = Replayed(Table())
    for entry in entries:
        replayed.apply(entry)
    state = summary(replayed)
    return {key: state[key] for key in ("seats", "button", "hands", "next")}
