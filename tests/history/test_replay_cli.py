"""``dealerpi replay`` (dealerpi.history.replay_cli): lines, summary, JSON, exit status, --journal."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

import dealerpi
from dealerpi.history.replay_cli import main

EXAMPLES = Path(dealerpi.__file__).parent / "examples" / "hands"
FOLD_OUT = ("variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
            "starting_stacks = [100, 100, 100]\nactions = ['d dh p1 AsAd', 'd dh p2 7c2d', 'd dh p3 8h3s', "
            "'p3 cbr 6', 'p1 f', 'p2 f']\n")
# p3 wins the blinds: 99, 98, 103 (POT-8); the second hand records a wrong result.
MATCHING = FOLD_OUT + "finishing_stacks = [99, 98, 103]\n"
WRONG = FOLD_OUT + "finishing_stacks = [100, 98, 102]\n"


def test_all_examples_match_and_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(EXAMPLES)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1
    assert out[0].startswith("4 hands: 4 match; 0 unreadable files; ")


def test_a_mismatch_is_one_line_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "hands.phhs").write_text(f"[1]\n{MATCHING}\n[2]\n{WRONG}\n[3]\n{FOLD_OUT}")
    assert main([str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (f"{tmp_path}/hands.phhs[2]: mismatch: final stacks differ: p1 99 (recorded 100), "
                      "p3 103 (recorded 102)")
    assert out[1].startswith("3 hands: 1 match, 1 mismatch, 1 no-result; 0 unreadable files; ")
    assert len(out) == 2


def test_json_has_every_hand_and_a_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.phhs").write_text(f"[1]\n{MATCHING}\n[2]\n{WRONG}\n[3]\n{FOLD_OUT.replace('NT', 'FR')}")
    assert main(["--json", str(tmp_path / "a.phhs")]) == 1
    report = json.loads(capsys.readouterr().out)
    hands = report["hands"]
    file = str(tmp_path / "a.phhs")
    assert hands[0] == {"file": file, "index": "1", "variant": "NT", "status": "match",
                        "finishing_stacks": [99, 98, 103], "recorded": [99, 98, 103]}
    assert hands[1]["status"] == "mismatch" and hands[1]["recorded"] == [100, 98, 102]
    assert hands[1]["reason"] == "final stacks differ: p1 99 (recorded 100), p3 103 (recorded 102)"
    assert hands[2] == {"file": file, "index": "3", "variant": "FR", "status": "unsupported",
                        "finishing_stacks": None, "recorded": None,
                        "reason": "variant FR (fixed-limit razz) is not a game of the engine"}
    summary = report["summary"]
    assert summary["hands"] == 3
    assert summary["statuses"] == {"match": 1, "mismatch": 1, "unsupported": 1}
    assert summary["unreadable_files"] == 0 and summary["hands_per_second"] > 0
    assert report["unreadable"] == []


def test_json_writes_fractional_stacks_as_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = FOLD_OUT.replace("[1, 2, 0]", "[0.10, 0.25, 0]").replace("min_bet = 2", "min_bet = 0.25")
    (tmp_path / "c.phh").write_text(hand.replace("cbr 6", "cbr 0.75"))
    assert main(["--json", str(tmp_path / "c.phh")]) == 0
    assert json.loads(capsys.readouterr().out)["hands"][0]["finishing_stacks"] == [99.9, 99.75, 100.35]


def test_unreadable_files_are_listed_and_fail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "good.phh").write_text(MATCHING)
    (tmp_path / "bad.phh").write_text("variant = 'NT\n")
    assert main([str(tmp_path), str(tmp_path / "missing")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{tmp_path}/bad.phh: invalid: {tmp_path}/bad.phh: not valid TOML")
    assert out[1] == f"{tmp_path}/missing: invalid: {tmp_path}/missing: no such file or folder"
    assert out[2].startswith("1 hands: 1 match; 2 unreadable files; ")


def test_journal_is_handed_to_the_engine_journal_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []
    fake = types.ModuleType("dealerpi.history.journal_replay")

    def fake_main(argv: list[str]) -> int:
        seen.append(argv)
        return 7

    fake.main = fake_main  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "dealerpi.history.journal_replay", fake)
    assert main(["--journal", "table.journal"]) == 7
    assert seen == [["--journal", "table.journal"]]


def test_no_path_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2
    assert "usage: dealerpi replay" in capsys.readouterr().err
