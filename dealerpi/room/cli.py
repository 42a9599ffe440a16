"""``dealerpi room --config room.toml``: the room service (hands in SQLite, statistics, waiting lists, the
room page); ``dealerpi room broker-files DIR --prefix P TABLE...``: the broker's ACL and password files;
``dealerpi room desk --config room.toml register NAME... | start | show``: the tournament desk."""

from __future__ import annotations

import argparse
import logging
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from aiohttp import web

from dealerpi.room import desk
from dealerpi.room.acl import write_broker_files
from dealerpi.room.service import RoomService
from dealerpi.room.settings import RoomConfigError, RoomSettings, load_room
from dealerpi.room.store import Store
from dealerpi.room.web import RoomPage
from dealerpi.webkit.access import is_loopback
from dealerpi.webkit.pairing import load_tokens, page_urls, write_pairing
from dealerpi.webkit.running import run_until_signal
from dealerpi.wire.broker import NAME, ROOM


async def serve(settings: RoomSettings, ready: Callable[[int, RoomService], None] | None = None) -> None:
    """The room until cancelled: the MQTT side and the page in one loop."""
    if isinstance(settings.database, Path):
        settings.database.parent.mkdir(parents=True, exist_ok=True)
    store = Store(settings.database)
    service = RoomService(settings, store)
    tokens = load_tokens(settings.state)
    host, port = settings.listen_address()
    page = RoomPage(service, tokens, token_required=not is_loopback(host))
    runner = web.AppRunner(page.app(), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    port = runner.addresses[0][1]
    pairing = write_pairing(settings.state, {role: url.replace(f"/{role}?", "/?")
                                             for role, url in page_urls(settings.listen, port, tokens).items()})
    print(f"DealerPi room on {host}:{port}; the page's URLs with their tokens: {pairing}", flush=True)
    if ready is not None:
        ready(port, service)
    try:
        await service.run()
    finally:
        await runner.cleanup()
        store.close()


def _broker_files(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="dealerpi room broker-files",
                                     description="Write mosquitto's acl_file and password_file for a room.")
    parser.add_argument("folder", type=Path)
    parser.add_argument("tables", nargs="+")
    parser.add_argument("--prefix", default="dealerpi")
    args = parser.parse_args(argv)
    bad = [t for t in [args.prefix, *args.tables] if not NAME.match(t) or t == ROOM]
    if bad:
        print(f"dealerpi room broker-files: {', '.join(map(repr, bad))}: a name is 1-32 of a-z, 0-9, _ and - "
              f"(not {ROOM!r})", file=sys.stderr)
        return 2
    try:
        files = write_broker_files(args.folder, args.prefix, args.tables)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"dealerpi room broker-files: {exc} (is mosquitto installed? apt-get install mosquitto)",
              file=sys.stderr)
        return 1
    print(f"acl_file {files['acl']}\npassword_file {files['passwd']}\n"
          f"mosquitto's configuration: {files['conf']} (copy it to /etc/mosquitto/conf.d/)\n"
          f"each user's password: {args.folder}/NAME.password (copy it to that table as [mqtt] password_file)")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["broker-files"]:
        return _broker_files(argv[1:])
    if argv[:1] == ["desk"]:
        return desk.main(argv[1:])
    parser = argparse.ArgumentParser(prog="dealerpi room", description="The card room service (docs/room.md).")
    parser.add_argument("--config", type=Path, required=True)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    try:
        settings = load_room(args.config)
    except RoomConfigError as exc:
        print("\n".join(exc.errors), file=sys.stderr)
        return 2
    return run_until_signal(serve(settings), "dealerpi room")
