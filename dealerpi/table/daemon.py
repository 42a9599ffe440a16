"""The table daemon: ``dealerpi run --config FILE [--fake] [--shoe URL|virtual] [--wait-for-hardware]``.

The process around :class:`dealerpi.table.controller.Controller`: it opens the journal folder (start-up from the
last good checkpoint), starts the shoe link and the console's local API, and runs the asyncio loop. Everything
runs on the loop's thread: gpiozero callbacks and the shoe link only hand events over
(``loop.call_soon_threadsafe``).

systemd: READY=1 once the journal is read back and buttons, LEDs and displays are up; WATCHDOG=1 from the
main loop every third of WatchdogSec; STATUS= says what the table expects. Logs go to stderr. A journal it
cannot start from is shown on every display and the daemon waits to be stopped, then exits with 2
(:func:`_refused`); a restart would refuse again.

On fake devices with a ``[console]`` socket the daemon also has the virtual-hardware panel, and ``--shoe
virtual`` puts the simulator's shoe (a pty, the simulator's decks) at the far end of the same shoe link:
``dealerpi sim`` is this daemon with the console. Those parts are the simulator's, handed in by the shell
(:class:`dealerpi.table.virtual.VirtualHardware`): the daemon imports no simulator (issue 22).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dealerpi.config import Config, ConfigError, load
from dealerpi.devices import ButtonEdge, Devices, make_devices
from dealerpi.devices.display import DISPLAY_ERRORS
from dealerpi.devices.gpio import HardwareError, HardwareMissing
from dealerpi.engine import Table
from dealerpi.journal.file import JournalError, describe
from dealerpi.journal.folder import JournalFolder, Recovered, folder_for
from dealerpi.shoe.alerts import load_decks
from dealerpi.shoe.link import ShoeLink
from dealerpi.table.controller import Controller
from dealerpi.table.hardware_wait import wait_for_hardware
from dealerpi.table.systemd_notify import SystemdNotifier
from dealerpi.table.virtual import Panel, VirtualHardware, VirtualShoe
from dealerpi.views.model import Alert, DealerView
from dealerpi.views.render import render_dealer

if TYPE_CHECKING:
    from dealerpi.table.api.server import ApiServer

_LOGGER = logging.getLogger(__name__)

HARDWARE_REFUSED = 3    # exit status; the unit's RestartPreventExitStatus= (a restart would refuse again)
JOURNAL_REFUSED = 2     # the journal cannot be started from: also in RestartPreventExitStatus=, as a bad config
VIRTUAL_SHOE = "virtual"



def open_journal(config: Config) -> tuple[JournalFolder, Recovered[Table], dict[str, Any]]:
    """The journal folder, what start-up recovered from it, and the checkpoint that start-up used (empty
    without one): its ``console`` part is the local API's (the session ledger), its ``table_source`` where
    the table came from (table_source.py)."""
    used: list[dict[str, Any]] = []

    def rebuild(data: dict[str, Any]) -> Table:
        table = Table.from_snapshot(data)
        used.append(data)
        return table

    def check(data: dict[str, Any] | None, entries: list[dict[str, Any]]) -> dict[str, Any]:
        table = Table.from_snapshot(data) if data is not None else Table()
        for entry in entries:
            table.apply(entry)
        snapshot: dict[str, Any] = json.loads(json.dumps(table.snapshot()))     # as a checkpoint file holds it
        return snapshot

    journal, recovered = JournalFolder.open(config.journal, rebuild, keep_segments=config.journal_keep_segments,
                                            keep_bytes=config.journal_keep_bytes, check=check)
    return journal, recovered, used[-1] if used else {}


async def serve(config: Config, devices: Devices, *, shoe_url: str | None = None,
                stop: asyncio.Event | None = None, ready: Callable[[], None] | None = None,
                deck_rng: random.Random | None = None, started: Callable[[Controller], None] | None = None,
                virtual: VirtualHardware | None = None) -> int:
    """Run the table until ``stop`` is set (or SIGTERM/SIGINT). ``virtual``: the simulator's parts, on fake
    devices only (the panel); with ``shoe_url`` :data:`VIRTUAL_SHOE`, its shoe, the deck shuffled by
    ``deck_rng``. ``started`` is shown the
    controller once the journal is read back (the simulator's tests look at the table through it)."""
    loop = asyncio.get_running_loop()
    stop = stop or asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):   # not the main thread (tests)
            loop.add_signal_handler(sig, stop.set)
    try:
        journal, recovered, checkpoint = open_journal(config)
    except (OSError, JournalError) as exc:
        return await _refused(config, devices, exc, stop, ready)
    wake = asyncio.Event()

    def post(edge: ButtonEdge) -> None:                # runs on gpiozero's thread
        loop.call_soon_threadsafe(controller.on_edge, edge)
        loop.call_soon_threadsafe(wake.set)

    if shoe_url == VIRTUAL_SHOE and virtual is None:
        raise ValueError(f"shoe {VIRTUAL_SHOE!r} is the simulator's: pass its parts (virtual=)")
    shoe = virtual.shoe() if virtual is not None and shoe_url == VIRTUAL_SHOE else None
    decks = virtual.decks() if virtual is not None and shoe is not None else load_decks(config.decks)
    controller = Controller(config, devices, journal, post=post, decks=decks)
    controller.restore_checkpoint(checkpoint)
    api = _make_api(controller, config)
    panel = _make_panel(controller, devices, api, virtual, shoe, deck_rng)
    if api is not None and recovered.table is not None:
        api.restore(checkpoint.get("console"))
    controller.replay(recovered.entries, recovered)
    for fault in recovered.damage:        # old hands only: the table plays on (docs/journal.md)
        short = fault.replace(f"{journal.folder}/", "")
        controller.alerts.append(Alert("JOURNAL", f"Journal damaged in an old hand: {short}. Copy the journal "
                                                  "folder away after the session"))
    if recovered.damage:
        controller.refresh_dealer()
    if panel is not None:
        panel.resume(recovered.entries)
    if started is not None:
        started(controller)
    if api is not None and not await _start_api(controller, api):
        api = None
    if shoe is not None:
        await shoe.start()
        shoe_url = shoe.url
    link = ShoeLink(shoe_url or config.shoe_port, on_read=controller.on_read, on_event=controller.on_shoe_event,
                    resume_from=controller.shoe_position)
    if link is not None:
        await link.start()
    notifier = SystemdNotifier()
    notifier.notify("READY=1")
    notifier.notify(f"STATUS={controller.status()}")
    if ready is not None:
        ready()
    _LOGGER.info("dealerpi ready: %d seats, devices=%s", len(config.seats), devices.kind)
    ping_every = notifier.watchdog_interval or 5.0
    next_ping = 0.0
    try:
        while not stop.is_set():
            now = time.monotonic()
            if now >= next_ping:
                notifier.notify("WATCHDOG=1")          # from the main loop: a stuck loop stops the pings
                next_ping = now + ping_every
            controller.tick()
            deadline = controller.next_deadline()
            timeout = min(next_ping, deadline if deadline is not None else next_ping, now + 1.0) - now
            wake.clear()
            waiters = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(wake.wait())]
            await asyncio.wait(waiters, timeout=max(0.0, timeout), return_when=asyncio.FIRST_COMPLETED)
            for waiter in waiters:
                waiter.cancel()
    finally:
        notifier.notify("STOPPING=1")
        if api is not None:
            await api.stop()
        if link is not None:
            await link.stop()
        if shoe is not None:
            await shoe.stop()
        controller.close()
        journal.close()
    return 0


async def _refused(config: Config, devices: Devices, exc: OSError | JournalError, stop: asyncio.Event,
                   ready: Callable[[], None] | None) -> int:
    """A journal the table cannot start from: one message with one instruction on every display; under
    systemd (``NOTIFY_SOCKET``) the daemon stays up (READY, watchdog pings) until it is stopped, then exits
    with :data:`JOURNAL_REFUSED`. Exiting at once made the unit restart it every 2 s with nothing on the
    table (issue 23); a restart cannot repair a line, a person must. Run by hand it logs the message and
    exits with that status at once. The journal is not touched (JournalFolder.open raised before any
    write)."""
    folder = folder_for(config.journal)
    if isinstance(exc, JournalError):
        title, status = "JOURNAL DAMAGED", f"journal damaged: {exc}"
        text = f"{str(exc).replace(f'{folder}/', '')}. Repair it (see the log), then restart the table"
    else:
        title, status = "JOURNAL UNREADABLE", f"cannot open the journal {folder}: {describe(exc)}"
        text = f"{status}. Check the SD card, then restart the table"
    image = render_dealer(DealerView(0, title, alerts=(Alert("JOURNAL", text),)))
    for display in devices.all_displays():
        with contextlib.suppress(*DISPLAY_ERRORS):
            devices.open_display(display).display(image)
    if not os.environ.get("NOTIFY_SOCKET"):         # by hand, not under the unit: the terminal shows it
        _LOGGER.error("%s", status)
        return JOURNAL_REFUSED
    _LOGGER.error("%s; the table waits (restart it once repaired)", status)
    notifier = SystemdNotifier()
    notifier.notify("READY=1")
    notifier.notify(f"STATUS={status}")
    if ready is not None:
        ready()
    ping_every = notifier.watchdog_interval or 5.0
    while not stop.is_set():
        notifier.notify("WATCHDOG=1")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), ping_every)
    notifier.notify("STOPPING=1")
    return JOURNAL_REFUSED


def _make_api(controller: Controller, config: Config) -> ApiServer | None:
    """The local API for ``dealerpi console`` when the config has a ``[console]`` section."""
    if config.console is None:
        return None
    from dealerpi.table.api.server import ApiServer

    api = ApiServer(controller, config.console.socket)
    controller.api = api                 # the pipeline's first observer (applied.LocalApi)
    return api


def _make_panel(controller: Controller, devices: Devices, api: ApiServer | None, virtual: VirtualHardware | None,
                shoe: VirtualShoe | None, deck_rng: random.Random | None) -> Panel | None:
    """The virtual-hardware panel on the API's socket, on fake devices only (None on real ones); its dealer
    console names no hole card in a pending EXPOSED (the panel sends the dealer display's frame to a page)."""
    if virtual is None or api is None:
        return None
    panel = virtual.panel(controller.config, devices, lambda: controller.table, shoe=shoe, deck_rng=deck_rng)
    if panel is None:
        return None
    controller.console = virtual.dealer_console(lambda card: any(card in board for board in controller.table.board()))
    api.panel = panel
    panel.on_change = api.changed
    return panel


async def _start_api(controller: Controller, api: ApiServer) -> bool:
    """Listen on the API's socket; if it cannot, the table goes on without the console, and says so."""
    try:
        await api.start()
    except OSError as exc:
        _LOGGER.error("the console's socket %s: %s; the table goes on without the console", api.path, exc)
        controller.alerts.append(Alert("CONSOLE", f"console socket failed ({exc.strerror or exc}): "
                                                  "check [console] socket in the config"))
        controller.api = None
        controller.refresh_dealer()
        return False
    return True


def main(argv: list[str], virtual: VirtualHardware | None = None) -> int:
    """``dealerpi run``: see the module docstring. ``virtual``: the simulator's parts, used with ``--fake``."""
    parser = argparse.ArgumentParser(prog="dealerpi run", description="Run the table daemon.")
    parser.add_argument("--config", type=Path, default=Path("/etc/dealerpi/dealerpi.toml"))
    parser.add_argument("--fake", action="store_true", help="fake pins and displays, whatever the config says")
    parser.add_argument("--shoe", help="the shoe's port or pyserial URL, instead of the config's; with --fake, "
                                       f"{VIRTUAL_SHOE!r} is the simulator's shoe, dealt from the console's panel")
    parser.add_argument("--wait-for-hardware", action="store_true",
                        help="wait (showing what is missing) for a gpiochip or multiplexer channel that is not there "
                             "yet, instead of refusing to start (the systemd unit: drivers may bind after boot)")
    args = parser.parse_args(argv)
    try:
        config = load(args.config)
    except ConfigError as exc:
        print("\n".join(exc.errors), file=sys.stderr)
        return 2
    logging.basicConfig(stream=sys.stderr, level=config.log_level,
                        format="%(levelname)s %(name)s: %(message)s")
    devices = make_devices(config, fake=args.fake)
    if args.shoe == VIRTUAL_SHOE and devices.kind != "fake":
        print(f"dealerpi run: --shoe {VIRTUAL_SHOE} is the simulator's shoe: add --fake (real devices read the "
              "shoe on its port)", file=sys.stderr)
        devices.close()
        return 2
    if args.shoe == VIRTUAL_SHOE and virtual is None:
        print(f"dealerpi run: --shoe {VIRTUAL_SHOE} needs the simulator's parts: run it as `dealerpi run` or "
              "`dealerpi sim`", file=sys.stderr)
        devices.close()
        return 2
    try:
        wait_for_hardware(devices, wait=args.wait_for_hardware)
        return asyncio.run(serve(config, devices, shoe_url=args.shoe,
                                 virtual=virtual if devices.kind == "fake" else None))
    except (HardwareMissing, HardwareError) as exc:
        print(f"dealerpi run: {exc}\n(see `dealerpi doctor --config {args.config}`)", file=sys.stderr)
        return HARDWARE_REFUSED
    finally:
        devices.close()
