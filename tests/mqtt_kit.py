"""A real mosquitto on 127.0.0.1 for the room's tests: a generated config on a free port, run as a
subprocess (never a system service), with the room's ACL and hashed passwords (dealerpi.room.acl)."""

from __future__ import annotations

import asyncio
import getpass
import json
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiomqtt
from orphan_kit import dies_with_parent

from dealerpi.room.acl import conf_text, write_broker_files
from dealerpi.wire.broker import MqttSettings

if TYPE_CHECKING:
    from tls_kit import Certs

PREFIX = "dealerpi"
WATCHER = "watch"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Broker:
    """``start``/``kill`` keep the same port, so clients reconnect to the broker that comes back. With
    ``tls`` the one listener speaks TLS only, configured as docs/room.md's TLS section says."""

    def __init__(self, folder: Path, tables: list[str], tls: Certs | None = None, bind_ids: bool = True) -> None:
        """``bind_ids=False``: without ``use_username_as_clientid`` (the takeover test's positive control)."""
        if shutil.which("mosquitto") is None:
            raise RuntimeError("mosquitto is not installed: `bash .ci/system-packages` installs it "
                               "(the README's test command runs it)")
        self.folder = folder
        self.port = free_port()
        files = write_broker_files(folder / "broker", PREFIX, tables)
        self.conf = folder / "broker" / "mosquitto.conf"
        # run as root (a CI container) mosquitto drops to the user "mosquitto", who cannot read a 0700
        # pytest folder: ``user`` keeps this user (mosquitto.conf(5): only used when started as root)
        self.tls = tls
        certificate = "" if tls is None else f"certfile {tls.cert}\nkeyfile {tls.key}\n"
        self._add_watcher(folder / "broker", files)
        conf = conf_text(folder / "broker", f"{self.port} 127.0.0.1")      # as `dealerpi room broker-files`
        if not bind_ids:
            conf = conf.replace("use_username_as_clientid true\n", "")
        self.conf.write_text(f"user {getpass.getuser()}\n{conf}{certificate}"
                             f"persistence false\nlog_dest file {folder / 'broker' / 'mosquitto.log'}\n")
        self.process: subprocess.Popen[bytes] | None = None

    @staticmethod
    def _add_watcher(folder: Path, files: dict[str, Path]) -> None:
        """The tests' own user ``watch``, reading everything: client ids are bound to users (a second
        client logged in as ``room`` would take the room's connection over), so the tests' Listener has its
        own. Hashed by ``mosquitto_passwd -U`` as the room's users are."""
        with files["acl"].open("a", encoding="utf-8") as acl:
            acl.write(f"\nuser {WATCHER}\ntopic read {PREFIX}/#\ntopic read broadcast/#\n")
        plain = folder / "watch.passwd"
        plain.write_text(f"{WATCHER}:{WATCHER}-password\n", encoding="utf-8")
        subprocess.run(["mosquitto_passwd", "-U", str(plain)], check=True, capture_output=True)
        with files["passwd"].open("a", encoding="utf-8") as passwd:
            passwd.write(plain.read_text(encoding="utf-8"))

    def settings(self, name: str) -> MqttSettings:
        return MqttSettings(name, "127.0.0.1", self.port, PREFIX, self.folder / "broker" / f"{name}.password",
                            None if self.tls is None else self.tls.ca)

    def start(self) -> None:
        # SIGTERM when pytest dies, however (orphan_kit); mosquitto(8): SIGTERM makes it exit
        self.process = subprocess.Popen(dies_with_parent(["mosquitto", "-c", str(self.conf)]),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.02)
        raise RuntimeError(f"mosquitto did not listen on {self.port}")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def run(self, main: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """``asyncio.run(main())``, and the broker killed after it, however it ended."""
        try:
            asyncio.run(main())
        finally:
            self.kill()


class Listener:
    """The tests' reading user subscribed to everything under the prefix: every message, in order."""

    def __init__(self, broker: Broker, topic: str = f"{PREFIX}/#") -> None:
        self.broker, self.topic = broker, topic
        self.messages: list[tuple[str, str, bool]] = []
        self._task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    async def _run(self) -> None:
        async with aiomqtt.Client("127.0.0.1", self.broker.port, username=WATCHER, password=f"{WATCHER}-password",
                                  identifier="test-listener") as c:
            await c.subscribe(self.topic, qos=1)
            self.ready.set()
            async for message in c.messages:
                payload = message.payload
                text = payload.decode() if isinstance(payload, bytes) else str(payload)
                self.messages.append((message.topic.value, text, message.retain))

    async def __aenter__(self) -> Listener:
        self._task = asyncio.ensure_future(self._run())
        await asyncio.wait_for(self.ready.wait(), 5)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)

    def last(self, topic: str) -> Any:
        texts = [text for name, text, _ in self.messages if name == topic]
        return json.loads(texts[-1]) if texts and texts[-1].startswith("{") else (texts[-1] if texts else None)


async def until(condition: Any, timeout: float = 5.0) -> None:
    """Wait (polling every 10 ms) until ``condition()`` is true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.01)
