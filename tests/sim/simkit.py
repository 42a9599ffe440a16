"""A simulator running in the test's event loop, with a WebSocket client of its page."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from aiohttp import ClientWebSocketResponse
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from dealerpi import config as config_module
from dealerpi.sim.host import SimTable
from dealerpi.sim.server import SIM_CONFIG, START_JOURNAL, SimServer

State = dict[str, Any]


@asynccontextmanager
async def running_sim(tmp_path: Path, *, lines: list[str] | None = None, token: str | None = None,
                      seed: int = 5) -> AsyncIterator[tuple[SimTable, SimServer, TestClient]]:
    config = config_module.load(str(SIM_CONFIG))
    journal = tmp_path / "journal.jsonl"
    journal.write_text("".join(f"{line}\n" for line in (START_JOURNAL.read_text().splitlines()
                                                       if lines is None else lines)))
    sim = SimTable.open(config, journal, deck_rng=random.Random(seed))
    server = SimServer(sim, token)
    client = TestClient(TestServer(server.app()))
    await client.start_server()
    await sim.start()
    try:
        await asyncio.wait_for(sim.link.wait_online(), 5)
        yield sim, server, client
    finally:
        await server.close()
        await client.close()
        await sim.stop()


async def next_state(ws: ClientWebSocketResponse, predicate: Callable[[State], bool] = lambda s: True,
                     timeout: float = 5.0) -> State:
    """Read pushed states until one satisfies ``predicate``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        message = await asyncio.wait_for(ws.receive(), max(0.01, deadline - loop.time()))
        data = json.loads(message.data)
        if data["type"] == "error":
            raise AssertionError(f"the page was told: {data['message']}")
        if predicate(data):
            return data


async def click(ws: ClientWebSocketResponse, **target: Any) -> None:
    """A press and a release, as a mouse click on a button of the page."""
    await ws.send_json({"op": "press", **target})
    await asyncio.sleep(0.05)
    await ws.send_json({"op": "release", **target})


def image_of(url: str) -> Image.Image:
    """The image a PNG data URL of the page holds."""
    assert url.startswith("data:image/png;base64,")
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))


def expecting(words: str) -> Callable[[State], bool]:
    return lambda state: state["next"]["what"] == words
