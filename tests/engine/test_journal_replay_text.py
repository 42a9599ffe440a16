"""The text of ``dealerpi replay --journal FILE`` (journal_replay.py): what a person reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from journal_kit import sit, table

from dealerpi.history.journal_replay import main

SEATED = [table(seats=6), sit(1, 300, "Ann"), sit(2, 200, "Bob")]


def replayed_text(tmp_path: Path, capsys: pytest.CaptureFixture[str], entries: list[dict[str, object]]) -> str:
    path = tmp_path / "table.jsonl"
    path.write_text("".join(json.dumps(entry) + "\n" for entry in entries), encoding="utf-8")
    assert main(["--journal", str(path)]) == 0
    return capsys.readouterr().out


def test_before_the_button_is_placed_the_text_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No "button: seat None": before the first hand nobody placed the button."""
    assert replayed_text(tmp_path, capsys, SEATED) == (
        "button: not yet placed\nseat 1: Ann 300\nseat 2: Bob 200\nnext: {\"expect\": \"start\"}\n")


def test_a_folded_hand_names_the_button_and_the_pot_pot_2_bld_4(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """BLD-4: heads-up the button (seat 1, Ann) posts the small blind 1, Bob the big blind 3. Ann folds: POT-2
    gives Bob back the 2 she did not call, the pot is 1 + 1 = 2: Ann 299, Bob 201. No board line: no board
    card was dealt."""
    hand: list[dict[str, Any]] = [{"type": "button", "seat": 1}, {"type": "start"},
            *({"type": "card", "card": card} for card in ("Kh", "Qh", "Ah", "Kd")),
            {"type": "act", "seat": 1, "action": "fold"}]
    assert replayed_text(tmp_path, capsys, [*SEATED, *hand]) == (
        "button: seat 1\nseat 1: Ann 299\nseat 2: Bob 201\nhand 1 (button seat 1)\n"
        "  pot 2 (seats [2]): seat 2 2\n"
        "line 5 BLD-4: First hand: heads-up: seat 1 has the button and posts the small blind, seat 2 the big blind\n"
        "line 10 POT: Push: seat 2 2\n"
        "next: {\"expect\": \"start\"}\n")


def test_an_irregularity_names_the_seat_as_the_live_alert_did_exp_1(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 19: the hand's irregularities said "player 0" (the engine's index in the hand) where the live
    alert, the dealer's, said the seat. EXP-1: the third card of the deal, Ah, is exposed: it goes to seat 2
    (the deal starts left of the button, seat 1: Kh to seat 2, Qh to seat 1, Ah to seat 2), so seat 2 gets
    the next card and Ah becomes the burn. Both lines name seat 2."""
    hand: list[dict[str, Any]] = [{"type": "button", "seat": 1}, {"type": "start"},
            *({"type": "card", "card": card} for card in ("Kh", "Qh", "Ah")),
            {"type": "exposed", "card": "Ah"}]
    text = replayed_text(tmp_path, capsys, [*SEATED, *hand])
    said = "EXP-1: Ah was exposed: finish the deal, give seat 2 the next card, and Ah becomes the burn"
    assert f"\n  {said}\n" in text and f"\nline 9 {said}\n" in text
