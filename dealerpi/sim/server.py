"""``dealerpi sim``: the table daemon on fake devices, the console, and the virtual-hardware panel, in one command.

Nothing here is a second table or a second page: the daemon is :func:`dealerpi.table.daemon.serve` on
:class:`~dealerpi.devices.FakeDevices` with the virtual shoe (``--shoe virtual``), which gives its socket the
``panel`` role (:mod:`dealerpi.sim.panel`); the pages are :func:`dealerpi.console.server.serve`'s, the panel
page among them. Both run in this one process on one asyncio loop, talking over the daemon's Unix socket
exactly as the two systemd units do (docs/simulator.md says why one process and not two).

The evening lives in ``--out`` (a new temporary folder by default): ``journal/`` (the daemon's journal
folder), ``run/api.sock``, and ``console/`` with the console's ``tokens.json`` and ``pairing.txt`` (0600).
Tokens are never on a command line: on 127.0.0.1 the pages need none; listening anywhere else
(``--host``), the URLs with their tokens are in ``pairing.txt``, and no browser is started with one.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import os
import random
import sys
import tempfile
import webbrowser
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from dealerpi import config as config_module
from dealerpi.devices import FakeDevices
from dealerpi.journal.file import JournalError
from dealerpi.journal.file import read as read_journal
from dealerpi.journal.folder import entries_from, folder_for, segment_name, segments_of
from dealerpi.table.controller import Controller
from dealerpi.table.source import settings
from dealerpi.webkit.access import is_loopback
from dealerpi.webkit.running import run_until_signal

_LOGGER = logging.getLogger(__name__)

DEFAULT_PORT = 8765
SIM_CONFIG = resources.files("dealerpi.sim") / "table.toml"
START_JOURNAL = resources.files("dealerpi.sim") / "start.jsonl"


def journal_table(journal: Path) -> dict[str, Any] | None:
    """The table settings the simulator's config gets from the journal at ``journal`` (a single file, or its
    folder): the last ``table`` line the daemon journaled from the config (``"by": "config"``), else the last
    ``table`` line. At start-up the daemon keeps the journal's table (with the changes made from the pages)
    when the config's ``[table]`` is the one it last applied (table_source.py); the simulator's config is
    never edited by hand, so that is the one to give it."""
    folder = folder_for(journal)
    if folder.is_dir():
        entries: Any = entries_from(folder, segments_of(folder))
    elif journal.is_file():
        entries = read_journal(journal)[0]
    else:
        return None
    last = from_config = None
    for entry in entries:
        if entry.get("type") == "table":
            last = settings(entry)
            if entry.get("by") == "config":
                from_config = last
    return from_config or last


def sim_config(base: config_module.Config, out: Path, listen: str) -> config_module.Config:
    """``base`` (the wiring and the first table) with the evening's paths under ``out`` and the journal's table."""
    journal = out / "journal.jsonl"
    console = config_module.ConsoleSettings(socket=out / "run" / "api.sock", listen=listen, state=out / "console")
    table = journal_table(journal) or base.table
    return dataclasses.replace(base, devices="fake", journal=journal, decks=out / "decks", table=table,
                               console=console)


def prepare_journal(args: argparse.Namespace) -> Path:
    """The evening's folder: ``--out`` (its journal resumed), or a new one with a copy of ``--journal`` or the
    start-up table as its first inputs (segment 1 of the journal folder)."""
    out: Path = args.out or Path(tempfile.mkdtemp(prefix="dealerpi-sim-"))
    out.mkdir(parents=True, exist_ok=True)
    journal = out / "journal.jsonl"
    if journal.exists() or folder_for(journal).exists():
        if args.journal is not None:
            raise FileExistsError(f"{out} holds a journal: give --journal a fresh --out, or drop --journal to go "
                                  "on from it")
        if journal.is_file():
            read_journal(journal)                # a damaged journal is an error now, not half a table later
        return out
    if args.journal is not None:
        read_journal(args.journal)               # a damaged journal is an error now, not half a table later
    source = args.journal.read_text(encoding="utf-8") if args.journal else START_JOURNAL.read_text(encoding="utf-8")
    first = folder_for(journal) / segment_name(1)           # the journal folder's first segment
    first.parent.mkdir()
    first.write_text(source if source.endswith("\n") or not source else source + "\n", encoding="utf-8")
    return out


async def run_sim(config: config_module.Config, devices: FakeDevices, *, deck_rng: random.Random | None = None,
                  ready: Callable[[int], None] | None = None,
                  started: Callable[[Controller], None] | None = None) -> int:
    """The daemon and the console on one loop until cancelled (or one of them stops): the daemon's exit status.
    ``ready`` is given the console's port."""
    from dealerpi.console.server import serve as serve_console
    from dealerpi.sim.hardware import SimHardware
    from dealerpi.table.daemon import VIRTUAL_SHOE
    from dealerpi.table.daemon import serve as serve_daemon

    assert config.console is not None
    stop, daemon_ready = asyncio.Event(), asyncio.Event()
    daemon = asyncio.ensure_future(serve_daemon(config, devices, shoe_url=VIRTUAL_SHOE, stop=stop,
                                                ready=daemon_ready.set, deck_rng=deck_rng, started=started,
                                                virtual=SimHardware()))
    console: asyncio.Future[None] | None = None
    try:
        await asyncio.wait([daemon, asyncio.ensure_future(daemon_ready.wait())], return_when=asyncio.FIRST_COMPLETED)
        if daemon.done():
            return daemon.result()
        console = asyncio.ensure_future(serve_console(config.console, ready, journal=config.journal))
        await asyncio.wait([daemon, console], return_when=asyncio.FIRST_COMPLETED)
        if console.done():
            console.result()                      # a console that could not start (a port in use) says why
        return daemon.result() if daemon.done() else 0
    finally:
        if console is not None:
            console.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await console
        stop.set()
        with contextlib.suppress(asyncio.CancelledError):
            await daemon


async def _open_browser(url: str) -> bool:
    """Open ``url`` in a graphical browser, if there is one. On Linux without a display Python's webbrowser
    would fall back to a text browser in this terminal (lynx, w3m), so it is not asked; it runs in a thread
    because some browsers' launchers wait."""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    return bool(await asyncio.to_thread(webbrowser.open, url))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dealerpi sim",
                                     description="The table daemon on fake devices, the console and the "
                                                 "virtual-hardware panel, in a browser.")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0 = any free)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; any other needs the tokens in "
                             "OUT/console/pairing.txt)")
    parser.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")
    parser.add_argument("--journal", type=Path, help="start from this journal (it is copied, not changed)")
    parser.add_argument("--config", type=Path, help="a table config to simulate (default: the 10-seat example)")
    parser.add_argument("--out", type=Path, help="folder for the evening (default: a new temporary one); "
                                                 "the same --out again goes on from its journal")
    parser.add_argument("--seed", type=int, help="seed of the virtual deck's shuffles (repeatable sessions)")
    return parser


async def _serve(args: argparse.Namespace, config: config_module.Config) -> None:
    assert config.console is not None
    devices = FakeDevices(config)
    loopback = is_loopback(args.host)

    def ready(port: int) -> None:
        assert config.console is not None
        host = f"[{args.host}]" if ":" in args.host else args.host
        if loopback:
            print(f"DealerPi simulator: http://{host}:{port}/panel", flush=True)
        else:
            print(f"DealerPi simulator on {host}:{port}: the URLs with their tokens are in "
                  f"{config.console.state / 'pairing.txt'}", flush=True)
        print(f"journal: {folder_for(config.journal)}", flush=True)
        if loopback and not args.no_browser:
            task = asyncio.ensure_future(_open_browser(f"http://{host}:{port}/panel"))
            task.add_done_callback(lambda t: None if t.result() else
                                   print("no browser found here: open the URL above in one", flush=True))

    try:
        status = await run_sim(config, devices, ready=ready,
                               deck_rng=random.Random(args.seed) if args.seed is not None else None)
    finally:
        devices.close()
    if status:
        raise ValueError(f"the table daemon stopped (status {status}): see the messages above")


def main(argv: list[str]) -> int:
    """``dealerpi sim [--port N] [--host H] [--no-browser] [--journal FILE] [--config FILE] [--out DIR]``."""
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    if args.journal is not None and not args.journal.is_file():
        print(f"dealerpi sim: {args.journal}: no such journal file", file=sys.stderr)
        return 2
    try:
        base = config_module.load(args.config or str(SIM_CONFIG))
        out = prepare_journal(args)
        config = sim_config(base, out, f"{args.host}:{args.port}")
    except config_module.ConfigError as exc:
        print("\n".join(exc.errors), file=sys.stderr)
        return 2
    except (OSError, JournalError) as exc:
        print(f"dealerpi sim: {exc}", file=sys.stderr)
        return 2
    return run_until_signal(_serve(args, config), "dealerpi sim", port_option="--port")
