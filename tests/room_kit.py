"""The room's fault tests: ``dealerpi room`` as its own process, started with a room.toml on a test broker
(mqtt_kit), asked through its page (summary.json, the host's POSTs from a loopback listen), killed with any
signal and started again from the same database; and the tables (the daemon's API on fake devices,
console_kit, each with the console's bridge), whose bridges stop and start, and whose journals are what the
room's stored hands must equal."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Protocol

import aiohttp
from console_kit import make
from mqtt_kit import Broker
from mtt_kit import play
from orphan_kit import dies_with_parent

from dealerpi.console.mqtt_bridge import TableBridge
from dealerpi.history.final_hands import FinalHands
from dealerpi.room.store_sql import connect


class Stoppable(Protocol):
    async def stop(self) -> None: ...


@contextlib.asynccontextmanager
async def stopped_after(*parts: Stoppable) -> AsyncIterator[None]:
    """The room process and the tables stopped when the block ends, however it ended."""
    try:
        yield
    finally:
        for part in parts:
            await part.stop()


class RoomProcess:
    """``python -m dealerpi room --config room.toml``: started, asked through its page, killed."""

    def __init__(self, folder: Path, broker: Broker, rest: str, database: str = "room.sqlite") -> None:
        """``rest``: room.toml's games or tournament."""
        self.folder = folder
        self.config = folder / "room.toml"
        self.config.write_text(
            f'[room]\ndatabase = "{database}"\nlisten = "127.0.0.1:0"\nstate = "room-state"\n\n'
            f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n'
            f'password_file = "{broker.folder / "broker" / "room.password"}"\n\n{rest}')
        self.process: asyncio.subprocess.Process | None = None
        self.url = ""

    async def start(self) -> None:
        with open(self.folder / "room.log", "ab") as log:
            self.process = await asyncio.create_subprocess_exec(     # dies with pytest, however (orphan_kit)
                *dies_with_parent([sys.executable, "-m", "dealerpi", "room", "--config", str(self.config)]),
                stdout=asyncio.subprocess.PIPE, stderr=log)
        assert self.process.stdout is not None
        line = (await asyncio.wait_for(self.process.stdout.readline(), 30)).decode()
        assert line.startswith("DealerPi room on 127.0.0.1:"), line
        self.url = f"http://127.0.0.1:{int(line.split(';')[0].rpartition(':')[2])}"

    async def stop(self) -> None:
        """At the end of a test, whatever happened: killed if it still runs."""
        if self.process is not None:
            await self.kill()

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


class Tables:
    """Tables named ``names`` in ``folder``/NAME, each with its bridge to ``broker``."""

    def __init__(self, folder: Path, broker: Broker, names: tuple[str, ...]) -> None:
        self.broker, self.names = broker, names
        self.kits: dict[str, tuple[Any, Any, Any]] = {}
        for name in names:
            (folder / name).mkdir()
            self.kits[name] = make(folder / name)
        self.bridges: dict[str, asyncio.Future[None]] = {}

    def controller(self, name: str) -> Any:
        return self.kits[name][1]

    async def start(self) -> None:
        for name in self.names:
            await self.kits[name][2].start()
            self.bridge(name)

    def bridge(self, name: str) -> None:
        """The table's console (its bridge) starts."""
        config, _controller, api = self.kits[name]
        self.bridges[name] = asyncio.ensure_future(TableBridge(self.broker.settings(name), api.path,
                                                               config.journal, retry=0.1).run())

    async def stop_bridge(self, name: str) -> None:
        """The table's console stops (cleanly: it says offline)."""
        self.bridges[name].cancel()
        await asyncio.gather(self.bridges[name], return_exceptions=True)

    async def stop(self) -> None:
        for task in self.bridges.values():
            task.cancel()
        await asyncio.gather(*self.bridges.values(), return_exceptions=True)
        for _config, _controller, api in self.kits.values():
            await api.stop()

    def journal(self, name: str) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.kits[name][0].journal.read_text().splitlines()]

    def final_hands(self, name: str) -> int:
        return len(FinalHands(self.kits[name][0].journal).poll())

    def check_stored(self, database: Path | str) -> dict[str, int]:
        """The room's hands are exactly each table's finished hands, read again from its journal (session,
        seq and PHH text), and no command of the room's is unanswered; each table's count of hands."""
        db = connect(database)
        try:
            counts = {}
            for name in self.names:
                journal = FinalHands(self.kits[name][0].journal)
                final = journal.poll()
                stored = sorted(db.execute("SELECT session, seq, phh FROM hands WHERE tbl = ?", (name,)))
                assert stored == [(journal.session, hand.seq, hand.phh) for hand in final], name
                counts[name] = len(final)
            assert tuple(db.execute("SELECT COUNT(*) FROM commands WHERE answer IS NULL").fetchone()) == (0,)
            return counts
        finally:
            db.close()


async def start_tournament(tables: Tables, room: RoomProcess, players: tuple[str, ...]) -> None:
    """The tables and the room started; once the room sees every table online, ``players`` registered and
    the tournament started from the room's page."""
    await tables.start()
    await room.start()
    await until_summary(room, lambda s: all(s["tables"].get(t, {}).get("online") for t in tables.names))
    for player in players:
        await room.post({"op": "register", "player": player}, "/tournament")
    await room.post({"op": "start"}, "/tournament")


def table_playing(folder: Path, hands: int, names: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> FinalHands:
    """A table (daemon_kit's 3 seats, one config for all) with ``names`` (Ann, Bob and Cy), playing ``hands`` walks; the
    console's reader of its final hands (the last one is final when a next hand starts: one more is begun)."""
    folder.mkdir(parents=True, exist_ok=True)
    config, controller, _api = make(folder)
    for seat, name in enumerate(names, 1):
        assert controller.submit({"type": "sit", "seat": seat, "player": name, "stack": 300}).accepted
    for _ in range(hands):
        play(controller, walk=True)
    assert controller.submit({"type": "start"}).accepted
    controller.journal.close()
    return FinalHands(config.journal)


def desk(config: Path, *args: str) -> str:
    """``dealerpi room desk --config CONFIG ARGS``: the front desk's command as a person runs it; its output."""
    done = subprocess.run([sys.executable, "-m", "dealerpi", "room", "desk", "--config", str(config), *args],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout
