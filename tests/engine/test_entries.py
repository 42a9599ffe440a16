"""Typed input records: each journal input is parsed once, and a bad one is refused naming its type and key
(house rule: bad input gets a clear error naming the key; docs/journal.md lists the inputs)."""

from __future__ import annotations

from typing import Any

import pytest

from dealerpi.engine import Table
from dealerpi.engine.entries import Act, Back, Card, Move, Sit, Start, parse_input
from dealerpi.engine.inputs import InputError
from dealerpi.engine.state import Bomb


@pytest.mark.parametrize(("entry", "record"), [
    ({"type": "sit", "seat": 3, "player": "Ann", "stack": 300}, Sit(3, "Ann", 300)),
    ({"type": "sit", "seat": 3, "player": "Ann", "stack": 300, "reserved": True, "post": True},
     Sit(3, "Ann", 300, reserved=True, post=True)),
    ({"type": "back", "seat": 2}, Back(2)),
    ({"type": "back", "seat": 2, "post": False, "player": "Bo"}, Back(2, post=False, player="Bo")),
    ({"type": "move", "seat": 2, "to": 5, "wait": True}, Move(2, 5, wait=True)),
    ({"type": "act", "seat": 1, "action": "raise", "to": 12}, Act(1, "raise", 12)),
    ({"type": "act", "seat": 1, "action": "call", "to": 12}, Act(1, "call")),      # "to" only for bet and raise
    ({"type": "boxed", "card": "Ah"}, Card("boxed", "Ah")),
    ({"type": "start", "bomb": {"ante": 5, "boards": 2}}, Start(Bomb(5, 2, True))),
])
def test_an_input_becomes_its_typed_record(entry: dict[str, Any], record: object) -> None:
    assert parse_input(entry) == record


@pytest.mark.parametrize(("entry", "message"), [
    ([], 'an input is a JSON object with a "type"'),
    ({"type": "dance"}, "unknown input type 'dance'"),
    ({"type": "sit", "seat": 3, "player": "Ann"}, 'sit: missing key "stack"'),
    ({"type": "sit", "seat": True, "player": "Ann", "stack": 5}, 'sit: "seat" must be a whole number, not True'),
    ({"type": "sit", "seat": 3, "player": 7, "stack": 5}, 'sit: "player" must be a string, not 7'),
    ({"type": "act", "seat": 1, "action": "shove"},
     "act: \"action\" must be one of fold, check, call, bet, raise, all_in, not 'shove'"),
    ({"type": "act", "seat": 1, "action": "bet"}, 'act: missing key "to"'),
    ({"type": "move", "seat": 1}, 'move: missing key "to"'),
    ({"type": "tick", "seconds": -1}, "tick: seconds must not be negative"),
    ({"type": "start", "bomb": {"ante": 0}}, 'start: "bomb" must be {"ante": N, "boards": 1 or 2}'),
    ({"type": "start", "bomb": {"ante": 5, "boards": 3}}, 'start: "bomb" boards must be 1 or 2'),
    ({"type": "table", "game": "nlhe", "seats": 6, "blinds": [1]},
     'table: "blinds" must be two whole amounts, e.g. [1, 2], not [1]'),
])
def test_a_bad_input_is_refused_naming_the_key(entry: Any, message: str) -> None:
    with pytest.raises(InputError) as error:
        parse_input(entry)
    assert str(error.value) == message
    outcome = Table().apply(entry)                   # the table refuses it with the same words, changing nothing
    assert (outcome.accepted, outcome.reason) == (False, message)
