"""Commands per bust of the room's tournament director (issue 20: "36 of 159 commands refused"; goal: one
``leave`` per bust, none refused).

The director over engine tables (tests/tda_kit.py: every command checked against the TDA as its table takes
it; each table's answer heard before its new view, as over MQTT), players busting one a hand at the emptier
table (every third hand a walk) until the final table is drawn: 11 players over two tables, then 15 and two
late entrants over three. Prints, per run: busts, commands, refused, ``leave`` commands for busted players
(refused ones included) and that per bust.

    .venv/bin/python bench/bench_room_commands.py

To measure another version of the director, put its ``dealerpi`` folder first on the path:
``cd /tmp/old && python /path/to/bench/bench_room_commands.py`` (from a folder holding that ``dealerpi``).
Figures (docs/room.md, one run each, 2026-11-26): before issue 20 (b5ce6ad), 2.0 leaves per bust in both
runs, 11 of 55 and 20 of 91 commands refused; after, 1.0, and 0 of 49 and 0 of 89.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path.cwd()))            # a ``dealerpi`` folder here goes first (another version)
sys.path.insert(1, str(ROOT / "tests"))

from mtt_kit import play, smallest  # noqa: E402
from tda_kit import TdaRoom  # noqa: E402

from dealerpi.room.director.mtt_config import parse_tournament  # noqa: E402


def run(tables: list[str], players: list[str], late: list[str]) -> dict[str, float]:
    raw = {"tables": tables, "seats": 6, "buy_in": 100, "starting_stack": 5000, "payouts": [40, 30, 20, 10],
           "levels": [{"blinds": [50, 100], "minutes": 600}], "late_entry_levels": 0}
    settings, errors = parse_tournament(raw, "bench")
    assert settings is not None, errors
    room = TdaRoom(Path(tempfile.mkdtemp()), settings, players)
    busted: list[str] = []

    def seated(name: str) -> int:
        return sum(1 for info in room.tables[name].table.seats.values() if info.stack > 0)

    for turn in range(100):
        if room.director.state["final"]:
            break
        if turn == 4:
            for name in late:
                room.director.register(name, 1000.0)
        playing = [t for t in room.director.state["active"] if not room.tables[t].table.paused and seated(t) >= 2]
        walk = turn % 3 == 2
        table = playing[turn % len(playing)] if walk else min(playing, key=seated)
        loser = [] if walk else [smallest(room.tables[table])]
        play(room.tables[table], loser, walk=walk)
        busted += loser
        room.look(table)
        room.step()
    refused = room.refused()
    leaves = len(room.drops) + sum(1 for _, payload, _ in refused if payload["type"] == "leave")
    return {"busts": len(busted), "commands": len(room.log), "refused": len(refused), "leaves": leaves,
            "leaves per bust": round(leaves / len(busted), 2), "TDA breaches": len(room.problems)}


def main() -> None:
    import dealerpi
    print(f"dealerpi from {Path(dealerpi.__file__).parent}")
    print("11 players, 2 tables:", run(["t1", "t2"], [f"P{k:02d}" for k in range(11)], []))
    print("15 + 2 late, 3 tables:", run(["t1", "t2", "t3"], [f"P{k:02d}" for k in range(15)], ["Late1", "Late2"]))


if __name__ == "__main__":
    main()
