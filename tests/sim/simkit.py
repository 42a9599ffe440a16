"""``dealerpi sim`` in the test's event loop (the daemon on fake devices with the virtual shoe, and the console),
and a client of the panel page's WebSocket that keeps the view as the page does (whole, then changes)."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from PIL import Image

from dealerpi import config as config_module
from dealerpi.config import Config
from dealerpi.devices import FakeDevices
from dealerpi.journal.folder import segment_name
from dealerpi.sim.deck import VirtualDeck
from dealerpi.sim.panel import VirtualPanel
from dealerpi.sim.server import SIM_CONFIG, START_JOURNAL, run_sim, sim_config
from dealerpi.table.api.server import ApiServer
from dealerpi.table.controller import Controller
from dealerpi.wire.protocol import merge

View = dict[str, Any]


@dataclass
class Sim:
    """The running simulator: its config, devices, the daemon's controller, and the console's address."""

    config: Config
    devices: FakeDevices
    controller: Controller
    url: str
    out: Path
    session: aiohttp.ClientSession

    @property
    def table(self) -> Any:
        return self.controller.table

    @property
    def deck(self) -> VirtualDeck:
        """The virtual shoe's deck, through the daemon's API and its panel (the simulator's parts)."""
        api = self.controller.api
        assert isinstance(api, ApiServer) and isinstance(api.panel, VirtualPanel) and api.panel.deck is not None
        return api.panel.deck

    def journal_text(self) -> str:
        folder = self.out / "journal"
        return "".join(path.read_text() for path in sorted(folder.glob("*.jsonl")))

    def journal_types(self) -> list[str]:
        return [json.loads(line)["type"] for line in self.journal_text().splitlines()]

    async def page(self, view: str = "panel") -> Page:
        ws = await self.session.ws_connect(f"{self.url}/ws?view={view}")
        page = Page(ws)
        await page.next(lambda v: True)
        return page


@dataclass
class Page:
    """One page's WebSocket: ``view`` is what the page would show; ``sent`` counts the bytes it received."""

    ws: aiohttp.ClientWebSocketResponse
    view: View = field(default_factory=dict)
    results: list[dict[str, Any]] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)

    async def next(self, predicate: Callable[[View], bool], timeout: float = 20.0) -> View:
        """Read messages until the view satisfies ``predicate`` (at once if it does already); ``timeout`` is an
        upper bound for a loaded 2-core machine, not a wait."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (self.view and predicate(self.view)):
            message = await asyncio.wait_for(self.ws.receive(), max(0.01, deadline - loop.time()))
            assert message.type is aiohttp.WSMsgType.TEXT, message
            self.sizes.append(len(message.data.encode()))
            data = json.loads(message.data)
            if data["type"] == "view":
                self.view = data["view"]
            elif data["type"] == "changes":
                merge(self.view, data["changes"])
            elif data["type"] == "result":
                self.results.append(data)
            else:
                raise AssertionError(f"the page was told: {data}")
        return self.view

    async def result(self, timeout: float = 20.0) -> dict[str, Any]:
        """The answer to the last operation sent."""
        count = len(self.results)
        await self.next(lambda v: len(self.results) > count, timeout)
        return self.results[-1]

    async def op(self, **message: Any) -> dict[str, Any]:
        await self.ws.send_json(message)
        return await self.result()

    async def click(self, where: int | str, button: str) -> None:
        """A press and a release, as a mouse click on a button of the page."""
        assert (await self.op(op="press", where=where, button=button))["accepted"]
        await asyncio.sleep(0.05)
        assert (await self.op(op="release", where=where, button=button))["accepted"]

    async def deal(self, *cards: str | None) -> None:
        """Slide each card (None: the next one) out of the virtual shoe, one click each."""
        for card in cards:
            after = self.view["virtual_shoe"]["dealt"]
            answer = await self.op(op="deal", after=after, **({"card": card} if card else {}))
            assert answer["accepted"], answer

            def dealt_since(v: View, n: int = after) -> bool:
                return bool(v["virtual_shoe"]["dealt"] != n)

            await self.next(dealt_since)

    async def send(self, entry: dict[str, Any], **params: Any) -> dict[str, Any]:
        return await self.op(op="input", entry=entry, **params)

    async def close(self) -> None:
        await self.ws.close()


@asynccontextmanager
async def running_sim(out: Path, *, lines: list[str] | None = None, seed: int = 5) -> AsyncIterator[Sim]:
    """The simulator on the 10-seat example wiring; a new ``out`` starts from ``lines`` (default: the start
    journal, six seats, Ann 300, Bob 200 and Cy 100 in seats 1-3, the button on seat 1); an ``out`` that has a
    journal goes on from it, as ``dealerpi sim --out`` does."""
    journal = out / "journal"
    if not journal.exists():
        journal.mkdir(parents=True)
        text = START_JOURNAL.read_text().splitlines() if lines is None else lines
        (journal / segment_name(1)).write_text("".join(f"{line}\n" for line in text))
    config = sim_config(config_module.load(str(SIM_CONFIG)), out, "127.0.0.1:0")
    devices = FakeDevices(config)
    port: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    controllers: list[Controller] = []
    task = asyncio.ensure_future(run_sim(config, devices, deck_rng=random.Random(seed), ready=port.set_result,
                                         started=controllers.append))
    try:
        await asyncio.wait([task, port], timeout=60, return_when=asyncio.FIRST_COMPLETED)
        assert port.done(), f"the simulator did not start: {task.result() if task.done() else 'timeout'}"
        controller = controllers[0]
        for _ in range(500):                                   # the virtual shoe's first heartbeat
            if controller.shoe_health.online:
                break
            await asyncio.sleep(0.02)
        async with aiohttp.ClientSession() as session:
            yield Sim(config, devices, controller, f"http://127.0.0.1:{port.result()}", out, session)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        devices.close()


def image_of(url: str) -> Image.Image:
    """The image a PNG data URL of the page holds."""
    assert url.startswith("data:image/png;base64,")
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))


def expecting(words: str) -> Callable[[View], bool]:
    return lambda view: view.get("expect") == words
