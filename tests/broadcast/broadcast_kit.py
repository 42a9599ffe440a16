"""A table daemon (fake devices, its real Unix socket) and the broadcast process's server on one loop, with a
clock the test moves (no real waits for the delay), and a driver that plays whole hands."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from console_kit import start
from daemon_kit import CONFIG

from dealerpi.broadcast.server import Broadcast, serve
from dealerpi.broadcast.session import BroadcastSession
from dealerpi.broadcast.settings import load
from dealerpi.engine import Waiting
from dealerpi.table.api.server import ApiServer
from dealerpi.table.controller import Controller

SIT = [{"type": "sit", "seat": s, "player": n, "stack": 300} for s, n in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]
T0 = 1_800_000_000_000            # the tests' wall clock starts here (ms)


class Clock:
    """The wall clock in ms, for the daemon (seconds) and the broadcast (ms) alike; the test moves it."""

    def __init__(self) -> None:
        self.ms = T0

    def __call__(self) -> int:
        return self.ms

    def seconds(self) -> float:
        return self.ms / 1000


def broadcast_toml(tmp_path: Path, minutes: int = 30, extra: str = "") -> Path:
    path = tmp_path / "broadcast.toml"
    path.write_text(f'[broadcast]\ntable = "table.toml"\nlisten = "127.0.0.1:0"\nstate = "bstate"\n'
                    f"delay_minutes = {minutes}\n{extra}")
    return path


@dataclass
class Rig:
    controller: Controller
    api: ApiServer
    clock: Clock
    tmp_path: Path
    broadcast: Broadcast | None = None
    port: int = 0
    task: asyncio.Future[None] | None = None

    def submit(self, entry: dict[str, Any]) -> None:
        outcome = self.controller.submit(dict(entry))
        assert outcome.accepted, (entry, outcome.reason)
        self.controller.refresh()

    @property
    def session(self) -> BroadcastSession:
        assert self.broadcast is not None
        return self.broadcast.session

    async def start_broadcast(self, minutes: int = 30, extra: str = "") -> None:
        """``dealerpi broadcast`` as its unit starts it, on this loop; back once it follows the daemon."""
        settings = load(broadcast_toml(self.tmp_path, minutes, extra))
        found: asyncio.Future[tuple[Broadcast, int]] = asyncio.get_running_loop().create_future()
        self.task = asyncio.ensure_future(serve(settings, self.clock, ready=lambda b, p: found.set_result((b, p))))
        self.broadcast, self.port = await found
        for _ in range(500):                    # the link says hello over the real socket
            if self.broadcast.session.table is not None and any(c.role == "broadcast" for c in self.api.clients):
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the broadcast did not connect to the daemon")

    async def stop_broadcast(self) -> None:
        """As systemd stops it (SIGTERM cancels the serving task)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
        for _ in range(500):                    # the daemon has seen the connection close
            if not any(c.role == "broadcast" for c in self.api.clients):
                return
            await asyncio.sleep(0.01)


async def play_hand(rig: Rig, deck: list[str], script: list[str] | None = None, step_ms: int = 2000,
                    start: bool = True) -> None:
    """``start``, then every card the table asks for from ``deck`` in order (hole cards, burns, boards),
    the seats' actions from ``script`` in turn ("fold", "bet:6" a bet to 6; then check or call), every hand
    shown at the showdown; each input ``step_ms`` after the one before on the clock. When ``deck`` runs out
    the hand is left in play, waiting for the next card (``start=False`` goes on with it)."""
    if start:
        rig.submit({"type": "start"})
    cards = iter(deck)
    moves = iter(script or [])
    table = rig.controller.table
    while not table.between_hands:
        rig.clock.ms += step_ms
        expectation = table.expectation()
        if expectation.waiting in (Waiting.CARD, Waiting.BURN):
            card = next(cards, None)
            if card is None:                    # the deck given is dealt: the hand stays in play here
                break
            rig.submit({"type": "card", "card": card})
        elif expectation.waiting is Waiting.ACTION:
            legal = expectation.legal
            assert legal is not None
            action, _, to = next(moves, "check" if legal.check else "call").partition(":")
            rig.submit({"type": "act", "seat": expectation.seat, "action": action, **({"to": int(to)} if to else {})})
        elif expectation.waiting is Waiting.SHOWDOWN:
            rig.submit({"type": "show", "seat": expectation.seats[0]})
        else:
            raise AssertionError(f"the table waits for {expectation.words()}")
        await asyncio.sleep(0)
    await asyncio.sleep(0.01)


@contextlib.asynccontextmanager
async def running(tmp_path: Path, minutes: int = 30, extra: str = "", clock: Clock | None = None,
                  sit: bool = True, table_text: str = CONFIG) -> AsyncIterator[Rig]:
    """The daemon's API listening, the broadcast serving and following it, three players seated."""
    clock = clock or Clock()
    _config, controller, api = start(tmp_path, table_text, wall=clock.seconds)
    await api.start()
    rig = Rig(controller, api, clock, tmp_path)
    await rig.start_broadcast(minutes, extra)
    if sit and not controller.table.seats:
        for entry in SIT:
            rig.submit(entry)
    try:
        yield rig
    finally:
        await rig.stop_broadcast()
        await api.stop()
        controller.close()
