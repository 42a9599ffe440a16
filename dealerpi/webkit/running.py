"""Running a network service's coroutine (the console, the room) until SIGINT or SIGTERM, as systemd stops it."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import signal
import sys
from collections.abc import Coroutine
from typing import Any


class ServiceFault(Exception):
    """A part of a running process stopped for good (say, the console's room bridge): the message says which.
    The command exits with one line and status 1; its unit's ``Restart=on-failure`` starts it again."""


def run_until_signal(main: Coroutine[Any, Any, None], command: str, *, port_option: str | None = None) -> int:
    """Run ``main`` until it ends or a signal cancels it: 0; an OSError or ValueError (a port in use, a bad
    file) is one line on stderr naming ``command``: 1, never a traceback. A port in use says so, and names the
    command's ``port_option`` when it has one."""
    loop = asyncio.new_event_loop()
    task = loop.create_task(main)
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, task.cancel)
    try:
        loop.run_until_complete(task)
    except asyncio.CancelledError:
        pass
    except ServiceFault as fault:
        print(f"{command}: {fault}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        hint = ""
        if isinstance(exc, OSError) and exc.errno == errno.EADDRINUSE:
            hint = f" (another program has that port: choose one with {port_option})" if port_option else \
                " (another program has that port)"
        print(f"{command}: {exc}{hint}", file=sys.stderr)
        return 1
    finally:
        loop.close()
    return 0
