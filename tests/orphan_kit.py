"""Servers the tests start die with the test run, even when pytest is killed (SIGKILL, SIGTERM): no postgres or
mosquitto outlives it (issue 15).

The server's command is run through setpriv(1) (util-linux, Essential in Debian) with ``--pdeathsig``: setpriv
sets PR_SET_PDEATHSIG and execs the server in the same process, so the kernel sends the server that signal when
its parent dies, however it dies. PR_SET_PDEATHSIG(2const): the setting "is preserved across execve(2)" (the
server is not set-user-ID), and it is cleared on a change of effective user: subprocess's ``user=`` (pg_kit
under root) changes user before it execs setpriv, so setpriv sets it after. The "parent" is the thread that
started the process: the kits start servers from pytest's main thread (fixtures, and async tests on its loop),
never from a worker thread that could end first.
"""

from __future__ import annotations

import shutil
import signal


def dies_with_parent(argv: list[str], sig: signal.Signals = signal.SIGTERM) -> list[str]:
    """``argv`` run so that the process gets ``sig`` when the process that started it dies."""
    if shutil.which("setpriv") is None:
        raise RuntimeError("setpriv is missing: it is util-linux's (Debian: the util-linux package)")
    return ["setpriv", f"--pdeathsig={sig.name.removeprefix('SIG')}", "--", *argv]
