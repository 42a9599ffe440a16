"""The words for the seat to act, per game family (issue 14: "CALL to call 6" where the player adds 5, no-limit
words in limit and pot-limit games), through the engine's face (``LegalActions.words``), the seat's screen and
the console's hand view. Three-handed, blinds 1/3 (limit 3/6), button seat 1: seat 2 posts the small blind 1,
seat 3 the big blind 3, seat 1 opens with a raise to 6; then the small blind is to act with 1 in, 300 behind
less 1."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import ImageDraw

from dealerpi.engine import Table
from dealerpi.views import render
from dealerpi.views.build import seat_view
from dealerpi.views.roles import role_view

HOLE = ["Ah", "Kh", "Qh", "Ad", "Kd", "Qd"]


def small_blind_facing_6(game: str, **extra: Any) -> Table:
    table = Table()
    entries: list[dict[str, Any]] = [
        {"type": "table", "game": game, "rules": "home", "seats": 6, "blinds": [1, 3], **extra},
        *({"type": "sit", "seat": s, "player": f"P{s}", "stack": 300} for s in (1, 2, 3)),
        {"type": "button", "seat": 1}, {"type": "start"}]
    hole = HOLE if game != "plo" else [r + s for s in "hdcs" for r in "AKQ"]
    entries += [{"type": "card", "card": c} for c in hole]
    entries.append({"type": "act", "seat": 1, "action": "raise", "to": 6})
    for entry in entries:
        assert table.apply(entry).accepted, entry
    return table


def drawn_rows(view: Any, monkeypatch: pytest.MonkeyPatch) -> dict[int, list[str]]:
    """The texts the seat renderer draws, by row."""
    rows: dict[int, list[str]] = {}
    original = render._text

    def record(draw: ImageDraw.ImageDraw, row: int, text: str, *, x: int = 0, fill: int = 1) -> None:
        rows.setdefault(row, []).append(text)
        original(draw, row, text, x=x, fill=fill)

    monkeypatch.setattr(render, "_text", record)
    render.render_seat(view)
    return rows


@pytest.mark.parametrize(("game", "extra", "words"), [
    # BET-2: the minimum raise is to 6 + 3 = 9; no-limit goes up to all-in, 300
    ("nlhe", {}, ("FOLD", "CALL 6 (adds 5)", "RAISE 9-300 (all-in)")),
    # BET-8: pot P = 0 collected, bets B = 1 + 3 + 6 = 10, call c = 5: the most is 6 + 10 + 5 = 21
    ("plhe", {}, ("FOLD", "CALL 6 (adds 5)", "RAISE 9-21 (pot)")),
    ("plo", {}, ("FOLD", "CALL 6 (adds 5)", "RAISE 9-21 (pot)")),
    # BET-5: limit 3/6 pre-flop: one size, a raise to 6 + 3 = 9
    ("flhe", {"limits": [3, 6]}, ("FOLD", "CALL 6 (adds 5)", "RAISE 9")),
])
def test_bet_2_bet_5_bet_8_each_family_words_for_the_small_blind_facing_6(
        game: str, extra: dict[str, Any], words: tuple[str, str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The small blind has 1 in and faces 6: the call is said as the total, 6, and the chips it adds, 5 (the
    seat's screen said "to call 5", the simulator "CALL to call 6"); the raise is said in the game's own
    structure. The same words on the seat's screen and in the console's hand view."""
    table = small_blind_facing_6(game, **extra)
    expectation = table.expectation()
    assert expectation.seat == 2 and expectation.legal is not None
    assert expectation.legal.words() == words
    rows = drawn_rows(seat_view(table, 2), monkeypatch)
    assert (rows[3], rows[4]) == ([words[1]], [words[2]])
    view = role_view("dealer", table, {}, {})
    assert view["action"] == {"seat": 2, "words": list(words)}


def test_bet_1_no_bet_yet_reads_bet_and_the_big_blind_option_reads_check_and_raise() -> None:
    """BET-1: on the flop with nothing bet, the first seat may CHECK or BET 3 (the big blind) up to all-in.
    BET-13: pre-flop after calls, the big blind may CHECK or RAISE (it has 3 in)."""
    table = small_blind_facing_6("nlhe")
    called: list[dict[str, Any]] = [{"type": "act", "seat": 2, "action": "call"},
                                    {"type": "act", "seat": 3, "action": "call"},
                                    *({"type": "card", "card": c} for c in ("2c", "3c", "4c", "5c"))]
    for entry in called:
        assert table.apply(entry).accepted
    legal = table.expectation().legal
    assert legal is not None and legal.words() == ("FOLD", "CHECK", "BET 3-294 (all-in)")
    option = Table()
    limped: list[dict[str, Any]] = [
        {"type": "table", "game": "nlhe", "rules": "home", "seats": 6, "blinds": [1, 3]},
        *({"type": "sit", "seat": s, "player": f"P{s}", "stack": 300} for s in (1, 2, 3)),
        {"type": "button", "seat": 1}, {"type": "start"}, *({"type": "card", "card": c} for c in HOLE),
        {"type": "act", "seat": 1, "action": "call"}, {"type": "act", "seat": 2, "action": "call"}]
    for entry in limped:
        assert option.apply(entry).accepted
    legal = option.expectation().legal
    assert option.expectation().seat == 3 and legal is not None
    assert legal.words() == ("FOLD", "CHECK", "RAISE 6-300 (all-in)")


def test_bet_4_a_call_for_all_the_chips_says_all_in() -> None:
    """BET-4: seat 3 (big blind) raised to 9 and faces seat 1's all-in to 300 with seat 2 folded: its call is all
    its chips, 300 - 9 = 291 more, "CALL 300 all-in (adds 291)", and no raise is possible."""
    table = small_blind_facing_6("nlhe")
    for entry in ({"type": "act", "seat": 2, "action": "fold"}, {"type": "act", "seat": 3, "action": "raise", "to": 9},
                  {"type": "act", "seat": 1, "action": "all_in"}):
        assert table.apply(entry).accepted
    legal = table.expectation().legal
    assert legal is not None and legal.words() == ("FOLD", "CALL 300 all-in (adds 291)", "no raise")
