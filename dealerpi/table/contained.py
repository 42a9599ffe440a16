"""A bug in one event is an alert, not a stopped table: the guard around the daemon's entry points.

Every entry point of the controller (a button edge from the device thread, a shoe read or event from the
link, a timer turn of the main loop) runs inside :func:`contained`: an exception becomes a log record with
its traceback and an alert on the dealer's display, and the table keeps running (never a stopped daemon;
house rule: a fault is never hidden, never a traceback to a user).
"""

from __future__ import annotations

import collections
import contextlib
import functools
import logging
from collections.abc import Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from dealerpi.views.model import Alert

_LOGGER = logging.getLogger(__name__)

_P = ParamSpec("_P")
_T = TypeVar("_T")


class Guarded(Protocol):
    """What the guard needs of the daemon: the dealer's alerts and its display."""

    alerts: collections.deque[Alert]

    def refresh_dealer(self) -> None: ...


_G = TypeVar("_G", bound=Guarded)


def contained(default: _T) -> Callable[[Callable[Concatenate[_G, _P], _T]], Callable[Concatenate[_G, _P], _T]]:
    """The method returns ``default`` when it raised (module docstring)."""
    def wrap(method: Callable[Concatenate[_G, _P], _T]) -> Callable[Concatenate[_G, _P], _T]:
        @functools.wraps(method)
        def guarded(self: _G, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
            try:
                return method(self, *args, **kwargs)
            except Exception as error:
                _LOGGER.exception("internal error in %s", method.__name__)
                self.alerts.append(Alert("ERROR", f"internal error ({type(error).__name__}): see the log; "
                                                  "restart the table if it repeats"))
                with contextlib.suppress(Exception):
                    self.refresh_dealer()
                return default
        return guarded
    return wrap
