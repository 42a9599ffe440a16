"""docs/tournaments.md: its example journal replays exactly as the page describes it (TRN-1, TRN-2, TRN-4,
BLD-2, BLD-4, BLD-10, DEAL-2). The expected values are the page's, worked out by hand there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from journal_kit import play_of, replay, stacks

PAGE = Path(__file__).resolve().parents[2] / "docs" / "tournaments.md"


def example() -> list[dict[str, Any]]:
    text = PAGE.read_text(encoding="utf-8")
    block = text.split("## Example", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    return [json.loads(line) for line in block.strip().splitlines()]


def messages(result: dict[str, Any], rule: str) -> list[str]:
    return [a["message"] for a in result["alerts"] if a["rule"] == rule]


def test_tournaments_page_example_replays_as_described() -> None:
    journal = example()
    assert len(journal) == 31
    start_2 = [k for k, entry in enumerate(journal) if entry["type"] == "start"][1]

    _, result = replay(journal[:start_2])                   # steps 1-3: hand 1
    assert result["hands"][0]["posts"] == {"2": {"live": 50, "dead": 0, "ante": 0},
                                           "3": {"live": 100, "dead": 0, "ante": 0}}
    assert messages(result, "TRN-1") == ["Level 2: blinds 100/200, bb ante 200, from the next hand"]
    assert result["hands"][0]["boards"] == [["Kc", "9d", "4h", "Js", "3s"]]
    assert messages(result, "TRN-4") == ["Cy finishes 3"]
    assert stacks(result) == {1: 4050, 2: 2950}

    played, result = replay(journal)                        # steps 4-6: hand 2
    assert play_of(played).plan is not None and play_of(played).plan.order == (1, 2)
    assert result["hands"][1]["posts"] == {"1": {"live": 200, "dead": 0, "ante": 200},
                                           "2": {"live": 100, "dead": 0, "ante": 0}}
    assert messages(result, "TRN-2") == ["Clock on seat 2: 30 seconds", "Time: seat 2's hand is folded"]
    assert stacks(result) == {1: 4150, 2: 2850}
    assert result["level"] == "L2 100/200 bb ante 200 19:30"
    assert result["tournament"] == {"pool": 90, "remaining": 2,
                                    "places": [{"player": "Cy", "place": 3, "prize": 0}]}
    assert result["rejected"] == []
    assert result["next"] == {"expect": "start"}
