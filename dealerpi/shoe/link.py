"""The daemon's link to the card shoe: a pyserial port that survives unplugging.

``ShoeLink(url, on_card=...)`` opens ``serial.serial_for_url(url)`` (a device such as /dev/ttyACM0 or
/dev/serial/by-id/..., or any pyserial URL: ``loop://``, ``socket://host:port``, ``rfc2217://``), says
HELLO, and hands each new card read to ``on_card(uid)`` exactly once and in order (session.py), or to
``on_read(CardRead)``, which says whether it took the read: the table daemon journals the read's identity
(boot, seq) with the card and answers False when the journal failed, so the read is not acknowledged and
the shoe sends it again (``resume_from``, the last identity in the journal, makes a restart exact). A
``SerialException``/``OSError``, or no valid frame for ``heartbeat_timeout`` seconds, makes the shoe
*offline*: ``on_event(ShoeOffline)`` so the daemon can tell the dealer, then a reconnect after a capped
exponential backoff, logged at WARNING the first time and DEBUG after so a flapping shoe does not fill
the SD card (the aioesphomeapi reconnect logic's habit). The shoe resends what was not acknowledged.

Why a worker thread and not pyserial-asyncio: its transport needs a file descriptor (``add_reader``), which
``loop://`` and some URL handlers lack. So the port is owned by one worker thread (open, read with a
short timeout, write, close, in order) and the event loop awaits it; the loop never blocks on the port.

UIDs are not logged: with a deck's enrollment at hand a UID names a card, and hole cards are secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import functools
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import serial

from dealerpi.shoe.session import CardRead, HostSession, ReaderFault, ReadsLost, SessionEvent, ShoeRestarted

_LOGGER = logging.getLogger(__name__)
_T = TypeVar("_T")

BAUDRATE = 115200  # ignored by USB CDC, which runs at USB speed; kept for a real UART bridge


class LinkState(enum.Enum):
    STOPPED = "stopped"
    CONNECTING = "connecting"  # opening the port, or opened and waiting for the shoe's first frame
    ONLINE = "online"
    WAITING = "waiting"  # offline, sleeping before the next attempt


@dataclass(frozen=True)
class Backoff:
    """Delay before reconnect attempt n (1, 2, ...): ``initial * factor**(n-1)``, at most ``cap`` seconds."""

    initial: float = 0.5
    factor: float = 2.0
    cap: float = 30.0

    def delay(self, failures: int) -> float:
        return float(min(self.cap, self.initial * self.factor ** max(0, failures - 1)))


@dataclass(frozen=True)
class ShoeOnline:
    """The shoe answers on ``url`` (its first valid frame after opening the port)."""

    url: str


@dataclass(frozen=True)
class ShoeOffline:
    """The shoe cannot be heard: the port failed, vanished or went silent. ``reason`` is for the dealer."""

    url: str
    reason: str


ShoeEvent = ShoeOnline | ShoeOffline | ReadsLost | ShoeRestarted | ReaderFault


class ShoeSilentError(Exception):
    """The port is open but no valid frame came for ``heartbeat_timeout`` seconds."""


class ShoePortSettingError(ValueError):
    """pyserial refused the port's URL or settings (e.g. an unknown ``scheme://``): fix the config."""


def _close_if_opened(opening: Future[serial.Serial]) -> None:
    if not opening.cancelled() and opening.exception() is None:
        with contextlib.suppress(Exception):
            opening.result().close()


def _read_some(port: serial.Serial) -> bytes:
    """Wait up to the port's timeout for a byte, then take whatever else has arrived."""
    data = bytes(port.read(1))
    if data:
        waiting = port.in_waiting
        if waiting:
            data += port.read(waiting)
    return data


class ShoeLink:
    """One shoe, kept connected by one named task until ``stop()``."""

    def __init__(self, url: str, *, on_card: Callable[[str], None] | None = None,
                 on_read: Callable[[CardRead], bool] | None = None,
                 on_event: Callable[[ShoeEvent], None] | None = None, backoff: Backoff | None = None,
                 heartbeat_timeout: float = 3.5, read_timeout: float = 0.05, baudrate: int = BAUDRATE,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 open_port: Callable[[], serial.Serial] | None = None,
                 resume_from: tuple[str, int] | None = None, skip_backlog: bool = False) -> None:
        self.url = url
        self._on_card = on_card
        self._on_read = on_read
        self._on_event = on_event
        self.backoff = backoff or Backoff()
        self.heartbeat_timeout = heartbeat_timeout
        self._sleep = sleep
        self._open_port = open_port or functools.partial(
            serial.serial_for_url, url, baudrate=baudrate, timeout=read_timeout, write_timeout=1.0)
        self.session = HostSession(resume_from=resume_from, skip_backlog=skip_backlog)
        self._state = LinkState.STOPPED
        self._online = asyncio.Event()
        self._reported_offline = False
        self._failures = 0
        self._position = resume_from
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._executor: ThreadPoolExecutor | None = None
        self.connects = 0

    @property
    def state(self) -> LinkState:
        return self._state

    @property
    def online(self) -> bool:
        return self._state is LinkState.ONLINE

    @property
    def position(self) -> tuple[str, int] | None:
        """(boot, seq) of the read being (or last) handed to ``on_card``: journal it to resume exactly."""
        return self._position

    def counters(self) -> dict[str, int]:
        return {**self.session.counters(), "connects": self.connects, "failures": self._failures}

    async def wait_online(self) -> None:
        await self._online.wait()

    async def start(self) -> None:
        async with self._lock:
            if self._task is not None:
                return
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="shoe-port")
            self._task = asyncio.create_task(self._run(), name=f"shoe-link {self.url}")

    async def stop(self) -> None:
        """Cancel the link task; returns once the port is closed."""
        async with self._lock:
            task, self._task = self._task, None
            if task is None:
                return
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            if self._executor is not None:
                self._executor.shutdown(wait=False)  # idle: the task closed the port before ending
                self._executor = None
            self._set_state(LinkState.STOPPED)
            self._online.clear()

    async def _io(self, func: Callable[..., _T], *args: Any) -> _T:
        """Run ``func`` in the port's worker thread; cancelling the wait does not stop a running call."""
        assert self._executor is not None
        return await asyncio.wrap_future(self._executor.submit(func, *args))

    async def _run(self) -> None:
        while True:
            self._set_state(LinkState.CONNECTING)
            try:
                await self._connect_and_serve()
            except ShoePortSettingError as err:  # a malformed URL or setting: retrying cannot help
                _LOGGER.error("%s", err)
                self._went_offline(str(err))
                self._set_state(LinkState.STOPPED)
                return
            except (OSError, ShoeSilentError) as err:  # serial.SerialException is an OSError
                reason = str(err) or type(err).__name__
                self._went_offline(reason)
            except Exception as err:  # a bug of ours: say so loudly, but keep the table running
                _LOGGER.exception("shoe link failed")
                reason = f"internal error: {err!r}"
                self._went_offline(reason)
            self._failures += 1
            delay = self.backoff.delay(self._failures)
            level = logging.WARNING if self._failures == 1 else logging.DEBUG
            # the reason in the log too: "Operation not permitted" is the unit's sandbox (issue 23 item 1)
            _LOGGER.log(level, "shoe on %s offline (attempt %d failed: %s); retrying in %g s",
                        self.url, self._failures, reason, delay)
            self._set_state(LinkState.WAITING)
            await self._sleep(delay)

    async def _connect_and_serve(self) -> None:
        assert self._executor is not None
        opening = self._executor.submit(self._open_port)
        try:
            port = await asyncio.wrap_future(opening)
        except ValueError as err:
            raise ShoePortSettingError(f"shoe port {self.url!r} is not usable: {err}") from err
        except asyncio.CancelledError:
            opening.add_done_callback(_close_if_opened)  # stop() came while the port was opening
            raise
        self.connects += 1
        try:
            await self._serve(port)
        finally:
            # Queued behind any read still running in the worker thread, so it never closes under it.
            with contextlib.suppress(Exception):
                await asyncio.shield(self._io(port.close))

    async def _serve(self, port: serial.Serial) -> None:
        loop = asyncio.get_running_loop()
        self.session.connected()
        await self._io(port.write, self.session.data_to_send())
        heard = loop.time()
        frames = self.session.shoe_frames
        while True:
            data = await self._io(_read_some, port)
            now = loop.time()
            if data:
                events = self.session.receive_data(data)
                if self.session.shoe_frames != frames:
                    frames = self.session.shoe_frames
                    heard = now
                    self._went_online()
                self._dispatch(events)
                out = self.session.data_to_send()  # ACKs go out after on_card has taken the reads
                if out:
                    await self._io(port.write, out)
            if now - heard > self.heartbeat_timeout:
                raise ShoeSilentError(f"no frame from the shoe for {self.heartbeat_timeout:g} s")

    def _dispatch(self, events: list[SessionEvent]) -> None:
        refused = False
        for event in events:
            if isinstance(event, CardRead):
                if refused:
                    continue  # after a read that was not taken: the shoe resends these in order
                self._position = (event.boot, event.seq)
                if not self._take(event):
                    refused = True
                    self.session.refuse(event)  # not acknowledged: the shoe keeps it and sends it again
                    self._position = (event.boot, event.seq - 1)
            else:
                self._emit(event)

    def _take(self, read: CardRead) -> bool:
        """Hand ``read`` on; False if the daemon could not take it (it was not made durable)."""
        try:
            if self._on_read is not None:
                return self._on_read(read)
            if self._on_card is not None:
                self._on_card(read.uid)
        except Exception:  # the daemon's bug must not take the shoe offline or stop the ACKs
            _LOGGER.exception("shoe callback failed for %s", type(read).__name__)
        return True

    def _went_online(self) -> None:
        if self._state is LinkState.ONLINE:
            return
        if self._failures:
            _LOGGER.info("shoe on %s back online after %d failed attempts", self.url, self._failures)
        else:
            _LOGGER.info("shoe on %s online", self.url)
        self._failures = 0
        self._reported_offline = False
        self._set_state(LinkState.ONLINE)
        self._online.set()
        self._emit(ShoeOnline(self.url))

    def _went_offline(self, reason: str) -> None:
        self._online.clear()
        if not self._reported_offline:
            self._reported_offline = True
            self._emit(ShoeOffline(self.url, reason))

    def _emit(self, event: ShoeEvent) -> None:
        if self._on_event is None:
            return
        try:
            self._on_event(event)
        except Exception:
            _LOGGER.exception("shoe callback failed for %s", type(event).__name__)

    def _set_state(self, state: LinkState) -> None:
        if state is not self._state:
            _LOGGER.debug("shoe link %s: %s -> %s", self.url, self._state.value, state.value)
            self._state = state
