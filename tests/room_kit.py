"""``dealerpi room`` as its own process for the room's fault tests: started with a room.toml on a test broker
(mqtt_kit), asked through its page (summary.json, the host's POSTs from a loopback listen), killed with any
signal and started again from the same database."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path
from typing import Any

import aiohttp
from mqtt_kit import Broker


class RoomProcess:
    """``python -m dealerpi room --config room.toml``: started, asked through its page, killed."""

    def __init__(self, folder: Path, broker: Broker, rest: str) -> None:
        """``rest``: room.toml's games or tournament."""
        self.folder = folder
        self.config = folder / "room.toml"
        self.config.write_text(
            f'[room]\ndatabase = "room.sqlite"\nlisten = "127.0.0.1:0"\nstate = "room-state"\n\n'
            f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n'
            f'password_file = "{broker.folder / "broker" / "room.password"}"\n\n{rest}')
        self.process: asyncio.subprocess.Process | None = None
        self.url = ""

    async def start(self) -> None:
        with open(self.folder / "room.log", "ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "dealerpi", "room", "--config", str(self.config),
                stdout=asyncio.subprocess.PIPE, stderr=log)
        assert self.process.stdout is not None
        line = (await asyncio.wait_for(self.process.stdout.readline(), 30)).decode()
        assert line.startswith("DealerPi room on 127.0.0.1:"), line
        self.url = f"http://127.0.0.1:{int(line.split(';')[0].rpartition(':')[2])}"

    async def kill(self, sig: signal.Signals = signal.SIGKILL) -> int:
        assert self.process is not None
        self.process.send_signal(sig)
        code = await self.process.wait()
        self.process = None
        return code

    async def summary(self) -> dict[str, Any]:
        async with aiohttp.ClientSession() as session, session.get(f"{self.url}/summary.json") as response:
            data: dict[str, Any] = await response.json()
            return data

    async def post(self, body: dict[str, Any], path: str = "/waiting") -> dict[str, Any]:
        """A host's operation (the waiting lists, the tournament desk), from the room's own page (loopback:
        no token)."""
        async with aiohttp.ClientSession() as session, \
                session.post(f"{self.url}{path}", json=body, headers={"Origin": self.url}) as response:
            assert response.status == 200, await response.text()
            data: dict[str, Any] = await response.json()
            return data


async def until_summary(room: RoomProcess, condition: Any, timeout: float = 15.0) -> dict[str, Any]:
    """The room's summary once ``condition(summary)`` holds (asked every 50 ms); on a timeout the failure
    shows the last summary and the end of the room's log."""
    seen: dict[str, Any] = {}

    async def ask() -> None:
        while True:
            seen.update(await room.summary())
            if condition(seen):
                return
            await asyncio.sleep(0.05)
    try:
        await asyncio.wait_for(ask(), timeout)
    except TimeoutError:
        log = (room.folder / "room.log").read_text(errors="replace")[-2000:]
        raise AssertionError(f"timed out; the room's last summary: {seen}\nthe room's log ends:\n{log}") from None
    return seen


