"""The delayed feed to the room's broker (issue 21, optional part), on a real mosquitto with the room's ACL:
``broadcast/t1/status`` and ``broadcast/t1/frame`` retained; the room reads them, another table cannot; no
hole card reaches the broker before the delay has passed (and all of them after it: the positive control)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import aiomqtt
import pytest
from broadcast_kit import play_hand, running
from console_kit import cards_in
from daemon_kit import CONFIG
from mqtt_kit import Broker, Listener

pytestmark = pytest.mark.slow   # a real broker: 1 s

DECK = [rank + suit for suit in "shdc" for rank in "23456789TJQKA"]


async def _other_table(broker: Broker, seen: list[str], ready: asyncio.Event) -> None:
    """Table t2's login subscribed to every broadcast topic: the ACL gives it nothing of t1's."""
    async with aiomqtt.Client("127.0.0.1", broker.port, username="t2", password=broker.settings("t2").password(),
                              identifier="test-t2") as client:
        await client.subscribe("broadcast/#", qos=1)
        ready.set()
        async for message in client.messages:
            seen.append(message.topic.value)


def test_the_room_gets_the_delayed_feed_retained_no_sooner_and_another_table_nothing(tmp_path: Path) -> None:
    broker = Broker(tmp_path, ["t1", "t2"])
    broker.start()
    table_text = CONFIG + (f'\n[mqtt]\nname = "t1"\nhost = "127.0.0.1"\nport = {broker.port}\n'
                           f'password_file = "{tmp_path / "broker" / "t1.password"}"\n')

    async def main() -> None:
        other: list[str] = []
        ready = asyncio.Event()
        spy = asyncio.ensure_future(_other_table(broker, other, ready))
        await asyncio.wait_for(ready.wait(), 5)
        async with running(tmp_path, minutes=1, extra="mqtt = true\n", table_text=table_text) as rig, \
                Listener(broker, "broadcast/#") as room:
            await play_hand(rig, DECK, ["fold", "fold"])
            table = rig.controller.table
            dealt = sorted(card for seat in table.dealt_seats() for card in table.hole_cards(seat))
            # the hand: 16 s; a status is its typed record, version 1 (dealerpi/wire/stream.py FeedStatus)
            filling = ("broadcast/t1/status", {"state": "filling", "seconds_left": 60 - 16, "delay_s": 60, "v": 1})
            for _ in range(500):                          # the countdown reaches the broker
                if filling in statuses(room.messages):
                    break
                await asyncio.sleep(0.01)
            before = list(room.messages)
            rig.clock.ms += 2 * 60_000
            for _ in range(1000):                         # the release loop's next turns, then the broker
                if any(topic == "broadcast/t1/frame" and (json.loads(text)["result"] or {}).get("number") == 1
                       for topic, text, _ in room.messages):
                    break
                await asyncio.sleep(0.01)
            after = list(room.messages)
        spy.cancel()
        assert filling in statuses(before)
        assert all(topic == "broadcast/t1/status" for topic, _, _ in before)
        assert cards_in(json.dumps(before), dealt) == []
        frames = [text for topic, text, _ in after if topic == "broadcast/t1/frame"]
        assert cards_in("\n".join(frames), dealt) == dealt                    # the positive control
        assert {json.loads(text)["v"] for text in frames} == {1}        # BroadcastFrame, version 1 (wire/stream.py)
        assert ("broadcast/t1/status", {"state": "on_air", "delay_s": 60, "v": 1}) in statuses(after)
        assert other == []

    broker.run(main)


def statuses(messages: list[tuple[str, str, bool]]) -> list[tuple[str, object]]:
    """The feed's statuses as published (not retained ones replayed), decoded."""
    return [(topic, json.loads(text)) for topic, text, retained in messages
            if topic.endswith("/status") and not retained]
