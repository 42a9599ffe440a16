"""What every page sees of a tournament (tournament_view.py): docs/tournaments.md's three-player sit-and-go, whose
numbers that page works out by hand and tests/engine/test_journal_table_doc.py checks against the engine."""

from __future__ import annotations

import json
from pathlib import Path

from dealerpi.engine import Table
from dealerpi.views.roles import public_view, role_view

DOC = Path(__file__).resolve().parents[2] / "docs" / "tournaments.md"


def example() -> list[str]:
    text = DOC.read_text()
    block = text[text.index("```text\n", text.index("## Example")) + 8:]
    return block[:block.index("```")].splitlines()


def test_trn1_trn4_the_sit_and_go_after_cy_busts() -> None:
    """After the example's 20 minutes and hand 1: level 2 (100/200, big-blind ante 200), 20:00 into it minus the
    30 s of the clock called in hand 2 (19:30 left), the break next; 3 entrants at 30: a pool of 90 paying 70/30
    = 63 and 27; Cy busted 3rd with no prize; 2 players left. The board gets it all (no card in it)."""
    table = Table()
    for line in example():
        table.apply(json.loads(line))
    view = public_view(table)["tournament"]
    assert view == {"paused": False, "pause_reason": None, "level": 2,
                    "step": {"break": False, "blinds": [100, 200], "ante": 0, "bb_ante": 200, "minutes": 20},
                    "remaining": 1170, "last": False, "next": {"break": True, "minutes": 10, "level": 2},
                    "players_left": 2, "entrants": 3, "pool": 90, "prizes": [63, 27],
                    "places": [{"player": "Cy", "place": 3, "prize": 0}]}
    assert role_view("board", table, {}, {})["tournament"] == view


def test_a_cash_table_has_no_tournament_view() -> None:
    table = Table()
    table.apply({"type": "table", "game": "nlhe", "rules": "home", "seats": 6, "blinds": [1, 3]})
    assert public_view(table)["tournament"] is None
    assert public_view(table)["blinds"] == [1, 3]
