"""A property of the deal follower (issue: whatever irregularities are injected, a random legal deal replayed
through the journal never assigns one card twice and always ends with conserved chips)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from journal_kit import replay_lines

from dealerpi.engine.table import Table
from dealerpi.history.journal_replay import Replayed, summary


def _deal_cards_are_distinct(table: Table) -> bool:
    held = [c for seat in table.dealt_seats() for c in table.hole_cards(seat)] + [c for b in table.board() for c in b]
    return len(held) == len(set(held))


def play_evening(seed: int) -> tuple[Table, list[dict[str, Any]]]:
    rng = random.Random(seed)
    journal: list[dict[str, Any]] = []
    table = Table()

    def feed(entry: dict[str, Any]) -> None:
        journal.append(entry)
        table.apply(entry)
        assert _deal_cards_are_distinct(table)

    rules = rng.choice(["home", "casino", "online"])
    game = rng.choice(["nlhe", "plo", "fileem-nl"])
    feed({"type": "table", "game": game, "rules": rules, "seats": 6, "blinds": [1, 2]})
    players = rng.randint(2, 5)
    for seat in range(1, players + 1):
        feed({"type": "sit", "seat": seat, "player": f"P{seat}", "stack": rng.randint(60, 200)})
    total = sum(s.stack for s in table.seats.values())
    feed({"type": "button", "seat": 1})
    for _ in range(rng.randint(1, 4)):
        feed({"type": "start"})
        deck = list(table.config.game.deck.cards) if table.config else []
        rng.shuffle(deck)
        for _step in range(400):
            nxt = table.expectation().as_json()
            kind = nxt["expect"]
            if kind == "start":
                break
            roll = rng.random()
            if roll < 0.03 and table.cards_read():
                feed({"type": rng.choice(["exposed", "boxed"]), "card": rng.choice(table.cards_read())})
            elif roll < 0.04:
                feed({"type": "misdeal"})
            elif roll < 0.06 and deck:
                feed({"type": "card", "card": deck.pop()})         # a card at any moment: premature or not
            elif kind in ("card", "burn"):
                if not deck:
                    break
                feed({"type": "card", "card": deck.pop()})
            elif kind == "burn choice":
                feed({"type": "burn", "card": rng.choice(nxt["cards"])})
            elif kind == "action":
                legal = nxt["legal"]
                if legal["raise"] and rng.random() < 0.3:
                    feed({"type": "act", "seat": nxt["seat"], "action": "raise", "to": rng.choice(legal["raise"])})
                elif legal["call"] is not None and rng.random() < 0.3:
                    feed({"type": "act", "seat": nxt["seat"], "action": "fold"})
                else:
                    feed({"type": "act", "seat": nxt["seat"], "action": "call"})
            elif kind == "showdown":
                for seat in nxt["seats"]:
                    feed({"type": "show", "seat": seat})
        if not table.between_hands:
            break
        assert sum(s.stack for s in table.seats.values()) == total
    return table, journal


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_deals_with_irregularities_never_deal_a_card_twice_and_conserve_chips(seed: int) -> None:
    played, journal = play_evening(seed)
    ours = summary(Replayed(played))
    again = summary(replay_lines(json.dumps(e) for e in journal))
    assert (ours["seats"], ours["next"]) == (again["seats"], again["next"])
    # every deal the table played, as the recorder's final deals, then those not final, then the one in play
    every = [*played.records, *([played.record] if played.record is not None else [])]
    assert again["hands"] == [record.as_json() for record in every]
