"""The all-in reveal by TDA R16 (rules digest POT-5: once betting is over with an all-in, every live hand is
turned face up) on the delayed feed only (issue 21). The console's board TV turns them up at once (POT-5):
the venue feed waits for the hand's end, so a hand in play never has a hole card there."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from broadcast_kit import play_hand, running
from console_kit import cards_in

from dealerpi.views.roles import public_view

# seat 2, 3, 1 twice; burn, flop, burn, turn, burn, river
DECK = ["Ah", "9c", "Qh", "Kh", "9d", "Jh", "Th", "9h", "5h", "2c", "8d", "3s", "7d", "4c"]
SCRIPT = ["fold", "all_in", "call"]         # Ann folds, Bob all in, Cy calls: betting is over


def test_tda_r16_reveal_on_the_delayed_feed_and_no_hole_card_on_the_venue_feed_until_the_hand_ends(
        tmp_path: Path) -> None:
    async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
        async with running(tmp_path, minutes=1) as rig:
            venue: list[dict[str, Any]] = []
            board_tv: dict[str, Any] = {}
            rig.session.venue_listeners.append(lambda frame: venue.append(json.loads(json.dumps(frame))))

            def after_call(frame: dict[str, Any]) -> None:
                if not board_tv and [len(cards) for cards in frame["board"]] == [3]:     # the flop: after the call
                    board_tv.update(public_view(rig.controller.table))     # the console's board, now
            rig.session.venue_listeners.append(after_call)
            await play_hand(rig, DECK, SCRIPT)
            rig.clock.ms += 10 * 60_000
            delayed = rig.session.release()
            return venue, delayed, board_tv

    venue, delayed, board_tv = asyncio.run(run())
    # positive control: the console's board TV shows both all-in hands face up during the hand (POT-5)
    assert [board_tv["seats"][s]["cards"] for s in "23"] == [["Ah", "Kh"], ["9c", "9d"]]
    during = [frame for frame in venue if frame["in_hand"]]
    assert len(during) >= 10 and cards_in(json.dumps(during), ["Ah", "Kh", "9c", "9d", "Qh", "Jh"]) == []
    assert [venue[-1]["seats"][s]["cards"] for s in "123"] == [[], ["Ah", "Kh"], ["9c", "9d"]]   # over: tabled
    reveals = [(frame["last_action"], frame["reveal"]) for frame in delayed if frame["in_hand"]]
    called = reveals.index(("Cy calls", True))
    assert not any(reveal for _, reveal in reveals[:called])         # not before the betting is over
    assert all(reveal for _, reveal in reveals[called:])             # every frame after it, to the river
    after = [frame for frame in delayed if frame["in_hand"]][called:]
    assert len(after) == 1 + 4 + 2 + 1        # the call, burn + 3 flop cards, burn + turn, burn (the river ends it)
    assert all([f["seats"][s]["cards"] for s in "23"] == [["Ah", "Kh"], ["9c", "9d"]] for f in after)
